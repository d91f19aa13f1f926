import { throwIfAborted } from '../../abort';
import type { BudgetReserver } from '../../privacy/accountant';
import type { MeterStep, StageMeter, StepTicket } from '../../privacy/meter';
import { meteredPlausibleDeniabilityTest } from '../../privacy/metered';
import type { PlausibleDeniabilityTest } from '../../privacy/plausible-deniability-cost';
import { roundUpRational } from '../../privacy/round-up';
import { Rational } from '../../rng/rational';
import { shuffleInPlace } from '../../rng/shuffle';
import type { Rng } from '../../rng/types';
import type { Column, Schema, Table } from '../../table/types';
import {
  correlations,
  drawCumulativeTables,
  greedyStructure,
  kahnOrder,
  noisyEntropies,
  noisyTableCounts,
  tableShapes,
  type TableShape,
} from '../../models/bayes-net';
import { levelsPerColumn } from '../common/binning/binned-mechanism';
import { syntheticColumnFromLevels } from '../common/coding/decode-rows';
import { columnsForCodings, levelsOfColumn } from '../common/coding/encode-rows';
import { runStagesInOneThread } from '../staged-run';
import { defineStagedMechanism } from '../shape/define-staged-mechanism';
import type { ParamValues, Release, RunContext } from '../types';
import { type CompletePdPlan, plausibleDeniabilityMeta } from './meta';
import { seedTestOf } from './plan';
import { seedBandCounts, type SeedBands } from './seed-bands';
import { runSlot, type SlotSetup } from './slots';

/** Slots between two looks at the cancel signal (and progress reports). */
export const SLOTS_PER_CHECK = 16_384;
/** Slots per stage: fixed, so the stages (and a seeded output) do not depend on the number of workers. */
export const SLOTS_PER_CHUNK = 65_536;

/** The network learned on its parts, and the seeds' levels (row-major, n_S × m). */
export interface LearnedNetwork {
  parents: number[][];
  order: number[];
  shapes: TableShape[];
  /** Noisy counts ñ of every conditional table (negatives set to 0). */
  counts: Float64Array[];
  seedLevels: Uint32Array;
}

/**
 * The split and the network (after the reservation): a uniform permutation from `rng` makes the
 * structure, parameter and seed parts; the network is learned with noise on the first two, charged
 * to parts 1 (entropies) and 2 (tables) of the run's by-position step.
 */
export function learnNetwork(table: Table, plan: CompletePdPlan, rng: Rng, step: MeterStep): LearnedNetwork {
  const { sizes, m, levels, domain } = plan;
  const permutation = Uint32Array.from({ length: table.nRows }, (_, i) => i);
  shuffleInPlace(rng, permutation);
  const structureRows = permutation.subarray(0, sizes.structure);
  const parameterRows = permutation.subarray(sizes.structure, sizes.structure + sizes.parameters);
  const seedRows = permutation.subarray(sizes.structure + sizes.parameters);

  const realColumns = columnsForCodings(table, domain.codings);
  const coded = domain.codings.map((coding, j) => levelsOfColumn(realColumns[j]!, coding));
  const entropies = noisyEntropies(step.part(0), rng, coded, levels, structureRows, plan.modelEpsilon);
  const parents = greedyStructure(correlations(entropies), levels, plan.settings.maxParents, plan.maxCost);
  const order = kahnOrder(parents);
  const shapes = tableShapes(parents, levels);
  const counts = noisyTableCounts(step.part(1), rng, coded, shapes, parameterRows, plan.modelEpsilon);
  const seedLevels = new Uint32Array(sizes.seeds * m);
  for (let s = 0; s < sizes.seeds; s++) {
    for (let j = 0; j < m; j++) seedLevels[s * m + j] = coded[j]![seedRows[s]!]!;
  }
  return { parents, order, shapes, counts, seedLevels };
}

/** c(d, ω) for every seed and ω, by one sort. */
export function plausibleSeedCounts(
  learned: LearnedNetwork,
  plan: CompletePdPlan,
): { seedLevels: Uint32Array; bands: SeedBands } {
  return {
    seedLevels: learned.seedLevels,
    bands: seedBandCounts(learned.seedLevels, plan.m, learned.order, plan.omegaMin, plan.omegaMax),
  };
}

/**
 * What every chunk of a run reads, sent once to each worker (structured-cloneable): the network's
 * shape, each release's θ (cumulative tables), the seeds' levels and counts, and the test.
 */
export interface PdShared {
  m: number;
  shapes: TableShape[];
  order: number[];
  /** Cumulative conditional tables of θ, one set per release (θ is drawn per release). */
  cumulative: Float64Array[][];
  seedLevels: Uint32Array;
  bands: SeedBands;
  k: number;
  t: number;
  /** ε0 as numerator and denominator (a Rational does not survive structured cloning). */
  testEpsilon: { num: bigint; den: bigint };
  /** n_S, and the fallback coin p_f = fallbackNum/fallbackDen = t/(t + n_S). */
  seeds: number;
  fallbackNum: number;
  fallbackDen: number;
}

/** One stage: `count` consecutive slots of one release. */
export interface PdChunkSpec {
  release: number;
  count: number;
  /** The seed part of the run's step: the chunk's test draws charge it. */
  ticket: StepTicket;
}

/** What stays on the planning worker for the finish. */
export interface PdPlanned {
  plan: CompletePdPlan;
  parents: number[][];
  order: number[];
}

/** The levels of a chunk's rows, row-major (count × m). */
export type PdChunkResult = Uint32Array;

function runChunk(
  spec: PdChunkSpec,
  shared: PdShared,
  rng: Rng,
  progress: (done: number, total: number) => void,
  signal: { readonly aborted: boolean },
  meter: StageMeter | undefined,
): PdChunkResult {
  if (meter === undefined) throw new Error('a chunk of plausible-deniability slots needs its stage meter');
  const { m } = shared;
  const test: PlausibleDeniabilityTest = {
    k: shared.k,
    t: shared.t,
    testEpsilon: Rational.of(shared.testEpsilon.num, shared.testEpsilon.den),
    seeds: shared.seeds,
    fallbackNum: shared.fallbackNum,
    fallbackDen: shared.fallbackDen,
  };
  const setup: SlotSetup = {
    net: { shapes: shared.shapes, order: shared.order, cumulative: shared.cumulative[spec.release]! },
    m,
    seedLevels: shared.seedLevels,
    bands: shared.bands,
    test: meteredPlausibleDeniabilityTest(meter.step(spec.ticket), test, spec.count),
  };
  const out = new Uint32Array(spec.count * m);
  const row = new Uint32Array(m);
  for (let i = 0; i < spec.count; i++) {
    if (i % SLOTS_PER_CHECK === 0) {
      progress(i, spec.count);
      throwIfAborted(signal); // after the report, so a cancel made from it stops the chunk here
    }
    runSlot(rng, setup, row);
    out.set(row, i * m);
  }
  progress(spec.count, spec.count);
  return out;
}

/**
 * The run in stages (README.md), defineStagedMechanism: the plan (its problems refused) and the one
 * step reserved before any draw; `stages` splits, learns the network, counts plausible seeds, draws θ
 * per release and cuts the M·n slots into chunks of 65,536 slots within a release, each with its own
 * generator (seeded runs: seeds drawn in chunk order; otherwise a fresh CryptoRng); the network, every
 * release's θ and the seed arrays are the run's shared part (sent once per worker), a chunk's spec only
 * its release, row count and the seed part's ticket; `runStage` runs a chunk's slots anywhere and its
 * levels may be transferred back; `finish` puts the chunks back in order and decodes the levels. The
 * same seed gives the same release on any number of workers.
 */
export const plausibleDeniability = defineStagedMechanism(plausibleDeniabilityMeta, {
  read: (table, plan, ctx) => {
    if (table.nRows !== ctx.n) {
      throw new Error(`${plan.id}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`);
    }
    return table;
  },
  stages: (table, _plan, { plan, step }, ctx) => {
    throwIfAborted(ctx.signal);
    const rng = ctx.rng;
    const learned = learnNetwork(table, plan, rng, step);
    const seedTicket = step.part(2).ticket();
    const { seedLevels, bands } = plausibleSeedCounts(learned, plan);
    const cumulative: Float64Array[][] = [];
    const stages: { spec: PdChunkSpec; seed: string | null }[] = [];
    for (let release = 0; release < ctx.releases; release++) {
      cumulative.push(drawCumulativeTables(rng, learned.shapes, learned.counts, plan.settings.prior));
      for (let start = 0; start < ctx.n; start += SLOTS_PER_CHUNK) {
        stages.push({
          spec: { release, count: Math.min(SLOTS_PER_CHUNK, ctx.n - start), ticket: seedTicket },
          seed: rng.seeded ? `pd-chunk-${rng.nextUint32()}-${rng.nextUint32()}` : null,
        });
      }
    }
    const test = seedTestOf(plan);
    const shared: PdShared = {
      m: plan.m,
      shapes: learned.shapes,
      order: learned.order,
      cumulative,
      seedLevels,
      bands,
      k: test.k,
      t: test.t,
      testEpsilon: { num: test.testEpsilon.num, den: test.testEpsilon.den },
      seeds: test.seeds,
      fallbackNum: test.fallbackNum,
      fallbackDen: test.fallbackDen,
    };
    return {
      state: { plan, parents: learned.parents, order: learned.order } satisfies PdPlanned,
      shared,
      stages,
      words: { stage: 'chunk', stages: 'chunks of rows', step: 'row', finish: 'decoding the synthetic rows' },
    };
  },
  runStage: (spec: PdChunkSpec, rng, progress, signal, shared: PdShared, meter): PdChunkResult =>
    runChunk(spec, shared, rng, progress, signal, meter),
  transferables: (rows) => [rows.buffer as ArrayBuffer],
  finish({ plan, parents, order }, results, ctx) {
    const { m, domain } = plan;
    const datasets: Table[] = [];
    let chunk = 0;
    for (let release = 0; release < ctx.releases; release++) {
      const levels = domain.codings.map(() => new Uint32Array(ctx.n));
      for (let start = 0; start < ctx.n; start += SLOTS_PER_CHUNK) {
        const rows = results[chunk++]!;
        const count = rows.length / m;
        for (let i = 0; i < count; i++) {
          for (let j = 0; j < m; j++) levels[j]![start + i] = rows[i * m + j]!;
        }
      }
      const columns: Column[] = domain.codings.map((coding, j) =>
        syntheticColumnFromLevels(ctx.rng, levels[j]!, coding),
      );
      datasets.push({ nRows: ctx.n, columns });
    }
    return {
      datasets,
      diagnostics: {
        levelsPerColumn: levelsPerColumn(domain),
        partSizes: { ...plan.sizes },
        draws: plan.draws.draws,
        k: plan.draws.k,
        t: plan.draws.t,
        testEpsilon: roundUpRational(plan.draws.testEpsilon),
        // The network is a DP output (noisy entropies), so its shape is public.
        parents: Object.fromEntries(
          parents.map((ps, i) => [domain.codings[i]!.name, ps.map((p) => domain.codings[p]!.name)]),
        ),
        order: order.map((i) => domain.codings[i]!.name),
      },
    };
  },
});

/** The stages of a run, as the studio's workers run them. */
export const plausibleDeniabilityStaged = plausibleDeniability.staged;

/**
 * The run on one thread (the CLI): the spec's accountant on ctx.meter, or `accountant` (tests pass a
 * recording one).
 */
export function runPlausibleDeniability(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: BudgetReserver,
): Promise<Release> {
  if (accountant === undefined) return plausibleDeniability.run(table, schema, params, ctx);
  return runStagesInOneThread(plausibleDeniabilityStaged, table, schema, params, ctx, accountant);
}

import { throwIfAborted } from '../../abort';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { roundDownRational } from '../../privacy/round-up';
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
import { levelsPerColumn } from '../common/binned-mechanism';
import { syntheticColumnFromLevels } from '../common/decode-rows';
import { columnsForCodings, levelsOfColumn } from '../common/encode-rows';
import type { Mechanism, ParamValues, Release, RunContext } from '../types';
import {
  completePlan,
  type CompletePdPlan,
  plausibleDeniabilityAssumptions,
  plausibleDeniabilityMeta,
  reservePlausibleDeniability,
} from './meta';
import { PLAUSIBLE_DENIABILITY_ID } from './plan';
import { seedBandCounts, type SeedBands } from './seed-bands';
import { makeRandomizedTest, runSlot, type SlotSetup } from './slots';

/** Slots between two looks at the cancel signal (and progress reports). */
export const SLOTS_PER_CHECK = 16_384;

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
 * Steps 2–3 of the run (after the reservation): the uniform split, then the network learned with
 * noise on the structure and parameter parts. Exported for the bench.
 */
export function learnNetwork(table: Table, plan: CompletePdPlan, rng: Rng): LearnedNetwork {
  const { sizes, m, levels, domain } = plan;
  const permutation = Uint32Array.from({ length: table.nRows }, (_, i) => i);
  shuffleInPlace(rng, permutation);
  const structureRows = permutation.subarray(0, sizes.structure);
  const parameterRows = permutation.subarray(sizes.structure, sizes.structure + sizes.parameters);
  const seedRows = permutation.subarray(sizes.structure + sizes.parameters);

  const realColumns = columnsForCodings(table, domain.codings);
  const coded = domain.codings.map((coding, j) => levelsOfColumn(realColumns[j]!, coding));
  const entropies = noisyEntropies(rng, coded, levels, structureRows, plan.modelEpsilon);
  const parents = greedyStructure(correlations(entropies), levels, plan.settings.maxParents, plan.maxCost);
  const order = kahnOrder(parents);
  const shapes = tableShapes(parents, levels);
  const counts = noisyTableCounts(rng, coded, shapes, parameterRows, plan.modelEpsilon);
  const seedLevels = new Uint32Array(sizes.seeds * m);
  for (let s = 0; s < sizes.seeds; s++) {
    for (let j = 0; j < m; j++) seedLevels[s * m + j] = coded[j]![seedRows[s]!]!;
  }
  return { parents, order, shapes, counts, seedLevels };
}

/** Step 4: c(d, ω) for every seed and ω, by one sort. */
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
 * The run with the accountant made explicit (tests pass a recording one):
 * 1. plan from public facts and reserve the whole budget (one parallel step) before any draw;
 * 2. split the rows by a uniform permutation into structure, parameter and seed parts;
 * 3. learn the network: noisy entropies → structure → order σ (structure part); noisy conditional
 *    tables (parameter part);
 * 4. count plausible seeds c(d, ω) by one sort of the seeds;
 * 5. per release: θ ~ Dirichlet(prior + ñ), then n slots, each one row; decode the levels.
 */
export async function runPlausibleDeniability(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: Pick<Accountant, 'reserveParallel' | 'claim'> = new Accountant(
    parseBudget(ctx.epsilon, ctx.delta),
  ),
): Promise<Release> {
  const plan = completePlan(params, { ...ctx, schema });
  if (table.nRows !== ctx.n) {
    throw new Error(
      `${PLAUSIBLE_DENIABILITY_ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`,
    );
  }
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  reservePlausibleDeniability(accountant, plan, budget.epsilon);
  throwIfAborted(ctx.signal);

  const { sizes, draws, m, levels, domain } = plan;
  const rng = ctx.rng;
  ctx.progress(0, 'learning the network');
  const learned = learnNetwork(table, plan, rng);
  throwIfAborted(ctx.signal);
  const { parents, order, shapes, counts } = learned;
  const { seedLevels, bands } = plausibleSeedCounts(learned, plan);
  const test = makeRandomizedTest(draws.k, draws.testEpsilon);

  const total = draws.draws;
  const row = new Uint32Array(m);
  const datasets: Table[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    const setup: SlotSetup = {
      net: { shapes, order, cumulative: drawCumulativeTables(rng, shapes, counts, plan.settings.prior) },
      m,
      seedLevels,
      bands,
      test,
      fallbackNum: draws.t,
      fallbackDen: draws.t + sizes.seeds,
    };
    const out = levels.map(() => new Uint32Array(ctx.n));
    for (let i = 0; i < ctx.n; i++) {
      if (i % SLOTS_PER_CHECK === 0) {
        throwIfAborted(ctx.signal);
        const done = release * ctx.n + i;
        ctx.progress(done / total, `release ${release + 1} of ${ctx.releases}: row ${i + 1} of ${ctx.n}`);
      }
      runSlot(rng, setup, row);
      for (let j = 0; j < m; j++) out[j]![i] = row[j]!;
    }
    const columns: Column[] = domain.codings.map((coding, j) =>
      syntheticColumnFromLevels(rng, out[j]!, coding),
    );
    datasets.push({ nRows: ctx.n, columns });
  }
  ctx.progress(1, 'done');
  return {
    datasets,
    claim: accountant.claim(plausibleDeniabilityAssumptions(plan, ctx)),
    diagnostics: {
      levelsPerColumn: levelsPerColumn(domain),
      partSizes: { ...sizes },
      draws: total,
      k: draws.k,
      t: draws.t,
      testEpsilon: roundDownRational(draws.testEpsilon),
      // The network is a DP output (noisy entropies), so its shape is public.
      parents: Object.fromEntries(
        parents.map((ps, i) => [domain.codings[i]!.name, ps.map((p) => domain.codings[p]!.name)]),
      ),
      order: order.map((i) => domain.codings[i]!.name),
    },
    dataHolderDiagnostics: {},
  };
}

/** Plausible-deniability synthesis as workers and the CLI run it. */
export const plausibleDeniability: Mechanism = {
  ...plausibleDeniabilityMeta,
  run: (table, schema, params, ctx) => runPlausibleDeniability(table, schema, params, ctx),
};

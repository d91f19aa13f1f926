import type { Rng } from '../../rng/types';
import { uniformInt } from '../../rng/uniform-int';
import { throwIfAborted } from '../../abort';
import { InputError } from '../../table/errors';
import type { Schema, Table } from '../../table/types';
import { WHOLE_TABLES, type DatasetForm } from '../common/rows/dataset-form';
import { CliqueTreeModel } from '../../models/pgm/clique-tree-model';
import { countInMemory } from '../../counts/memory-count-source';
import type { CountQueryPlan, PlannedCounts } from '../../counts/count-source';
import { buildJunctionTree } from '../../models/pgm/junction-tree';
import { estimateByMirrorDescent, type Measurement } from '../../models/pgm/mirror-descent';
import { addDiscreteGaussianNoise } from '../common/graphical-models/noisy-marginal';
import { quantileNeedsRowsProblem } from '../common/graphical-models/pgm-quantile-step';
import type { ColumnCoding } from '../common/coding/column-coding';
import { learnQuantileEdges, quantileEdgeDiagnostics } from '../common/binning/quantile-bins';
import { sampleRows } from '../../models/pgm/sample-model';
import { projectOntoScaledSimplex } from '../../models/pgm/simplex-projection';
import type { ParamValues, PublicContext, RunContext } from '../types';
import { defineMechanism, type Drawn } from '../shape/define-mechanism';
import type { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import { epsilonInWords, sigmaInWords } from '../../privacy/in-words';
import { minimumVarianceTotal, syntheticRowsFromEstimate } from '../common/graphical-models/estimated-total';
import { compressLevels, identityCompression, type LevelCompression } from './compress-levels';
import { MST_ID, mstMeta, planMstDomain, type MstPlan, type MstReserved } from './meta';
import { pairScoresOfCounts, selectSpanningTree } from './select-tree';

/** What the draw reads: exact counts (from memory or a count source), or the table itself when quantile bins learn their edges from its rows first. */
export type MstInput = PlannedCounts | { table: Table };

/** MST's public diagnostics: the tree, the noise, the levels, the model's size and its fit. */
export interface MstDiagnostics {
  tree: [string, string][];
  oneWaySigma: string;
  twoWaySigma: string;
  selectionEpsilonPerRound: string;
  levelsAfterMerging: Record<string, number>;
  levelsBeforeMerging: Record<string, number>;
  modelCells: number;
  iterations: number;
  finalLoss: number;
  /** With quantile bins: the learned edges and point masses (DP outputs). */
  binEdges?: Record<string, number[]>;
  pointMassesFound?: Record<string, number[]>;
}

/**
 * What the draw reads from the table, before any reservation: the counts of every one- and two-way
 * marginal on the planned codings, or with quantile bins the table (the edges are drawn first, on the
 * binning step). Refuses a table whose row count is not the context's n.
 */
export function readMst(table: Table, { domain }: MstPlan, ctx: RunContext): MstInput {
  if (table.nRows !== ctx.n)
    throw new Error(`${MST_ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`);
  if (domain.binningShare !== undefined) return { table };
  return countInMemory(table, marginalsPlan(domain.codings));
}

/**
 * The counts MST reads, fixed by the schema, the parameters and n before any data is read: every
 * column's one-way marginal and every pair's two-way marginal on the uncompressed levels. The tree,
 * the merged levels and the measured pairs are chosen later from DP outputs; the counts they need are
 * sums of these (merging levels adds cells), so no query depends on the data.
 */
export function mstCountPlan(
  schema: Schema,
  params: ParamValues,
  context: PublicContext,
  learned?: ColumnCoding[],
): CountQueryPlan {
  const domain = planMstDomain(schema, params, context);
  const rowsNeeded = learned === undefined ? quantileNeedsRowsProblem(domain) : undefined;
  if (rowsNeeded) domain.problems.push(rowsNeeded);
  if (domain.problems.length > 0) throw new InputError(`${MST_ID} cannot run: ${domain.problems.join(' ')}`);
  return marginalsPlan(learned ?? domain.codings);
}

/** Every column's one-way marginal and every pair's two-way marginal on the given codings. */
function marginalsPlan(codings: ColumnCoding[]): CountQueryPlan {
  const d = codings.length;
  const marginals: number[][] = [];
  for (let j = 0; j < d; j++) marginals.push([j]);
  for (let a = 0; a < d; a++) for (let b = a + 1; b < d; b++) marginals.push([a, b]);
  return { codings, cells: false, marginals };
}

/**
 * The counts of the pair (a, b) on merged levels: each cell of the uncompressed marginal M_ab added
 * to the cell of its merged levels. Integer counts, so equal to counting rows on merged levels.
 */
function mergedPairCounts(
  counts: PlannedCounts,
  a: number,
  b: number,
  compressions: readonly LevelCompression[],
): Float64Array {
  const full = counts.marginal([a, b]);
  const mergedA = mergedLevelOf(compressions[a]!);
  const mergedB = mergedLevelOf(compressions[b]!);
  const sizeB = compressions[b]!.members.length;
  const out = new Float64Array(compressions[a]!.members.length * sizeB);
  for (let i = 0; i < mergedA.length; i++) {
    for (let j = 0; j < mergedB.length; j++)
      out[mergedA[i]! * sizeB + mergedB[j]!] += full[i * mergedB.length + j]!;
  }
  return out;
}

/** The merged level of each original level. */
function mergedLevelOf(compression: LevelCompression): Uint32Array {
  const levels = compression.members.reduce((sum, members) => sum + members.length, 0);
  const out = new Uint32Array(levels);
  compression.members.forEach((members, merged) => {
    for (const level of members) out[level] = merged;
  });
  return out;
}

/**
 * MST (McKenna, Miklau & Sheldon 2021, §4; private-pgm `mechanisms/mst.py`), under the run's relation
 * (the accountant's meter: replace-one with n public, or add/remove with n private), after the plan
 * reserved its steps (meta.ts: the binning step with quantile bins, then budget-plan.ts's three);
 * every draw goes through the privacy meter on the step it belongs to:
 * 1. with quantile bins, draw the bin edges on the binning step and count the marginals on them;
 * 2. measure every column's one-way histogram with discrete Gaussian noise σ₁² = 3d·Δ₂²/(2ρ); under
 *    add/remove the row count N is then estimated from these (estimated-total.ts) and used wherever
 *    replace-one uses the public n;
 * 3. merge each column's levels below 3σ₁ into one (compress-levels.ts);
 * 4. choose a spanning tree of column pairs: d − 1 exponential-mechanism rounds scoring each pair by
 *    the L1 error of the closed-form one-way model (select-tree.ts);
 * 5. measure the tree's two-way histograms with σ₂² = 3(d − 1)/ρ;
 * 6. fit a graphical model on the tree's edges to all measurements by mirror descent;
 * 7. draw every release's rows from that one model, spread merged levels uniformly back over their
 *    members, and decode levels to values (uniform within numeric bins).
 * The input is exact counts (in memory, an SQL engine, files of query results) or, with quantile
 * bins, the table.
 */
export async function drawMst<D>(
  input: MstInput,
  { domain, compress, iterations, sampling }: MstPlan,
  { bin, budget: plan, steps }: MstReserved,
  ctx: RunContext,
  form: DatasetForm<D>,
): Promise<Drawn<D, MstDiagnostics>> {
  let counts: PlannedCounts;
  let codings: ColumnCoding[];
  if ('table' in input) {
    // Quantile bins: the edges are drawn on the binning step (reserved first) before any count.
    codings =
      bin === undefined
        ? domain.codings
        : learnQuantileEdges(input.table, domain.codings, bin.step, bin.plan, ctx.rng);
    counts = countInMemory(input.table, marginalsPlan(codings));
  } else {
    const rowsNeeded = bin === undefined ? undefined : quantileNeedsRowsProblem(domain);
    if (rowsNeeded) throw new InputError(`${MST_ID} cannot run: ${rowsNeeded}`);
    counts = input;
    codings = domain.codings;
  }
  if (counts.n !== ctx.n)
    throw new Error(`${MST_ID}: the counts are for ${counts.n} rows but the context says n = ${ctx.n}.`);
  const d = domain.sizes.length;
  const relation = plan.neighbouring;

  ctx.progress(0, 'measuring one-way histograms');
  const oneWayNoisy: Float64Array[] = [];
  const compressions: LevelCompression[] = domain.codings.map((_, j) => {
    const noisy = addDiscreteGaussianNoise(
      steps.oneWays,
      ctx.rng,
      counts.marginal([j]),
      plan.oneWaySigma2,
      ctx.signal,
    );
    oneWayNoisy.push(noisy);
    return !compress
      ? identityCompression(noisy, plan.oneWaySigma2)
      : compressLevels(noisy, plan.oneWaySigma2);
  });
  // The row count: public n under replace-one; under add/remove only the DP estimate from the noisy
  // one-way histograms (post-processing), which every later step uses in its place.
  const n =
    relation === 'replace-one'
      ? ctx.n
      : syntheticRowsFromEstimate(
          minimumVarianceTotal(oneWayNoisy.map((y) => ({ y, sigma2: plan.oneWaySigma2.toNumber() }))),
        );
  const sizes = compressions.map((c) => c.members.length);
  const pairCounts = (a: number, b: number) => mergedPairCounts(counts, a, b, compressions);

  throwIfAborted(ctx.signal);
  ctx.progress(0.05, 'choosing the tree of column pairs');
  const oneWay = compressions.map((c) => projectOntoScaledSimplex(c.y, c.weight, n));
  const { pairs, scores } = pairScoresOfCounts(pairCounts, sizes, oneWay, n, ctx.signal);
  const tree = selectSpanningTree(steps.selection, ctx.rng, d, pairs, scores, plan.selectionEpsilon);

  ctx.progress(0.1, 'measuring the tree’s two-way histograms');
  const twoWayWeight = 1 / plan.twoWaySigma2.toNumber();
  const measurements: Measurement[] = compressions.map((c, j) => ({ attrs: [j], y: c.y, weight: c.weight }));
  for (const [a, b] of tree) {
    const noisy = addDiscreteGaussianNoise(
      steps.twoWays,
      ctx.rng,
      pairCounts(a, b),
      plan.twoWaySigma2,
      ctx.signal,
    );
    measurements.push({ attrs: [a, b], y: noisy, weight: new Float64Array(noisy.length).fill(twoWayWeight) });
  }

  const junctionTree = buildJunctionTree(
    d,
    sizes,
    tree.map(([a, b]) => [a, b]),
  );
  const model = new CliqueTreeModel(junctionTree, sizes, n);
  const estimate = estimateByMirrorDescent(model, measurements, {
    iterations,
    signal: ctx.signal,
    onIteration: (t) => {
      if (t % 50 === 0) ctx.progress(0.15 + (0.7 * t) / iterations, `fitting the model: iteration ${t}`);
    },
  });

  const datasets: D[] = [];
  for (let r = 0; r < ctx.releases; r++) {
    ctx.progress(0.85 + (0.15 * r) / ctx.releases, `drawing release ${r + 1} of ${ctx.releases}`);
    const drawn = sampleRows(ctx.rng, model, estimate.marginals, n, sampling, ctx.signal);
    const synthetic = drawn.map((column, j) =>
      form.columnOfLevels(ctx.rng, codings[j]!, restoreLevels(ctx.rng, column, compressions[j]!)),
    );
    datasets.push(form.dataset(n, synthetic));
  }
  ctx.progress(1, 'done');
  const names = domain.codings.map((coding) => coding.name);
  return {
    datasets,
    diagnostics: {
      tree: tree.map(([a, b]): [string, string] => [names[a]!, names[b]!]),
      oneWaySigma: sigmaInWords(plan.oneWaySigma2),
      twoWaySigma: sigmaInWords(plan.twoWaySigma2),
      selectionEpsilonPerRound: epsilonInWords(plan.selectionEpsilon),
      levelsAfterMerging: Object.fromEntries(names.map((name, j) => [name, sizes[j]!])),
      levelsBeforeMerging: Object.fromEntries(names.map((name, j) => [name, domain.sizes[j]!])),
      modelCells: junctionTree.cells,
      iterations: estimate.iterations,
      finalLoss: estimate.loss,
      ...quantileEdgeDiagnostics(codings),
    },
  };
}

/**
 * MST as workers and the CLI run it: the table's marginals counted in memory (with quantile bins, after
 * the edges are drawn), then the draw; `drawFrom` takes the counts from a count source instead.
 */
export const mst = defineMechanism(mstMeta, { read: readMst, draw: drawMst });

/** The run on whole tables with the accountant made explicit (tests record its reservations). */
export function runMst(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: ZcdpAccountant,
) {
  return mst.drawFromTable(table, schema, params, ctx, WHOLE_TABLES, accountant);
}

/**
 * Original levels from compressed ones: a kept level maps back to itself; a row in the merged level
 * gets one of its member levels uniformly at random (post-processing). Cost O(rows).
 */
export function restoreLevels(rng: Rng, compressed: Uint32Array, compression: LevelCompression): Uint32Array {
  const out = new Uint32Array(compressed.length);
  for (let i = 0; i < compressed.length; i++) {
    const members = compression.members[compressed[i]!]!;
    out[i] = members.length === 1 ? members[0]! : members[uniformInt(rng, members.length)]!;
  }
  return out;
}

import type { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import type { Rng } from '../../rng/types';
import { uniformInt } from '../../rng/uniform-int';
import { throwIfAborted } from '../../abort';
import { InputError } from '../../table/errors';
import type { Schema, Table } from '../../table/types';
import { WHOLE_TABLES, type DatasetForm, type ReleaseOf } from '../common/dataset-form';
import { columnsForCodings, levelsOfColumn } from '../common/encode-rows';
import { CliqueTreeModel } from '../common/pgm/clique-tree-model';
import { countCells } from '../common/pgm/factor-index';
import { buildJunctionTree } from '../common/pgm/junction-tree';
import { estimateByMirrorDescent, type Measurement } from '../common/pgm/mirror-descent';
import { addDiscreteGaussianNoise } from '../common/pgm/noisy-marginal';
import { zcdpAccountantFor } from '../common/pgm/pgm-budget';
import { sampleRows, type SamplingRule } from '../common/pgm/sample-model';
import { projectOntoScaledSimplex } from '../common/pgm/simplex-projection';
import type { ParamValues, Release, RunContext } from '../types';
import { epsilonInWords, planMstBudget, reserveMstBudget, sigmaInWords } from './budget-plan';
import { compressLevels, compressRows, identityCompression, type LevelCompression } from './compress-levels';
import { MST_ID, mstAssumptions, planMstDomain } from './meta';
import { pairScores, selectSpanningTree } from './select-tree';

/** What the run needs from a zCDP accountant; tests pass a recording one. */
export type MstAccountant = Pick<ZcdpAccountant, 'reserve' | 'rhoBudget' | 'claim'>;

/**
 * MST (McKenna, Miklau & Sheldon 2021, §4; private-pgm `mechanisms/mst.py`), under replace-one:
 * 1. reserve the three steps (budget-plan.ts) before any draw; every draw below goes through the
 *    privacy meter on the step it belongs to (the registry checks the charges equal the claim);
 * 2. measure every column's one-way histogram with discrete Gaussian noise σ₁² = 3d/ρ;
 * 3. merge each column's levels below 3σ₁ into one (compress-levels.ts);
 * 4. choose a spanning tree of column pairs: d − 1 exponential-mechanism rounds scoring each pair by
 *    the L1 error of the closed-form one-way model (select-tree.ts);
 * 5. measure the tree's two-way histograms with σ₂² = 3(d − 1)/ρ;
 * 6. fit a graphical model on the tree's edges to all measurements by mirror descent;
 * 7. draw every release's rows from that one model, spread merged levels uniformly back over their
 *    members, and decode levels to values (uniform within numeric bins).
 */
export async function runMst(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: MstAccountant = zcdpAccountantFor(ctx, MST_ID, ctx.meter),
): Promise<Release> {
  return drawMst(table, schema, params, ctx, accountant, WHOLE_TABLES);
}

/** The run with its datasets in the given form (whole tables, or row blocks decoded when read). */
export async function drawMst<D>(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: MstAccountant,
  form: DatasetForm<D>,
): Promise<ReleaseOf<D>> {
  const domain = planMstDomain(schema, params, ctx);
  if (domain.problems.length > 0) throw new InputError(`${MST_ID} cannot run: ${domain.problems.join(' ')}`);
  if (table.nRows !== ctx.n)
    throw new Error(`${MST_ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`);
  const d = domain.sizes.length;
  // The same two calls as reserveMst (meta.ts), which claim() makes: the claim is what is reserved here.
  const plan = planMstBudget(accountant.rhoBudget, d);
  const steps = reserveMstBudget(accountant, plan, d);
  const n = ctx.n;
  const columns = columnsForCodings(table, domain.codings);
  const levels = domain.codings.map((coding, j) => levelsOfColumn(columns[j]!, coding));

  ctx.progress(0, 'measuring one-way histograms');
  const compressions: LevelCompression[] = levels.map((_, j) => {
    const noisy = addDiscreteGaussianNoise(
      steps.oneWays,
      ctx.rng,
      countCells(levels, [j], domain.sizes),
      plan.oneWaySigma2,
      ctx.signal,
    );
    return params.compress === false
      ? identityCompression(noisy, plan.oneWaySigma2)
      : compressLevels(noisy, plan.oneWaySigma2);
  });
  const sizes = compressions.map((c) => c.members.length);
  const compressedLevels = levels.map((column, j) => compressRows(column, compressions[j]!));

  throwIfAborted(ctx.signal);
  ctx.progress(0.05, 'choosing the tree of column pairs');
  const oneWay = compressions.map((c) => projectOntoScaledSimplex(c.y, c.weight, n));
  const { pairs, scores } = pairScores(compressedLevels, sizes, oneWay, n, ctx.signal);
  const tree = selectSpanningTree(steps.selection, ctx.rng, d, pairs, scores, plan.selectionEpsilon);

  ctx.progress(0.1, 'measuring the tree’s two-way histograms');
  const twoWayWeight = 1 / plan.twoWaySigma2.toNumber();
  const measurements: Measurement[] = compressions.map((c, j) => ({ attrs: [j], y: c.y, weight: c.weight }));
  for (const [a, b] of tree) {
    const noisy = addDiscreteGaussianNoise(
      steps.twoWays,
      ctx.rng,
      countCells(compressedLevels, [a, b], sizes),
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
  const iterations = Number(params.iterations);
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
    const drawn = sampleRows(
      ctx.rng,
      model,
      estimate.marginals,
      n,
      params.sampling as SamplingRule,
      ctx.signal,
    );
    const synthetic = drawn.map((column, j) =>
      form.columnOfLevels(ctx.rng, domain.codings[j]!, restoreLevels(ctx.rng, column, compressions[j]!)),
    );
    datasets.push(form.dataset(n, synthetic));
  }
  ctx.progress(1, 'done');
  const names = domain.codings.map((coding) => coding.name);
  return {
    datasets,
    claim: accountant.claim(mstAssumptions(domain, ctx)),
    dataHolderDiagnostics: {},
    diagnostics: {
      tree: tree.map(([a, b]) => [names[a]!, names[b]!]),
      oneWaySigma: sigmaInWords(plan.oneWaySigma2),
      twoWaySigma: sigmaInWords(plan.twoWaySigma2),
      selectionEpsilonPerRound: epsilonInWords(plan.selectionEpsilon),
      levelsAfterMerging: Object.fromEntries(names.map((name, j) => [name, sizes[j]!])),
      levelsBeforeMerging: Object.fromEntries(names.map((name, j) => [name, domain.sizes[j]!])),
      modelCells: junctionTree.cells,
      iterations: estimate.iterations,
      finalLoss: estimate.loss,
    },
  };
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

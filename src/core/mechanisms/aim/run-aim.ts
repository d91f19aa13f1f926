import { throwIfAborted } from '../../abort';
import type { Table } from '../../table/types';
import type { DatasetForm } from '../common/rows/dataset-form';
import { columnsForCodings, levelsOfColumn } from '../common/coding/encode-rows';
import { CliqueTreeModel } from '../../models/pgm/clique-tree-model';
import { countCells } from '../../models/pgm/factor-index';
import { buildJunctionTree } from '../../models/pgm/junction-tree';
import { estimateByMirrorDescent, type Measurement } from '../../models/pgm/mirror-descent';
import { addDiscreteGaussianNoise } from '../common/graphical-models/noisy-marginal';
import { sampleRows, type SamplingRule } from '../../models/pgm/sample-model';
import { epsilonInWords, sigmaInWords } from '../../privacy/in-words';
import type { Drawn } from '../shape/define-mechanism';
import type { RunContext } from '../types';
import { AimRoundSchedule, refitIterations, RhoLedger } from './budget-plan';
import { AIM_ID, type AimPlan, type AimReserved } from './meta';
import { minimumVarianceTotal, syntheticRowsFromEstimate } from '../common/graphical-models/estimated-total';
import { HALF_NORMAL_MEAN } from './score';
import { selectMarginal } from './select-marginal';

const BYTES_PER_CELL = 8;
const MEGABYTE = 2 ** 20;

/** One round of AIM as it appears in the diagnostics (DP outputs and public facts only). */
export interface RoundRecord {
  marginal: string[];
  sigma: string;
  epsilon: string;
}

/** AIM's public diagnostics: the rounds (DP outputs), the fitted model's size and the workload's. */
export interface AimDiagnostics {
  rounds: RoundRecord[];
  /** The model's cliques, as column names. */
  cliques: string[][];
  modelCells: number;
  modelMegabytes: number;
  /** Mirror-descent iterations over all refits (post-processing). */
  iterations: number;
  workloadMarginals: number;
  droppedWorkloadMarginals: number;
}

/**
 * What AIM's draw reads from the table: each column's levels under the plan's codings (no
 * randomness, before any reservation). The table must have the context's n rows.
 */
export function readAim(table: Table, plan: AimPlan, ctx: RunContext): Uint32Array[] {
  if (table.nRows !== ctx.n)
    throw new Error(`${AIM_ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`);
  const columns = columnsForCodings(table, plan.codings);
  return plan.codings.map((coding, j) => levelsOfColumn(columns[j]!, coding));
}

/** A fitted model with the cliques it was built on. */
interface Fit {
  cliques: number[][];
  model: CliqueTreeModel;
  theta: Float64Array[];
  marginals: Float64Array[];
  iterations: number;
}

/**
 * AIM (McKenna, Mullins, Sheldon & Miklau 2022, Algorithm 1; private-pgm `mechanisms/aim.py`) under
 * the run's relation (the accountant's meter): replace-one with n public, or add/remove, where the model's
 * total and the row count are the minimum-variance estimate from the noisy one-way histograms
 * (estimated-total.ts) and n is read nowhere else. Every draw goes through the privacy meter on its step (the registry checks that the
 * rounds charged exactly the share reserved for them). Draws after `reserveAim` (meta.ts) reserved ρ₀ for the one-ways and the rest for the rounds; measures
 * every one-way histogram; then each round: (1) if less than twice a round's cost is left, spend all
 * of it in this last round; (2) keep the candidates already inside a model clique and those whose
 * junction tree stays within maxModelSize × ρ_used/ρ; (3) select with the exponential mechanism on
 * q_r = w_r(‖M_r(D) − M_r(p̂)‖₁ − √(2/π)σ·cells_r), Δ = 2·max w (max w under add/remove); (4) measure it, refit warm-started
 * (at most refitIterations(maxIters, model cells) iterations: a bounded work per round);
 * (5) if the fitted marginal moved by at most √(2/π)σ·cells_r in L1, halve σ and double ε.
 */
export async function drawAim<D>(
  levels: readonly Uint32Array[],
  plan: AimPlan,
  { budget, steps }: AimReserved,
  ctx: RunContext,
  form: DatasetForm<D>,
): Promise<Drawn<D, AimDiagnostics>> {
  // The relation of the run's meter: the budget was planned under it.
  const relation = budget.neighbouring;
  const ledger = new RhoLedger(steps.adaptive);
  const rhoTotal = budget.rho;
  const { sizes, settings } = plan;
  const d = sizes.length;
  const maxIters = settings.maxIters;
  const maxModelCells = (settings.maxModelSize * MEGABYTE) / BYTES_PER_CELL;
  const names = plan.codings.map((coding) => coding.name);
  const progressOf = () => budget.oneWayRho.add(ledger.spent()).div(rhoTotal).toNumber();

  ctx.progress(0, 'measuring one-way histograms');
  const oneWayWeight = 1 / budget.sigma2.toNumber();
  const measurements: Measurement[] = [];
  for (let j = 0; j < d; j++) {
    const y = addDiscreteGaussianNoise(
      steps.oneWays,
      ctx.rng,
      countCells(levels, [j], sizes),
      budget.sigma2,
      ctx.signal,
    );
    measurements.push({ attrs: [j], y, weight: new Float64Array(y.length).fill(oneWayWeight) });
  }
  // The model's total: public n under replace-one; under add/remove the DP estimate from the noisy
  // one-way histograms (post-processing), used everywhere replace-one uses n.
  const n =
    relation === 'replace-one'
      ? ctx.n
      : syntheticRowsFromEstimate(
          minimumVarianceTotal(measurements.map((m) => ({ y: m.y, sigma2: budget.sigma2.toNumber() }))),
        );
  ctx.progress(0, 'counting the candidate marginals');
  const answers = plan.candidates.cliques.map((r) => {
    throwIfAborted(ctx.signal);
    return countCells(levels, r, sizes);
  });

  let fit = refit(
    sizes,
    n,
    measurements.map((m) => m.attrs),
    measurements,
    undefined,
    maxIters,
    ctx,
    true,
  );
  const schedule = new AimRoundSchedule(ledger, budget);
  const rounds: RoundRecord[] = [];
  let iterations = fit.iterations;
  while (!schedule.finished) {
    throwIfAborted(ctx.signal);
    // The round's cost is charged before anything of it is drawn; ρ_used then includes it, as in
    // the paper's Alg. 1, so the model may grow to maxModelSize × ρ_used/ρ.
    const { sigma2, epsilon, last } = schedule.nextRound();
    const sizeLimit = maxModelCells * budget.oneWayRho.add(ledger.spent()).div(rhoTotal).toNumber();
    const open = plan.candidates.cliques
      .map((_, k) => k)
      .filter((k) => {
        const r = plan.candidates.cliques[k]!;
        return (
          fit.model.cliqueContaining(r) >= 0 ||
          buildJunctionTree(d, sizes, [...fit.cliques, r]).cells <= sizeLimit
        );
      });
    const sigma = Math.sqrt(sigma2.toNumber());
    // Every candidate's marginal from one set of reduced clique tables of the fitted model.
    const marginalOf = fit.model.marginalsOf(fit.marginals);
    const scored = open.map((k) => {
      throwIfAborted(ctx.signal);
      const r = plan.candidates.cliques[k]!;
      return {
        answer: answers[k]!,
        estimate: marginalOf(r),
        weight: plan.candidates.weights[k]!,
      };
    });
    const pick = selectMarginal(steps.rounds, ctx.rng, scored, sigma, epsilon);
    const chosen = open[pick]!;
    const r = plan.candidates.cliques[chosen]!;
    const y = addDiscreteGaussianNoise(steps.rounds, ctx.rng, answers[chosen]!, sigma2, ctx.signal);
    measurements.push({ attrs: r, y, weight: new Float64Array(y.length).fill(1 / sigma2.toNumber()) });
    rounds.push({
      marginal: r.map((a) => names[a]!),
      sigma: sigmaInWords(sigma2),
      epsilon: epsilonInWords(epsilon),
    });
    // The chosen marginal is an output of the run that the ledger counts only once the run completes,
    // so live progress (shown before that, and after a cancel) names none: the diagnostics list them.
    ctx.progress(Math.min(0.9, 0.9 * progressOf()), 'adaptive rounds: choosing and measuring marginals');

    const before = scored[pick]!.estimate;
    // The model is rebuilt only when no clique holds r; r joins the list either way, so that every
    // later junction tree (built from the list) still holds every measured marginal.
    const rebuild = fit.model.cliqueContaining(r) < 0;
    fit = refit(sizes, n, withMeasured(fit.cliques, r), measurements, fit, maxIters, ctx, rebuild);
    iterations += fit.iterations;
    const after = fit.model.marginal(fit.marginals, r);
    let moved = 0;
    for (let c = 0; c < after.length; c++) moved += Math.abs(after[c]! - before[c]!);
    if (!last && moved <= HALF_NORMAL_MEAN * sigma * after.length) schedule.anneal();
  }
  fit = refit(sizes, n, fit.cliques, measurements, fit, maxIters, ctx, false, true);
  iterations += fit.iterations;

  const datasets: D[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    ctx.progress(0.9 + (0.1 * release) / ctx.releases, `drawing release ${release + 1} of ${ctx.releases}`);
    const drawn = sampleRows(
      ctx.rng,
      fit.model,
      fit.marginals,
      n,
      settings.sampling as SamplingRule,
      ctx.signal,
    );
    datasets.push(
      form.dataset(
        n,
        drawn.map((column, j) => form.columnOfLevels(ctx.rng, plan.codings[j]!, column)),
      ),
    );
  }
  ctx.progress(1, 'done');
  const modelCells = fit.model.cliqueCells.reduce((a, b) => a + b, 0);
  return {
    datasets,
    diagnostics: {
      rounds,
      cliques: fit.cliques.map((clique) => clique.map((a) => names[a]!)),
      modelCells,
      modelMegabytes: Number(((modelCells * BYTES_PER_CELL) / MEGABYTE).toPrecision(3)),
      iterations,
      workloadMarginals: plan.workload.workload.length,
      droppedWorkloadMarginals: plan.workload.dropped.length,
    },
  };
}

/**
 * The measured marginals after measuring r: r is added unless already listed. A marginal inside a
 * clique of the current junction tree must still be listed: a later triangulation (after another
 * marginal is added) need not keep the fill-in edges that covered it.
 */
export function withMeasured(cliques: readonly number[][], r: readonly number[]): number[][] {
  const key = r.join();
  return cliques.some((clique) => clique.join() === key) ? [...cliques] : [...cliques, [...r]];
}

/**
 * Rebuilds the model on `cliques` (when `rebuild`, or there is no previous fit) and fits it to all measurements, warm-started
 * from the previous potentials: each old clique's potential is added to a new clique containing it
 * (private-pgm's warm start); potentials of cliques no new clique contains are dropped.
 */
function refit(
  sizes: number[],
  n: number,
  cliques: number[][],
  measurements: Measurement[],
  previous: Fit | undefined,
  maxIters: number,
  ctx: RunContext,
  rebuild: boolean,
  final = false,
): Fit {
  const model =
    previous && !rebuild
      ? previous.model
      : new CliqueTreeModel(buildJunctionTree(sizes.length, sizes, cliques), sizes, n);
  let start: Float64Array[] | undefined;
  let startMarginals: Float64Array[] | undefined;
  if (previous) {
    if (model === previous.model) {
      start = previous.theta;
      startMarginals = previous.marginals;
    } else {
      start = model.zeroPotentials();
      previous.model.cliques.forEach((old, i) => {
        const target = model.cliqueContaining(old);
        if (target < 0) return;
        const expanded = model.expandOnto(target, old, previous.theta[i]!);
        const into = start![target]!;
        for (let c = 0; c < into.length; c++) into[c] += expanded[c]!;
      });
    }
  }
  const modelCells = model.cliqueCells.reduce((total, cells) => total + cells, 0);
  const estimate = estimateByMirrorDescent(model, measurements, {
    iterations: refitIterations(maxIters, modelCells, final),
    signal: ctx.signal,
    start,
    startMarginals,
  });
  return {
    cliques,
    model,
    theta: estimate.theta,
    marginals: estimate.marginals,
    iterations: estimate.iterations,
  };
}

import { planBinnedDomain } from '../../core/mechanisms/common/binning/binned-domain';
import { binningChoiceFromParams } from '../../core/mechanisms/common/coding/binning-params';
import type { ParamValues } from '../../core/mechanisms/types';
import type { Schema } from '../../core/table/types';

/**
 * How long a sweep will take, from public facts only (n, the schema's columns and levels, ε, the
 * parameters): a small cost model per mechanism, fitted to measured timings, and the pool's schedule.
 * Nothing here reads the data; the estimate is shown before a sweep starts and orders its runs.
 */

/** The public facts a run's cost depends on. */
export interface CostFacts {
  n: number;
  /** Levels of each column as the binned domain codes it (bins or categories, missing level included). */
  levels: number[];
  epsilon: number;
  /** Releases made by the run (a sweep's repeats from one run). */
  releases: number;
  params: ParamValues;
}

/** Levels per column of the binned domain; [] when the schema cannot be coded (the run would refuse). */
export function levelsOf(schema: Schema, params: ParamValues, n: number): number[] {
  try {
    return planBinnedDomain(schema, binningChoiceFromParams(params), n, false).codings.map(
      (coding) => coding.levels,
    );
  } catch {
    return schema.columns.map(() => 10);
  }
}

const mean = (values: number[]): number =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Scoring one release against the real table (1- and 2-way TVD, CART pMSE on 2n rows):
 * 1.2 µs per row and column, measured on the pMSE simulation (5,000 × 2), kernlab's income
 * (8,993 × 14) and the census table (48,842 × 14) in Node (processor seconds, bench/RESULTS.md
 * "Sweep cost model").
 */
function scoreSeconds(facts: CostFacts): number {
  return 1.2e-6 * facts.n * Math.max(1, facts.levels.length) * facts.releases;
}

type RunCostModel = (facts: CostFacts) => number;

/**
 * Seconds of one run (scoring not included), per mechanism. Constants fitted to processor seconds of
 * single runs in Node with the studio's defaults (bench/RESULTS.md, "Sweep cost model"); a mechanism
 * without a fitted model uses GENERIC_COST.
 */
const RUN_COST_MODELS: Record<string, RunCostModel> = {
  // Marginals of every pair to pick the tree, then mirror descent on a tree of 2-way cliques; the model
  // grows with ε where columns have many levels. Census (48,842 × 14, 42 levels on average): 1.2, 3.1,
  // 6.5 s at ε = 0.1, 1, 10; income (8,993 × 14, 7 levels): 0.63, 0.88 s at ε = 0.1, 10.
  mst: ({ n, levels, epsilon }) => {
    const d = levels.length;
    const slope = Math.min(1.2, 0.025 * mean(levels));
    return 4.5e-6 * n * d * Math.max(0.3, 1 + slope * Math.log10(epsilon));
  },
  // Rounds of selection and refits under AIM's public model-size cap and work bound per refit
  // (aim/budget-plan.ts): the model grows with ε until the cap binds, and so does the work. Income
  // (8,993 × 14, seeds aim/<ε>/0, defaults): 2.0, 1.4, 6.5, 26, 31 s at ε = 0.1, 0.3, 1, 3, 10;
  // t = 7.9e-6·n·d·(1.5 + 29.5·s^1.4), s = where log ε lies between 0.3 and 10 (clamped to [0, 1]).
  aim: ({ n, levels, epsilon }) => {
    const s = Math.min(1, Math.max(0, Math.log10(epsilon / 0.3) / Math.log10(10 / 0.3)));
    return 7.9e-6 * n * levels.length * (1.5 + 29.5 * s ** 1.4);
  },
  // Every MCMC iteration synthesizes n rows and searches the best depth-2 tree on the grid: chains ×
  // (burn-in + steps) iterations of about 8.8e-8 s per row and column pair (pMSE simulation, 5,000 × 2:
  // 14 s for 2 × 4,000 iterations). The number of releases does not change the chains' length.
  'pmse-mechanism': ({ n, levels, params }) => {
    const p = Math.max(1, levels.length);
    const iterations =
      Number(params.chains ?? 2) * (Number(params.burnIn ?? 1500) + Number(params.steps ?? 2500));
    return iterations * 8.8e-8 * n * p * p;
  },
  // Histogram families: noise on the cells, then sampling n rows per release.
  'laplace-histogram': histogramCost,
  'dp-marginals': histogramCost,
  'smoothed-histogram': histogramCost,
};

function histogramCost({ n, levels, releases }: CostFacts): number {
  const cells = Math.min(
    2e7,
    levels.reduce((a, b) => a * b, 1),
  );
  return 2e-8 * cells * releases + 3e-7 * n * Math.max(1, levels.length) * releases;
}

/** A mechanism without a fitted model: 5 µs per row and column and release (a rough guess). */
const GENERIC_COST: RunCostModel = ({ n, levels, releases }) =>
  5e-6 * n * Math.max(1, levels.length) * releases;

/** Whether the estimate for this mechanism comes from a fitted model. */
export function hasFittedCost(mechanismId: string): boolean {
  return mechanismId in RUN_COST_MODELS;
}

/** Seconds of one sweep run (the run and the scoring of its releases), before the speed factor. */
export function runSeconds(mechanismId: string, facts: CostFacts): number {
  const model = RUN_COST_MODELS[mechanismId] ?? GENERIC_COST;
  return model(facts) + scoreSeconds(facts) + RUN_OVERHEAD_SECONDS;
}

/** Handing a job to a worker and the point back: about 0.05 s a run in Chromium. */
const RUN_OVERHEAD_SECONDS = 0.05;

/**
 * Wall-clock seconds of runs costing `costs` seconds each on `workers` workers that take them in this
 * order, each the next free worker (the pool's FIFO queue): the time the last one ends.
 */
export function scheduleSeconds(costs: number[], workers: number): number {
  const free = Array.from({ length: Math.max(1, workers) }, () => 0);
  for (const cost of costs) {
    let slot = 0;
    for (let w = 1; w < free.length; w++) if (free[w]! < free[slot]!) slot = w;
    free[slot] = free[slot]! + cost;
  }
  return Math.max(...free);
}

/**
 * Measured speed of this page's workers against the model: the median of actual/predicted seconds
 * over the last MEASURED_RUNS sweep runs of each mechanism (1 before any). It takes up a slower
 * machine or one that other programs keep busy.
 */
const MEASURED_RUNS = 12;
const measuredRatios = new Map<string, number[]>();

export function noteMeasuredRun(mechanismId: string, predictedSeconds: number, actualSeconds: number): void {
  if (!(predictedSeconds > 0) || !(actualSeconds > 0)) return;
  const ratios = [...(measuredRatios.get(mechanismId) ?? []), actualSeconds / predictedSeconds];
  measuredRatios.set(mechanismId, ratios.slice(-MEASURED_RUNS));
}

export function speedFactor(mechanismId: string): number {
  const ratios = [...(measuredRatios.get(mechanismId) ?? [])].sort((a, b) => a - b);
  if (ratios.length === 0) return 1;
  const middle = ratios.length >> 1;
  const median = ratios.length % 2 === 1 ? ratios[middle]! : (ratios[middle - 1]! + ratios[middle]!) / 2;
  return Math.min(20, Math.max(0.05, median));
}

/** Forgets the measured speeds (tests). */
export function resetMeasuredSpeeds(): void {
  measuredRatios.clear();
}

/** One run of a sweep: an ε and the repeats it gives. */
export interface SweepRunPlan {
  epsilon: number;
  repeats: number[];
}

/** The runs ordered cheapest first (ties by ε, then by first repeat), each with its estimated seconds. */
export function orderCheapestFirst<T extends SweepRunPlan>(
  runs: T[],
  cost: (run: T) => number,
): (T & { seconds: number })[] {
  return runs
    .map((run) => ({ ...run, seconds: cost(run) }))
    .sort((a, b) => a.seconds - b.seconds || a.epsilon - b.epsilon || a.repeats[0]! - b.repeats[0]!);
}

/** A whole number of seconds or minutes for "about …", rounded to the nearest 5 s above 20 s. */
export function aboutDuration(seconds: number): string {
  if (seconds < 1) return 'about 1 s';
  if (seconds < 20) return `about ${Math.round(seconds)} s`;
  if (seconds < 120) return `about ${Math.round(seconds / 5) * 5} s`;
  return `about ${Math.round(seconds / 60)} min`;
}

/**
 * The repeats that fit `budgetSeconds` (a minute by default): the largest R from 1 to maxRepeats whose
 * sweep `secondsFor(R)` stays within it; 1 when even one repeat does not fit.
 */
export function repeatsThatFit(
  secondsFor: (repeats: number) => number,
  maxRepeats: number,
  budgetSeconds = 60,
): number {
  let best = 1;
  for (let r = 2; r <= maxRepeats; r++) {
    if (secondsFor(r) <= budgetSeconds) best = r;
    else break;
  }
  return best;
}

import type { MechanismMeta, ParamValues } from '../../core/mechanisms/types';
import type { Schema } from '../../core/table/types';
import { logGrid } from './epsilon-scale';
import {
  levelsOf,
  orderCheapestFirst,
  repeatsThatFit,
  runSeconds,
  scheduleSeconds,
  speedFactor,
} from './sweep-cost';

/** The most repeats "fit a minute" chooses; the user may ask for up to 50. */
export const FIT_MINUTE_MAX_REPEATS = 10;
/** What "fit a minute" aims at, in seconds. */
export const FIT_MINUTE_SECONDS = 60;

/** The public inputs of a sweep: what the Tune step shows and startSweep runs. */
export interface SweepPlanInputs {
  mechanism: MechanismMeta;
  params: ParamValues;
  schema: Schema;
  n: number;
  minEpsilon: number;
  maxEpsilon: number;
  pointCount: number;
  /** The repeats asked for, or 'fit-minute' for as many as fit about a minute. */
  repeats: number | 'fit-minute';
  /** Workers in the pool. */
  workers: number;
}

/** One run of the sweep: its ε, the repeats it gives (releases at R·ε when R > 1) and its estimate. */
export interface PlannedSweepRun {
  epsilon: number;
  repeats: number[];
  /** Estimated seconds of the run and its scoring (speed factor included). */
  seconds: number;
}

export interface SweepPlan {
  grid: number[];
  repeats: number;
  /** The runs, cheapest first: the pool starts them in this order. */
  runs: PlannedSweepRun[];
  /** Estimated wall-clock seconds of the whole sweep on the pool. */
  seconds: number;
}

/** How many repeats one run may give (meta.sweepRepeats and sweepRepeatsPerRun); 1 without them. */
export function repeatsPerRun(mechanism: MechanismMeta, params: ParamValues): number {
  if (mechanism.sweepRepeats === undefined) return 1;
  const limit = mechanism.sweepRepeatsPerRun?.(params) ?? Infinity;
  return Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : Infinity;
}

/**
 * The runs a sweep makes for its pending points: at each ε, its pending repeats in groups of at most
 * `perRun` (one run per point when perRun is 1).
 */
export function sweepRunsFor(
  pending: { epsilon: number; repeat: number }[],
  perRun: number,
): { epsilon: number; repeats: number[] }[] {
  const byEpsilon = new Map<number, number[]>();
  for (const { epsilon, repeat } of pending)
    byEpsilon.set(epsilon, [...(byEpsilon.get(epsilon) ?? []), repeat]);
  return [...byEpsilon].flatMap(([epsilon, repeats]) => {
    const groups: { epsilon: number; repeats: number[] }[] = [];
    for (let start = 0; start < repeats.length; start += perRun) {
      groups.push({ epsilon, repeats: repeats.slice(start, start + perRun) });
    }
    return groups;
  });
}

/**
 * The sweep's grid, repeats and runs (cheapest first) with the estimated duration, from public facts
 * and the measured speed of earlier sweep runs only. `pending` filters the points still to run (the
 * cached ones are not run again); every point is pending when it is absent.
 */
export function planSweep(
  inputs: SweepPlanInputs,
  pending?: (epsilon: number, repeat: number) => boolean,
): SweepPlan {
  const grid = logGrid(inputs.minEpsilon, inputs.maxEpsilon, inputs.pointCount);
  const levels = levelsOf(inputs.schema, inputs.params, inputs.n);
  const perRun = repeatsPerRun(inputs.mechanism, inputs.params);
  const factor = speedFactor(inputs.mechanism.id);
  const runsFor = (repeats: number, only = pending) => {
    const points = grid.flatMap((epsilon) =>
      Array.from({ length: repeats }, (_, repeat) => ({ epsilon, repeat })),
    );
    const runs = sweepRunsFor(
      only === undefined ? points : points.filter((p) => only(p.epsilon, p.repeat)),
      perRun,
    );
    return orderCheapestFirst(
      runs,
      (run) =>
        factor *
        runSeconds(inputs.mechanism.id, {
          n: inputs.n,
          levels,
          // A run with R releases spends R·ε and gives each release ε.
          epsilon: run.repeats.length > 1 ? run.epsilon * run.repeats.length : run.epsilon,
          releases: run.repeats.length,
          params: inputs.params,
        }),
    );
  };
  const secondsOf = (runs: PlannedSweepRun[]) =>
    scheduleSeconds(
      runs.map((run) => run.seconds),
      inputs.workers,
    );
  // The repeats that fit are those of the whole sweep, cached points included, so that sweeping again
  // asks for the same points.
  const repeats =
    inputs.repeats === 'fit-minute'
      ? repeatsThatFit((r) => secondsOf(runsFor(r, undefined)), FIT_MINUTE_MAX_REPEATS, FIT_MINUTE_SECONDS)
      : inputs.repeats;
  const runs = runsFor(repeats);
  return { grid, repeats, runs, seconds: secondsOf(runs) };
}

import type { Rng } from '../rng/types';
import type { AbortSignalLike } from '../abort';
import { throwIfAborted } from '../abort';
import { choleskyLowerInPlace, multiplyLowerTriangular } from '../linalg/cholesky';
import {
  makeRunningCovariance,
  makeRunningMoments,
  resetRunningCovariance,
  summarizeRunningMoments,
  updateRunningCovariance,
  updateRunningMoments,
  writeSampleCovariance,
  type MomentsSummary,
} from './running-moments';

/**
 * An unnormalised log density log π(θ) = logWeight(θ) + logPrior(θ). The split lets burn-in temper
 * the weight (for the pMSE mechanism the exponential mechanism's −ε·u/(2Δu)) and not the prior.
 */
export interface MetropolisTarget {
  readonly dimension: number;
  /** The tempered part; −Infinity (or NaN) means zero density. Must not keep `theta`. */
  logWeight(theta: Float64Array): number;
  /** The part never tempered; taken as 0 when absent. */
  logPrior?(theta: Float64Array): number;
  /**
   * A scalar computed by the latest logWeight call (the pMSE mechanism's u), traced and
   * summarised beside θ. Optional.
   */
  lastMonitoredValue?(): number;
}

export interface AdaptiveMetropolisSettings {
  /** Iterations during which the proposal adapts; they are discarded. */
  burnIn: number;
  /** Iterations after burn-in, with the proposal frozen. */
  steps: number;
  /** Proposal standard deviation of each coordinate at the start of burn-in. */
  initialScales: ArrayLike<number>;
  /** Post-burn-in iteration numbers (1 … steps) after which the state is recorded as a draw. */
  drawAt: number[];
  /** Largest number of trace points kept (the trace is thinned evenly to fit). */
  traceLimit: number;
  /** Acceptance rate the global scale is tuned towards; default 0.44 in one dimension, else 0.234. */
  targetAcceptance?: number;
  /**
   * Inverse temperature β₀ ∈ (0, 1] applied to logWeight at the first iteration; β rises
   * geometrically to 1 over the first 40 % of burn-in. Default 1 (no tempering).
   */
  initialInverseTemperature?: number;
}

export interface MetropolisHooks {
  signal?: AbortSignalLike;
  /**
   * Called about a hundred times per run with the iterations done and the total, the monitored
   * value of the current state (u for the pMSE mechanism) and the share of proposals accepted
   * since the previous call: enough for a live trace. These come from the data (for the data
   * holder, like the final diagnostics).
   */
  onProgress?(done: number, total: number, monitored: number, recentAcceptance: number): void;
}

/** Thinned trajectory: iteration numbers (from 1, burn-in included) and values at them. */
export interface MetropolisTrace {
  iterations: number[];
  monitored: number[];
  /** parameters[j][k] = θ_j at iterations[k]. */
  parameters: number[][];
}

export interface MetropolisResult {
  /** θ at each requested draw iteration, in the order of `drawAt`. */
  draws: number[][];
  /** The monitored value at each draw. */
  drawMonitored: number[];
  /** Share of accepted proposals after burn-in. */
  acceptanceRate: number;
  burnInAcceptanceRate: number;
  /** Frozen proposal: step = scale · L · ξ with ξ ~ N(0, I). */
  proposalScale: number;
  proposalCholesky: number[];
  /**
   * Moments of the first and second halves of the post-burn-in iterations, over θ_1 … θ_d and then
   * the monitored value (index d): the inputs of split-R̂.
   */
  halves: [MomentsSummary, MomentsSummary];
  trace: MetropolisTrace;
  finalState: number[];
  logDensityEvaluations: number;
}

/** Fractions of burn-in at which the adaptation changes stage (see runAdaptiveMetropolis). */
const FIRST_WINDOW_START = 0.15;
const SECOND_WINDOW_START = 0.4;
const FINAL_SCALE_STAGE_START = 0.9;
/** Robbins–Monro gain exponent: γ_t = (t + 1)^(−0.6) (Andrieu & Thoms 2008, §5). */
const GAIN_EXPONENT = 0.6;
const LOG_SCALE_LIMIT = 30;

/**
 * Inverse temperature at burn-in iteration t: β₀^(1 − t/T) for t < T = 40 % of burn-in, then 1
 * (a geometric ramp, the usual spacing for tempering; Geyer & Thompson 1995). Depends on public
 * settings only.
 */
export function inverseTemperatureAt(iteration: number, burnIn: number, initial: number): number {
  const rampEnd = Math.floor(burnIn * SECOND_WINDOW_START);
  if (initial >= 1 || iteration >= rampEnd) return 1;
  return Math.pow(initial, 1 - iteration / rampEnd);
}

/**
 * Random-walk Metropolis (Metropolis et al. 1953) with a Gaussian proposal adapted during burn-in
 * only and frozen afterwards, so the post-burn-in chain is an ordinary Metropolis chain with a
 * fixed kernel.
 *
 * Proposal: θ' = θ + λ · L · ξ, ξ ~ N(0, I); accept with probability min(1, π(θ')/π(θ)).
 * Burn-in adaptation (Andrieu & Thoms 2008, "A tutorial on adaptive MCMC", Algorithm 4, with
 * Stan-style covariance windows):
 *   – throughout burn-in, log λ ← log λ + γ_t (α_t − α*), α_t the acceptance probability,
 *     α* = 0.234 (0.44 in one dimension; Roberts, Gelman & Gilks 1997);
 *   – [0, 15 %): L = diag(initialScales); [15 %, 40 %) and [40 %, 90 %): the sample covariance of
 *     each window is collected and, at the window's end, L ← chol(Σ̂ + ridge), λ ← 2.38/√d
 *     (Haario, Saksman & Tamminen 2001; Gelman, Roberts & Gilks 1996), and the gain restarts;
 *   – [90 %, 100 %): λ alone is tuned for the final L.
 * Optionally the weight is tempered during the first 40 % of burn-in (inverseTemperatureAt), so a
 * sharply peaked, rugged target is first explored flattened; the kept iterations use β = 1.
 * Cost per iteration: one log-density evaluation plus O(d²); nothing is allocated per iteration.
 * Throws AbortError when `hooks.signal` is set (checked every iteration).
 */
export function runAdaptiveMetropolis(
  target: MetropolisTarget,
  start: ArrayLike<number>,
  settings: AdaptiveMetropolisSettings,
  rng: Rng,
  standardNormal: () => number,
  hooks: MetropolisHooks = {},
): MetropolisResult {
  const d = target.dimension;
  const { burnIn, steps } = settings;
  const total = burnIn + steps;
  const targetAcceptance = settings.targetAcceptance ?? (d === 1 ? 0.44 : 0.234);

  const current = Float64Array.from(start);
  const proposal = new Float64Array(d);
  const noise = new Float64Array(d);
  const step = new Float64Array(d);
  const monitoredRow = new Float64Array(d + 1);
  const cholesky = new Float64Array(d * d);
  const candidateCholesky = new Float64Array(d * d);
  const covariance = new Float64Array(d * d);
  for (let j = 0; j < d; j++) cholesky[j * d + j] = settings.initialScales[j]!;
  let logScale = 0;
  let gainCounter = 0;
  const windowCovariance = makeRunningCovariance(d);

  const firstWindowStart = Math.floor(burnIn * FIRST_WINDOW_START);
  const secondWindowStart = Math.floor(burnIn * SECOND_WINDOW_START);
  const finalStageStart = Math.floor(burnIn * FINAL_SCALE_STAGE_START);

  const initialInverseTemperature = settings.initialInverseTemperature ?? 1;
  const logPrior = (theta: Float64Array) => (target.logPrior ? target.logPrior(theta) : 0);
  let currentLogWeight = safeLogDensity(target.logWeight(current));
  let currentLogPrior = safeLogDensity(logPrior(current));
  let currentMonitored = target.lastMonitoredValue?.() ?? NaN;
  let evaluations = 1;

  const halfLength = Math.floor(steps / 2);
  const firstHalf = makeRunningMoments(d + 1);
  const secondHalf = makeRunningMoments(d + 1);

  const drawIndexByIteration = new Map<number, number[]>();
  settings.drawAt.forEach((iteration, index) => {
    if (!Number.isInteger(iteration) || iteration < 1 || iteration > steps) {
      throw new RangeError(`draw iteration ${iteration} is outside 1…${steps}`);
    }
    drawIndexByIteration.set(iteration, [...(drawIndexByIteration.get(iteration) ?? []), index]);
  });
  const draws: number[][] = settings.drawAt.map(() => []);
  const drawMonitored: number[] = settings.drawAt.map(() => NaN);

  const traceStride = Math.max(1, Math.ceil(total / Math.max(1, settings.traceLimit)));
  const traceLength = Math.floor(total / traceStride);
  const traceIterations = new Float64Array(traceLength);
  const traceMonitored = new Float64Array(traceLength);
  const traceParameters = Array.from({ length: d }, () => new Float64Array(traceLength));
  let tracePosition = 0;

  let acceptedAfterBurnIn = 0;
  let acceptedDuringBurnIn = 0;
  let acceptedSinceReport = 0;
  let lastReportAt = 0;
  const progressEvery = Math.max(1, Math.floor(total / 100));

  for (let t = 0; t < total; t++) {
    throwIfAborted(hooks.signal);
    const inBurnIn = t < burnIn;
    if (inBurnIn && (t === secondWindowStart || t === finalStageStart) && t > 0) {
      if (adoptWindowCovariance(windowCovariance, covariance, candidateCholesky, cholesky, d)) {
        logScale = Math.log(2.38 / Math.sqrt(d));
        gainCounter = 0;
      }
      resetRunningCovariance(windowCovariance);
    }

    const scale = Math.exp(logScale);
    for (let j = 0; j < d; j++) noise[j] = standardNormal();
    multiplyLowerTriangular(cholesky, d, noise, step);
    for (let j = 0; j < d; j++) proposal[j] = current[j]! + scale * step[j]!;
    const proposalLogPrior = safeLogDensity(logPrior(proposal));
    const proposalLogWeight =
      proposalLogPrior === -Infinity ? -Infinity : safeLogDensity(target.logWeight(proposal));
    evaluations++;
    const beta = inBurnIn ? inverseTemperatureAt(t, burnIn, initialInverseTemperature) : 1;
    const logRatio = logRatioOf(beta, proposalLogWeight, currentLogWeight, proposalLogPrior, currentLogPrior);
    const accepted = logRatio >= 0 || Math.log(rng.nextFloat()) < logRatio;
    if (accepted) {
      current.set(proposal);
      currentLogWeight = proposalLogWeight;
      currentLogPrior = proposalLogPrior;
      currentMonitored = target.lastMonitoredValue?.() ?? NaN;
      acceptedSinceReport++;
    }

    if (inBurnIn) {
      if (accepted) acceptedDuringBurnIn++;
      const acceptanceProbability = logRatio >= 0 ? 1 : Number.isNaN(logRatio) ? 0 : Math.exp(logRatio);
      gainCounter++;
      logScale += Math.pow(gainCounter + 1, -GAIN_EXPONENT) * (acceptanceProbability - targetAcceptance);
      logScale = Math.min(LOG_SCALE_LIMIT, Math.max(-LOG_SCALE_LIMIT, logScale));
      if (t >= firstWindowStart && t < finalStageStart) updateRunningCovariance(windowCovariance, current);
    } else {
      if (accepted) acceptedAfterBurnIn++;
      const afterBurnIn = t - burnIn + 1;
      for (let j = 0; j < d; j++) monitoredRow[j] = current[j]!;
      monitoredRow[d] = currentMonitored;
      if (afterBurnIn <= halfLength) updateRunningMoments(firstHalf, monitoredRow);
      if (afterBurnIn > steps - halfLength) updateRunningMoments(secondHalf, monitoredRow);
      const drawIndices = drawIndexByIteration.get(afterBurnIn);
      if (drawIndices) {
        for (const index of drawIndices) {
          draws[index] = Array.from(current);
          drawMonitored[index] = currentMonitored;
        }
      }
    }

    if ((t + 1) % traceStride === 0 && tracePosition < traceLength) {
      traceIterations[tracePosition] = t + 1;
      traceMonitored[tracePosition] = currentMonitored;
      for (let j = 0; j < d; j++) traceParameters[j]![tracePosition] = current[j]!;
      tracePosition++;
    }
    if (hooks.onProgress && ((t + 1) % progressEvery === 0 || t + 1 === total)) {
      hooks.onProgress(t + 1, total, currentMonitored, acceptedSinceReport / (t + 1 - lastReportAt));
      acceptedSinceReport = 0;
      lastReportAt = t + 1;
    }
  }

  return {
    draws,
    drawMonitored,
    acceptanceRate: steps > 0 ? acceptedAfterBurnIn / steps : NaN,
    burnInAcceptanceRate: burnIn > 0 ? acceptedDuringBurnIn / burnIn : NaN,
    proposalScale: Math.exp(logScale),
    proposalCholesky: Array.from(cholesky),
    halves: [summarizeRunningMoments(firstHalf), summarizeRunningMoments(secondHalf)],
    trace: {
      iterations: Array.from(traceIterations.subarray(0, tracePosition)),
      monitored: Array.from(traceMonitored.subarray(0, tracePosition)),
      parameters: traceParameters.map((values) => Array.from(values.subarray(0, tracePosition))),
    },
    finalState: Array.from(current),
    logDensityEvaluations: evaluations,
  };
}

/**
 * β·(w' − w) + (p' − p), with a zero-density proposal always rejected and a move away from a
 * zero-density current state always accepted.
 */
function logRatioOf(
  beta: number,
  weight: number,
  currentWeight: number,
  prior: number,
  currentPrior: number,
): number {
  if (weight === -Infinity || prior === -Infinity) return -Infinity;
  if (currentWeight === -Infinity || currentPrior === -Infinity) return Infinity;
  return beta * (weight - currentWeight) + (prior - currentPrior);
}

/** NaN densities (overflowing parameters) count as zero density. */
function safeLogDensity(value: number): number {
  return Number.isNaN(value) ? -Infinity : value;
}

/**
 * Replaces the proposal factor by the Cholesky factor of the window's sample covariance plus a
 * small ridge (10⁻⁸ of the largest variance), when the window has at least d + 2 states and the
 * factorisation succeeds. Returns whether the factor changed.
 */
function adoptWindowCovariance(
  window: ReturnType<typeof makeRunningCovariance>,
  covariance: Float64Array,
  candidate: Float64Array,
  cholesky: Float64Array,
  d: number,
): boolean {
  if (window.count < d + 2) return false;
  writeSampleCovariance(window, covariance);
  let largestVariance = 0;
  for (let j = 0; j < d; j++) largestVariance = Math.max(largestVariance, covariance[j * d + j]!);
  if (!(largestVariance > 0) || !Number.isFinite(largestVariance)) return false;
  const ridge = largestVariance * 1e-8;
  for (let j = 0; j < d; j++) covariance[j * d + j] = covariance[j * d + j]! + ridge;
  if (!choleskyLowerInPlace(covariance, d, candidate)) return false;
  cholesky.set(candidate);
  return true;
}

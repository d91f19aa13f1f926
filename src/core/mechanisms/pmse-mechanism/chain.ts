import type { StageMeter, StepTicket } from '../../privacy/meter';
import type { Neighbouring } from '../../privacy/query-sensitivity';
import { meteredMcmcExponentialMechanism } from '../../privacy/metered/mcmc-exponential-mechanism';
import { parseRational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { makeCartPmseEvaluator } from '../../metrics/pmse-cart-evaluator';
import { makeNormalSampler } from '../../rng';
import {
  runAdaptiveMetropolis,
  type MetropolisHooks,
  type MetropolisResult,
  type MetropolisTarget,
} from '../../mcmc/adaptive-metropolis';
import { makePmseFeatureColumns, writePmseFeatures } from './encode';
import type { SynthesisModel } from './model';
import {
  makeModelSpaceColumns,
  makeSynthesisScratch,
  synthesizeModelSpace,
  type ModelNoise,
} from './synthesize';
import { exhaustiveStumpSettings, makeGridTreeQuality } from './grid-tree-quality';
import { logFlatPrior } from './target';
import { pmseScoreQuery } from './release-budget';
import type { PmseQuality } from './pmse-params';

/** What evaluates the pMSE of synthetic feature columns against fixed real ones. */
export interface PmseEvaluator {
  evaluate(synthColumns: Float64Array[]): number;
}
export type PmseEvaluatorFactory = (
  realColumns: Float64Array[],
  nSynth: number,
  quality: PmseQuality,
) => PmseEvaluator;

/**
 * The evaluator of a quality function: the grid tree, the exhaustive stump (the grid evaluator at
 * depth 1 with every synthetic value an edge), or the rpart-exact CART pMSE of a greedy tree.
 */
export const makeQualityEvaluator: PmseEvaluatorFactory = (realColumns, nSynth, quality) => {
  switch (quality.kind) {
    case 'grid-tree':
      return makeGridTreeQuality(realColumns, nSynth, quality);
    case 'exhaustive-stump':
      return makeGridTreeQuality(realColumns, nSynth, exhaustiveStumpSettings(nSynth));
    case 'greedy-tree':
      return makeCartPmseEvaluator(realColumns, nSynth, quality.tree);
  }
};

/**
 * Everything one chain needs, as plain data (structured-clone friendly, so a worker can receive it).
 * Nothing in it but `realFeatures` depends on the data: the start point, the noise and the number of
 * iterations are fixed before the data are read (DESIGN.md privacy rule 6).
 */
export interface PmseChainSpec {
  chainIndex: number;
  model: SynthesisModel;
  /** The real rows as pMSE classifier predictors (encode.ts), n rows each. */
  realFeatures: Float64Array[];
  /** n: real rows = synthetic rows per dataset; Δu from n and the quality (target.ts). */
  n: number;
  /** m noise sets (one per synthetic dataset inside u); shared by all chains of a run. */
  noise: ModelNoise[];
  /** ε of each draw of this chain's exponential mechanism, ε/l exactly, as "num/den". */
  epsilon: string;
  /** The step of each release this chain's draws give, in draw order (plan.releaseOfDraw[c]). */
  tickets: StepTicket[];
  /** The run's neighbouring relation (its steps'). */
  neighbouring: Neighbouring;
  quality: PmseQuality;
  start: number[];
  initialScales: number[];
  burnIn: number;
  steps: number;
  /** Post-burn-in iterations at which released draws are taken. */
  drawAt: number[];
  traceLimit: number;
  /** β₀ of the tempered start of burn-in (adaptive-metropolis.ts); from ε, n and k only. */
  initialInverseTemperature: number;
}

export interface PmseChainResult extends MetropolisResult {
  chainIndex: number;
  /** Wall time of the chain in milliseconds. */
  milliseconds: number;
}

/**
 * The quality function u(X, θ) = (1/m) Σ_j pMSE(X, g(θ; noise_j)) (Snoke & Slavković 2018, eq. 3,
 * with the m synthetic datasets made from noise fixed for the run: common random numbers) and the
 * mechanism's log target: `logWeightOfScore(u)` (−ε·u/(2Δu), given by the metered primitive) plus the flat
 * prior, packaged for the sampler. All buffers are allocated here once; logWeight allocates nothing.
 */
export function makePmseTarget(
  spec: PmseChainSpec,
  logWeightOfScore: (score: number) => number,
  makeEvaluator: PmseEvaluatorFactory,
): MetropolisTarget & {
  quality(theta: ArrayLike<number>): number;
} {
  const { model, n, noise } = spec;
  const evaluator = makeEvaluator(spec.realFeatures, n, spec.quality);
  const scratch = makeSynthesisScratch(model);
  const modelSpace = makeModelSpaceColumns(model, n);
  const features = makePmseFeatureColumns(model, n);
  let lastQuality = NaN;
  const quality = (theta: ArrayLike<number>): number => {
    let sum = 0;
    for (const noiseSet of noise) {
      synthesizeModelSpace(model, theta, noiseSet, scratch, modelSpace);
      writePmseFeatures(model, modelSpace, features);
      sum += evaluator.evaluate(features);
    }
    return sum / noise.length;
  };
  return {
    dimension: model.parameterCount,
    quality,
    logWeight(theta) {
      lastQuality = quality(theta);
      return logWeightOfScore(lastQuality);
    },
    logPrior: logFlatPrior,
    lastMonitoredValue: () => lastQuality,
  };
}

/**
 * Runs one chain of the pMSE mechanism through the privacy meter: each draw the chain releases is one
 * exponential-mechanism output at ε/l, charged to its release's step (a handle from `meter` for each of
 * `spec.tickets`) before the chain starts (privacy/metered/mcmc-exponential-mechanism.ts, which also gives
 * the log weight −ε·u/(2Δu) from the query table's Δu). Adaptive random-walk Metropolis on the log
 * target, proposal frozen after burn-in, released draws at `spec.drawAt`. A pure function of (spec, rng):
 * the worker layer calls it with a generator of its own (CryptoRng, or SeededRng(seed) for seeded runs).
 * `makeEvaluator` defaults to the evaluator of `spec.quality` (grid tree or rpart-exact CART).
 * Throws AbortError when `hooks.signal` is set.
 */
export function runChain(
  spec: PmseChainSpec,
  rng: Rng,
  meter: Pick<StageMeter, 'step'>,
  hooks: MetropolisHooks = {},
  makeEvaluator: PmseEvaluatorFactory = makeQualityEvaluator,
): PmseChainResult {
  const started = Date.now();
  const steps = spec.tickets.map((ticket) => meter.step(ticket));
  const query = pmseScoreQuery(spec.quality, spec.n);
  const result = meteredMcmcExponentialMechanism(
    steps,
    spec.neighbouring,
    query,
    parseRational(spec.epsilon),
    (logWeightOfScore) => {
      const normal = makeNormalSampler(rng);
      const target = makePmseTarget(spec, logWeightOfScore, makeEvaluator);
      return runAdaptiveMetropolis(
        target,
        spec.start,
        {
          burnIn: spec.burnIn,
          steps: spec.steps,
          initialScales: spec.initialScales,
          drawAt: spec.drawAt,
          traceLimit: spec.traceLimit,
          initialInverseTemperature: spec.initialInverseTemperature,
        },
        rng,
        () => normal(0, 1),
        hooks,
      );
    },
  );
  return { ...result, chainIndex: spec.chainIndex, milliseconds: Date.now() - started };
}

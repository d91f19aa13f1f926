import { roundUp } from '../../privacy/round-up';
import type { PmseChainResult } from './chain';
import type { PmseRunPlan } from './plan-types';
import { RHAT_WARNING_THRESHOLD, splitRhatFromHalves } from '../../mcmc/rhat';
import { isProvenQuality, type PmseQuality } from './pmse-params';
import { qualitySensitivity } from './target';

/** Said wherever MCMC diagnostics are shown or exported. */
export const MCMC_DIAGNOSTICS_NOTICE =
  'MCMC diagnostics (traces of u(X, θ) and θ, acceptance rates, R̂) and the counts of undeclared missing values ' +
  'are computed from the real data: they are ' +
  'for the data holder to judge convergence and are not part of the differentially private release. The ' +
  'privacy claim covers only the released parameters θ̃ and the synthetic datasets.';

export interface PmseChainDiagnostics {
  chain: number;
  start: number[];
  acceptanceRate: number;
  burnInAcceptanceRate: number;
  proposalScale: number;
  milliseconds: number;
  iterationsPerSecond: number;
  /** Thinned to at most 1,000 points, burn-in included (iterations counted from 1). */
  trace: { iterations: number[]; u: number[]; theta: Record<string, number[]> };
  /** u(X, θ̃) at each of this chain's released draws. */
  uAtDraws: number[];
}

export interface PmseMcmcDiagnostics {
  forDataHolderOnly: true;
  notice: string;
  chains: PmseChainDiagnostics[];
  /** Split-R̂ over all chains' post-burn-in iterations, per θ coordinate and for u. */
  rhat: Record<string, number>;
  maxRhat: number;
  warnings: string[];
  /** Real values missing in columns not declared able to be missing (encoded as the column centre). */
  undeclaredMissingValues: Record<string, number>;
}

/** The public diagnostics (Release.diagnostics): parameters, public facts and DP outputs only. */
export interface PmseDiagnostics {
  /** Warnings from public facts only (ε, n, l); safe to release. */
  warnings: string[];
  /** Public configuration and DP outputs. */
  parameterCount: number;
  parameterNames: string[];
  /** θ̃_i of every release (the DP outputs of the exponential mechanism), standardised units. */
  releasedParameters: number[][];
  /**
   * ε/l rounded down to a double: the ε each release's exponential mechanism used (rounding down
   * spends no more than reserved). Not a privacy figure to quote: the claim states the total, rounded up.
   */
  releaseEpsilonUsed: number;
  /** Δu the exponential mechanism used, e.g. "1/(2n) = 1/10000 (proven)". */
  sensitivity: string;
  /** The quality function's tree: the grid tree (G), the exhaustive stump, or greedy rpart settings. */
  tree: PmseTreeDescription;
  iterationsPerChain: { burnIn: number; steps: number };
}

export type PmseTreeDescription =
  | { depth: string; search: 'exhaustive on a grid'; gridSize: number }
  | { depth: string; search: 'exhaustive over every synthetic value' }
  | { depth: string; search: 'greedy'; cp: number; minSplit: number; minBucket: number };

/** The public description of the quality function's tree (parameters only). */
function describeTree(depth: string, quality: PmseQuality): PmseTreeDescription {
  switch (quality.kind) {
    case 'grid-tree':
      return { depth, search: 'exhaustive on a grid', gridSize: quality.gridSize };
    case 'exhaustive-stump':
      return { depth, search: 'exhaustive over every synthetic value' };
    case 'greedy-tree':
      return {
        depth,
        search: 'greedy',
        cp: quality.tree.cp,
        minSplit: quality.tree.minSplit,
        minBucket: quality.tree.minBucket,
      };
  }
}

/** Release.dataHolderDiagnostics: everything computed from the real data. */
export interface PmseDataHolderDiagnostics {
  mcmc: PmseMcmcDiagnostics;
}

/**
 * Below this scale ε_i/(2Δu) of the weight (ε_i = ε/l) the exponential mechanism is barely
 * concentrated: its weight differs by at most a factor exp(0.25·ε_i/(2Δu)) between a perfect θ
 * (u = 0) and a useless one (u = 0.25), while the flat prior offers a vast region of useless θ. The
 * utility bench shows the change: at a scale of 62.5 most draws are useless (mean pMSE 0.20), at 125
 * they are good (0.034).
 */
export const WEAK_CONCENTRATION_SCALE = 100;

/**
 * Warnings computed from ε/l, n and Δu only (public). The scale is ε·n/l with the proven
 * Δu = 1/(2n) and ε·n/(2l) with the greedy trees' 1/n.
 */
export function publicWarnings(releaseEpsilon: number, n: number, sensitivity: number): string[] {
  const scale = releaseEpsilon / (2 * sensitivity);
  if (scale >= WEAK_CONCENTRATION_SCALE) return [];
  const formula = sensitivity * n === 1 ? 'ε·n/(2·releases)' : 'ε·n/releases';
  return [
    `Each release gets ε = ${roundUp(releaseEpsilon, 3)} with n = ${n}: the exponential mechanism's weight ` +
      `differs by at most a factor e^${(0.25 * scale).toFixed(1)} between the best and the worst parameters, ` +
      'so many draws land far from the data. Release fewer datasets or spend more ε ' +
      `(${formula} is ${scale.toPrecision(3)}; aim for ${WEAK_CONCENTRATION_SCALE} or more).`,
  ];
}

/** R̂ for every monitored quantity (θ coordinates by name, then "u") and warnings for those above 1.1. */
export function convergenceSummary(
  parameterNames: string[],
  results: PmseChainResult[],
): { rhat: Record<string, number>; maxRhat: number; warnings: string[] } {
  const halves = results.flatMap((result) => result.halves);
  const names = [...parameterNames, 'u'];
  const rhat: Record<string, number> = {};
  const warnings: string[] = [];
  names.forEach((name, index) => {
    const value = splitRhatFromHalves(halves, index);
    rhat[name] = value;
    if (value > RHAT_WARNING_THRESHOLD) {
      warnings.push(
        `R̂ of ${name} is ${value.toFixed(3)} (> ${RHAT_WARNING_THRESHOLD}): the chains have not mixed; ` +
          'run more iterations (burn-in and steps) before trusting the releases.',
      );
    }
  });
  const values = Object.values(rhat);
  const maxRhat = values.some(Number.isNaN) ? NaN : Math.max(...values);
  return { rhat, maxRhat, warnings };
}

/**
 * The diagnostics of a release in two parts: the public one, and the MCMC part (computed from the
 * real data), which is also marked as for the data holder only.
 */
export function buildPmseDiagnostics(
  plan: PmseRunPlan,
  results: PmseChainResult[],
): { diagnostics: PmseDiagnostics; dataHolderDiagnostics: PmseDataHolderDiagnostics } {
  const { settings, parameterNames } = plan;
  const releasedParameters: number[][] = [];
  results.forEach((result) =>
    plan.releaseOfDraw[result.chainIndex]!.forEach((release, j) => {
      releasedParameters[release] = result.draws[j]!;
    }),
  );
  const convergence = convergenceSummary(parameterNames, results);
  for (const [name, count] of Object.entries(plan.undeclaredMissingCounts)) {
    convergence.warnings.push(
      `Column \`${name}\` has ${count} missing values but is not declared able to be missing: they were ` +
        'encoded as the column centre for the pMSE and the synthetic data have none.',
    );
  }
  const spec = plan.chainSpecs[0]!;
  const diagnostics: PmseDiagnostics = {
    warnings: publicWarnings(plan.releaseEpsilon, spec.n, qualitySensitivity(spec.quality, spec.n)),
    parameterCount: plan.model.parameterCount,
    parameterNames,
    releasedParameters,
    releaseEpsilonUsed: plan.releaseEpsilon,
    sensitivity: isProvenQuality(spec.quality)
      ? `1/(2n) = 1/${2 * spec.n} (proven)`
      : `1/n = 1/${spec.n} (not proven for greedy trees)`,
    tree: describeTree(settings.treeDepthLabel, spec.quality),
    iterationsPerChain: { burnIn: settings.burnIn, steps: settings.steps },
  };
  const mcmc: PmseMcmcDiagnostics = {
    forDataHolderOnly: true,
    notice: MCMC_DIAGNOSTICS_NOTICE,
    chains: results.map((result) => ({
      chain: result.chainIndex,
      start: plan.chainSpecs[result.chainIndex]!.start,
      acceptanceRate: result.acceptanceRate,
      burnInAcceptanceRate: result.burnInAcceptanceRate,
      proposalScale: result.proposalScale,
      milliseconds: result.milliseconds,
      iterationsPerSecond: ((settings.burnIn + settings.steps) / Math.max(1, result.milliseconds)) * 1000,
      trace: {
        iterations: result.trace.iterations,
        u: result.trace.monitored,
        theta: Object.fromEntries(parameterNames.map((name, j) => [name, result.trace.parameters[j]!])),
      },
      uAtDraws: result.drawMonitored,
    })),
    ...convergence,
    undeclaredMissingValues: plan.undeclaredMissingCounts,
  };
  return { diagnostics, dataHolderDiagnostics: { mcmc } };
}

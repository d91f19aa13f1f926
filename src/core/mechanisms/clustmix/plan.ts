import { BudgetError, parseBudget } from '../../privacy/budget';
import type { MeterStep, PrivacyMeter } from '../../privacy/meter';
import { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import { parseRational, Rational } from '../../rng/rational';
import type { Schema } from '../../table/types';
import type { ParamValues, PublicContext } from '../types';
import type { PlanProblems } from '../shape/define-meta';
import { formatCount } from '../../format/format-count';
import { planEncoding, type ClustmixEncoding } from './encoding';
import { readClustmixSettings, type ClustmixSettings } from './params';

/** Grid steps per clipping radius: residuals are stored as integers v with ‖v‖ ≤ B (γ = C/B). */
export const RESIDUAL_GRID = 4096;
/** Grid steps per unit of a random feature vector (‖φ‖ = 1). */
export const FEATURE_GRID = 4096;
/** Largest encoded dimension d and largest K·d. */
export const MAX_DIMENSION = 5000;
export const MAX_CLUSTER_COORDINATES = 1_000_000;
/** Largest automatic K. */
export const MAX_AUTO_CLUSTERS = 500;

/** The exact discrete-Gaussian variances (grid units) of one release of cluster statistics. */
export interface ClusterNoise {
  /** Counts: Δ² = 2 (one row leaves a cluster, joins another), σ² = 1/ρ_N. */
  countSigma2: Rational;
  /** Residual sums: Δ = 2B (same cluster, opposite residuals), σ² = 2B²/ρ_S. */
  sumSigma2: Rational;
  /** Squared numeric norms: Δ² = 2B⁴ (one row changes cluster), σ² = B⁴/ρ_Q; null when not released. */
  squareSigma2: Rational | null;
}

/** Noise of the random-feature moments: A (Δ² = 2B_φ⁴, σ² = B_φ⁴/ρ_A) and b (Δ = 2B_φ, σ² = 2B_φ²/ρ_b). */
export interface MomentNoise {
  gramSigma2: Rational;
  crossSigma2: Rational;
}

/** ρ of each step and the noise it buys. */
export interface ClustmixBudgetPlan {
  rho: Rational;
  iterationRho: Rational;
  finalRho: Rational;
  adaptRho: Rational;
  iterationNoise: ClusterNoise | null;
  finalNoise: ClusterNoise;
  momentNoise: MomentNoise | null;
}

/** Everything a run needs that follows from the schema, the parameters and public facts. */
export interface ClustmixPlan {
  settings: ClustmixSettings;
  encoding: ClustmixEncoding;
  n: number;
  /** Clipping radius C = clip·√p. */
  clipRadius: number;
  /** Clusters K (a multiple of the number of classes) and per class. */
  clusters: number;
  clustersPerClass: number;
  /** Smallest noisy size of a kept cluster. */
  minClusterSize: number;
  /** Whether the adapt step runs (label set, adaptShare > 0, α < 1, kipSteps > 0). */
  adapt: boolean;
  budget: ClustmixBudgetPlan;
  releases: number;
}

/**
 * What the settings fix before any data is read: the settings, every problem (clustmixProblems), and
 * with a context and no problem the mixture's plan (encoding, K, C, l_min, the budget split).
 */
export interface ClustmixSpecPlan extends PlanProblems {
  schema: Schema;
  settings: ClustmixSettings;
  /** Absent while editing (no context), with problems, or with a budget that cannot be read. */
  mixture?: ClustmixPlan;
}

const B = Rational.of(RESIDUAL_GRID);
const B_PHI = Rational.of(FEATURE_GRID);

/** σ² = Δ²/(2ρ), exact (discrete Gaussian, Canonne, Kamath & Steinke 2020, Theorem 4). */
export function gaussianSigma2(sensitivitySquared: Rational, rho: Rational): Rational {
  return sensitivitySquared.div(rho.mul(Rational.of(2)));
}

/** ρ_N : ρ_S (: ρ_Q) = 1 : 2 (: 1) of a release of cluster statistics with ρ in total. */
export function clusterNoise(rho: Rational, withSquares: boolean): ClusterNoise {
  const parts = withSquares ? 4 : 3;
  const unit = rho.div(Rational.of(parts));
  return {
    countSigma2: gaussianSigma2(Rational.of(2), unit),
    sumSigma2: gaussianSigma2(Rational.of(4).mul(B).mul(B), unit.mul(Rational.of(2))),
    squareSigma2: withSquares ? gaussianSigma2(Rational.of(2).mul(B.mul(B)).mul(B.mul(B)), unit) : null,
  };
}

/** ρ_A : ρ_b = 1 : 1. */
export function momentNoise(rho: Rational): MomentNoise {
  const half = rho.div(Rational.of(2));
  const b2 = B_PHI.mul(B_PHI);
  return {
    gramSigma2: gaussianSigma2(Rational.of(2).mul(b2).mul(b2), half),
    crossSigma2: gaussianSigma2(Rational.of(4).mul(b2), half),
  };
}

function parseShare(value: number): Rational {
  return parseRational(String(value));
}

/** Whether the adapt step runs: it needs a label, a share of ρ, α < 1 and optimisation steps. */
export function adaptRuns(settings: ClustmixSettings): boolean {
  return settings.label !== '' && settings.adaptShare > 0 && settings.alpha < 1 && settings.kipSteps > 0;
}

/**
 * The split of ρ: approxShare evenly over T iterations, adaptShare to the random-feature moments,
 * the rest, and the shares of absent steps, to the final release. Exact.
 */
export function planBudget(rho: Rational, settings: ClustmixSettings): ClustmixBudgetPlan {
  const iterations = settings.iterations;
  const approx = iterations > 0 ? rho.mul(parseShare(settings.approxShare)) : Rational.ZERO;
  const adapt = adaptRuns(settings) ? rho.mul(parseShare(settings.adaptShare)) : Rational.ZERO;
  const finalRho = rho.sub(approx).sub(adapt);
  const iterationRho = iterations > 0 ? approx.div(Rational.of(iterations)) : Rational.ZERO;
  return {
    rho,
    iterationRho,
    finalRho,
    adaptRho: adapt,
    iterationNoise: iterations > 0 && iterationRho.isPositive() ? clusterNoise(iterationRho, false) : null,
    finalNoise: clusterNoise(finalRho, true),
    momentNoise: adapt.isPositive() ? momentNoise(adapt) : null,
  };
}

/**
 * l_min = ⌈2C/(√(2ρ_S)·σmax)⌉ with ρ_S the final release's share for sums: the cluster size at which
 * one coordinate of a noisy mean, γ·σ_S/N = 2C/(√(2ρ_S)·N), has SD σmax (the role of the paper's eq. 7).
 */
export function minimumClusterSize(clipRadius: number, finalRho: Rational, sigmaMax: number): number {
  const sumRho = finalRho.toNumber() / 2;
  return Math.max(1, Math.ceil((2 * clipRadius) / (Math.sqrt(2 * sumRho) * sigmaMax)));
}

/**
 * K: the parameter, or 0 → clamp(⌊n/(2·l_min)⌋, classes, 500); then rounded down to a multiple of the
 * number of classes, at least one cluster per class.
 */
export function clusterCount(requested: number, n: number, minSize: number, classes: number): number {
  const wanted =
    requested > 0 ? requested : Math.min(MAX_AUTO_CLUSTERS, Math.max(classes, Math.floor(n / (2 * minSize))));
  return classes * Math.max(1, Math.floor(wanted / classes));
}

/** The zCDP accountant of a run: ρ from (ε, δ) by CKS Corollary 13. Throws RangeError for δ = 0. */
export function clustmixAccountant(
  context: Pick<PublicContext, 'epsilon' | 'delta'>,
  meter?: PrivacyMeter,
): ZcdpAccountant {
  const budget = parseBudget(context.epsilon, context.delta);
  if (budget.delta.isZero()) throw new BudgetError(DELTA_ZERO_PROBLEM);
  return ZcdpAccountant.forBudget(budget, meter);
}

/** The check's sentence for δ = 0 (also the claim's error then). */
export const DELTA_ZERO_PROBLEM =
  'clustmix needs δ > 0 (zero-concentrated DP gives no pure ε-DP guarantee): set δ, e.g. 1/n.';

/** Problems that need no data: encoding, shares, sizes; with the context also δ and K·d. */
export function clustmixProblems(schema: Schema, params: ParamValues, context?: PublicContext): string[] {
  const settings = readClustmixSettings(params);
  const { encoding, problems } = planEncoding(schema, settings.label);
  if (settings.approxShare + settings.adaptShare >= 1) {
    problems.push(
      `approxShare + adaptShare must be below 1 so that the final release gets a share of ρ; got ${settings.approxShare} + ${settings.adaptShare}.`,
    );
  }
  if (context) {
    let deltaIsZero = false;
    try {
      deltaIsZero = parseBudget(context.epsilon, context.delta).delta.isZero();
    } catch {
      deltaIsZero = false; // a bad budget is reported where it is parsed
    }
    if (deltaIsZero) {
      problems.push(
        'clustmix needs δ > 0 (zero-concentrated DP gives no pure ε-DP guarantee): set δ, e.g. 1/n.',
      );
    }
  }
  if (!encoding) return problems;
  if (encoding.dimension === 0) problems.push('needs at least one column besides the label to synthesize.');
  if (encoding.dimension > MAX_DIMENSION) {
    problems.push(
      `The encoded rows have ${formatCount(encoding.dimension)} coordinates, above the limit of ${formatCount(MAX_DIMENSION)}: leave out columns or categories.`,
    );
  }
  const known = knownClusterCount(schema, encoding, settings, context, problems.length === 0);
  if (known !== null && known * encoding.dimension > MAX_CLUSTER_COORDINATES) {
    problems.push(
      `K·d = ${formatCount(known)}·${formatCount(encoding.dimension)} is above the limit of ${formatCount(MAX_CLUSTER_COORDINATES)}: choose fewer clusters or columns.`,
    );
  }
  return problems;
}

/** K when it can be known without running: the parameter, or the automatic one given n and the budget. */
function knownClusterCount(
  schema: Schema,
  encoding: ClustmixEncoding,
  settings: ClustmixSettings,
  context: PublicContext | undefined,
  budgetUsable: boolean,
): number | null {
  if (settings.clusters > 0) return clusterCount(settings.clusters, 0, 1, encoding.classes);
  if (!context || !budgetUsable) return null;
  try {
    return buildClustmixPlan(schema, settings, context).clusters;
  } catch {
    return null;
  }
}

/**
 * The plan from public facts only. Throws (RangeError/BudgetError) on an unusable budget and Error
 * when the encoding has problems: call clustmixProblems first.
 */
export function buildClustmixPlan(
  schema: Schema,
  settings: ClustmixSettings,
  context: PublicContext,
): ClustmixPlan {
  const { encoding, problems } = planEncoding(schema, settings.label);
  if (!encoding) throw new Error(problems.join(' '));
  const accountant = clustmixAccountant(context);
  const budget = planBudget(accountant.rhoBudget, settings);
  const clipRadius = settings.clip * Math.sqrt(encoding.columns);
  const minClusterSize = minimumClusterSize(clipRadius, budget.finalRho, settings.sigmaMax);
  const clusters = clusterCount(settings.clusters, context.n, minClusterSize, encoding.classes);
  return {
    settings,
    encoding,
    n: context.n,
    clipRadius,
    clusters,
    clustersPerClass: clusters / encoding.classes,
    minClusterSize,
    adapt: adaptRuns(settings),
    budget,
    releases: context.releases,
  };
}

/** What a reservation needs: the ZcdpAccountant or a recording subclass in tests. */
export interface RhoReserver {
  reserve(what: string, rho: Rational): MeterStep;
}

/** The handles of a run's steps: one per iteration, the final release, the adapt moments (or null). */
export interface ClustmixSteps {
  iterations: MeterStep[];
  final: MeterStep;
  moments: MeterStep | null;
}

/** The steps in claim order, each with its ρ: T iterations, the final release, the adapt moments. */
export function clustmixSteps(plan: ClustmixPlan): { what: string; rho: Rational }[] {
  const { budget, clusters } = plan;
  const steps: { what: string; rho: Rational }[] = [];
  const T = plan.settings.iterations;
  if (budget.iterationNoise) {
    for (let t = 1; t <= T; t++) {
      steps.push({
        what: `noisy counts and clipped residual sums of ${formatCount(clusters)} clusters, iteration ${t} of ${T}`,
        rho: budget.iterationRho,
      });
    }
  }
  steps.push({
    what: `noisy counts and clipped residual sums of ${formatCount(clusters)} clusters and squared norms (final mixture)`,
    rho: budget.finalRho,
  });
  if (budget.momentNoise) {
    steps.push({
      what: `noisy random-feature moments, ${2 * plan.settings.features} features (adapt)`,
      rho: budget.adaptRho,
    });
  }
  return steps;
}

/**
 * Reserves every step before any random number is drawn; throws OverspendError past the budget.
 * Returns the handles the draws charge, in claim order.
 */
export function reserveClustmixBudget(accountant: RhoReserver, plan: ClustmixPlan): ClustmixSteps {
  const handles = clustmixSteps(plan).map((step) => accountant.reserve(step.what, step.rho));
  const T = plan.budget.iterationNoise ? plan.settings.iterations : 0;
  return {
    iterations: handles.slice(0, T),
    final: handles[T]!,
    moments: plan.budget.momentNoise ? handles[T + 1]! : null,
  };
}

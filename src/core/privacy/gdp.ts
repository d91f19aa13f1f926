/**
 * Gaussian differential privacy (Dong, Roth & Su 2022, "Gaussian differential privacy", JRSS-B 84(1)).
 * A mechanism is μ-GDP when telling neighbours apart from its output is at least as hard as telling
 * N(0, 1) from N(μ, 1). Floating-point throughout; every conversion is biased so that the ε it
 * returns is never below the exact one, and {@link gdpClaim} rounds what it shows upwards.
 */
import { parseRational, Rational } from '../rng/rational';
import { normalCdf, normalDensity, normalMillsRatio } from '../stats/normal-cdf';
import { roundUp, roundUpSqrtRational } from './round-up';
import { claimBound } from './claim-bound';
import type { ClaimStep, PrivacyClaim, UnprovenBound } from './types';

/**
 * δ values handed to the inverse conversions are reduced by this relative amount first, which covers
 * the floating-point error of {@link gdpDelta} (below 1e−12 relative) so that the ε (or μ) returned
 * is on the safe side of the exact one.
 */
const DELTA_SAFETY_MARGIN = 1e-9;
/** Bisection stops when the bracket is this small relative to its upper end. */
const BISECTION_RELATIVE_WIDTH = 1e-14;
/** Below this δ the tail probabilities involved leave the normal double range. */
const SMALLEST_SUPPORTED_DELTA = 1e-100;

function checkMu(mu: number, where: string): void {
  if (!(mu >= 0) || !Number.isFinite(mu))
    throw new RangeError(`${where}: μ must be a finite number >= 0; got ${mu}`);
}

function checkDelta(delta: number, where: string): void {
  if (!(delta >= SMALLEST_SUPPORTED_DELTA && delta < 1)) {
    throw new RangeError(`${where}: δ must be in [${SMALLEST_SUPPORTED_DELTA}, 1); got ${delta}`);
  }
}

/**
 * μ of k composed GDP mechanisms: √(μ₁² + … + μₖ²) (Dong, Roth & Su 2022, Corollary 3.3). Floating
 * point; {@link gdpClaim} composes exactly instead. Throws RangeError for a negative or non-finite μᵢ.
 * Example: composeGdp([0.6, 0.8]) = 1.
 */
export function composeGdp(mus: number[]): number {
  let sumOfSquares = 0;
  for (const mu of mus) {
    checkMu(mu, 'composeGdp');
    sumOfSquares += mu * mu;
  }
  return Math.sqrt(sumOfSquares);
}

/**
 * μ of the Gaussian mechanism: adding N(0, σ²) to a statistic of L2 sensitivity Δ is (Δ/σ)-GDP
 * (Dong, Roth & Su 2022, Theorem 2.7). Throws RangeError unless Δ >= 0 and σ > 0 are finite.
 */
export function gaussianMu(sensitivity: number, sigma: number): number {
  if (!(sensitivity >= 0) || !Number.isFinite(sensitivity) || !(sigma > 0) || !Number.isFinite(sigma)) {
    throw new RangeError(`gaussianMu needs Δ >= 0 and σ > 0; got Δ = ${sensitivity}, σ = ${sigma}`);
  }
  return sensitivity / sigma;
}

/**
 * The δ(ε) of a μ-GDP mechanism: it is (ε, δ(ε))-DP for every ε >= 0 with
 *   δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2)          (Dong, Roth & Su 2022, Corollary 2.13).
 * With a = ε/μ − μ/2, b = ε/μ + μ/2 and φ(b)·e^ε = φ(a) exactly, the second term is φ(a)·R(b), R the
 * normal Mills ratio, so e^ε is never formed (no overflow for ε > 709, no 0·∞). For a >= 0 both terms
 * share φ(a): δ = φ(a)·(R(a) − R(b)), free of the cancellation between two tiny tail areas. Relative
 * error about 1e−15·(1 + a² + ε/μ²). Throws RangeError for ε < 0 or μ < 0.
 * Example: gdpDelta(1, 1) = 0.12693673750664394.
 */
export function gdpDelta(epsilon: number, mu: number): number {
  if (!(epsilon >= 0)) throw new RangeError(`gdpDelta: ε must be >= 0; got ${epsilon}`);
  checkMu(mu, 'gdpDelta');
  if (mu === 0 || epsilon === Infinity) return 0;
  const a = epsilon / mu - mu / 2;
  const b = epsilon / mu + mu / 2;
  const delta =
    a >= 0
      ? normalDensity(a) * (normalMillsRatio(a) - normalMillsRatio(b))
      : normalCdf(-a) - normalDensity(a) * normalMillsRatio(b);
  return Math.max(0, delta);
}

/** Smallest x in [lo, hi] with holds(x), for a predicate false below some point and true above it. */
function bisectUpperEnd(holds: (x: number) => boolean, lo: number, hi: number): number {
  while (hi - lo > BISECTION_RELATIVE_WIDTH * hi) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (holds(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Largest x in [lo, hi] with holds(x), for a predicate true below some point and false above it. */
function bisectLowerEnd(holds: (x: number) => boolean, lo: number, hi: number): number {
  while (hi - lo > BISECTION_RELATIVE_WIDTH * hi) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (holds(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The smallest ε such that a μ-GDP mechanism is (ε, δ)-DP: the root of gdpDelta(ε, μ) = δ, which
 * decreases in ε (Dong, Roth & Su 2022, Corollary 2.13), found by bisection to 1e−14 relative. Rounded
 * up: it solves for δ·(1 − 1e−9) and returns the upper end of the bracket, so the value is a little
 * above the exact root (by about 1e−10 relative), never below. Returns 0 when δ >= δ(0) = 2Φ(μ/2) − 1.
 * Throws RangeError unless μ >= 0 and 1e−100 <= δ < 1. Example: gdpEpsilonForDelta(1, 1e-5) ≈ 4.37718.
 */
export function gdpEpsilonForDelta(mu: number, delta: number): number {
  checkMu(mu, 'gdpEpsilonForDelta');
  checkDelta(delta, 'gdpEpsilonForDelta');
  const target = delta * (1 - DELTA_SAFETY_MARGIN);
  const holds = (epsilon: number): boolean => gdpDelta(epsilon, mu) <= target;
  if (holds(0)) return 0;
  let hi = 1;
  while (!holds(hi)) hi *= 2;
  return bisectUpperEnd(holds, 0, hi);
}

/**
 * The largest μ such that μ-GDP implies (ε, δ)-DP: the root in μ of gdpDelta(ε, μ) = δ, which
 * increases in μ (Dong, Roth & Su 2022, Corollary 2.13), by bisection. Rounded down: it solves for
 * δ·(1 − 1e−9) and returns the lower end of the bracket. For calibrating Gaussian noise to a budget
 * given as (ε, δ): σ = Δ/μ. Throws RangeError unless ε > 0 and 1e−100 <= δ < 1.
 * Example: gdpMuForBudget(1, 1e-5) ≈ 0.268051.
 */
export function gdpMuForBudget(epsilon: number, delta: number): number {
  if (!(epsilon > 0) || !Number.isFinite(epsilon)) {
    throw new RangeError(`gdpMuForBudget: ε must be a finite number > 0; got ${epsilon}`);
  }
  checkDelta(delta, 'gdpMuForBudget');
  const target = delta * (1 - DELTA_SAFETY_MARGIN);
  const holds = (mu: number): boolean => gdpDelta(epsilon, mu) <= target;
  let hi = 1;
  while (holds(hi)) hi *= 2;
  return bisectLowerEnd(holds, 0, hi);
}

/** One step of a GDP composition: what it released and its μ. */
export interface GdpStep {
  what: string;
  mu: number;
}

/** μ² of a step, exact, reading μ as the decimal it prints as (the parseRational convention). */
function exactMuSquared(step: GdpStep): Rational {
  checkMu(step.mu, `gdpClaim step "${step.what}"`);
  const mu = parseRational(step.mu);
  return mu.mul(mu);
}

/**
 * The claim of a composition of Gaussian-DP steps (notion "gdp"):
 * - μ = √(Σ μᵢ²) (Dong, Roth & Su 2022, Corollary 3.3), summed exactly and rounded up to 6 digits;
 * - ε, δ: the (ε, δ)-DP it implies at the chosen δ (Corollary 2.13), ε computed from the rounded-up μ
 *   and rounded up again;
 * - each step shows its own μ and the ε it alone would have at the same δ.
 * Throws RangeError for an invalid μ or δ (see {@link gdpEpsilonForDelta}).
 */
export function gdpClaim(input: {
  steps: GdpStep[];
  delta: number;
  assumptions: string[];
  /** Set when a step rests on an unproven bound; the claim is then "unproven". */
  unproven?: UnprovenBound;
}): PrivacyClaim {
  const total = input.steps.reduce((sum, step) => sum.add(exactMuSquared(step)), Rational.ZERO);
  const mu = roundUpSqrtRational(total);
  const steps: ClaimStep[] = input.steps.map((step) => {
    const stepMu = roundUp(step.mu);
    return {
      what: step.what,
      epsilon: roundUp(gdpEpsilonForDelta(stepMu, input.delta)),
      delta: roundUp(input.delta),
      mu: stepMu,
    };
  });
  return {
    notion: 'gdp',
    epsilon: roundUp(gdpEpsilonForDelta(mu, input.delta)),
    delta: roundUp(input.delta),
    mu,
    neighbouring: 'replace-one',
    ...claimBound(input.unproven),
    steps,
    assumptions: [...input.assumptions],
  };
}

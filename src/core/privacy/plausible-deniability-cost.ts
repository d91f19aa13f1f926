import { parseRational, Rational } from '../rng/rational';
import { exponentialUpperBound } from './exp-upper-bound';
import { expm1LowerBound } from './expm1-lower-bound';
import { roundUp } from './round-up';

/**
 * The randomized privacy test of plausible deniability with its fallback coin (Bindschaedler, Shokri &
 * Gunter 2017, Privacy Test 2 and Theorem 1, re-derived for replace-one neighbours in
 * mechanisms/plausible-deniability/README.md): its numbers and the exact cost of one draw, computed from
 * them alone (the draws themselves: metered/plausible-deniability-test.ts). Page-safe: arithmetic only.
 */
export interface PlausibleDeniabilityTest {
  /** The threshold k: a seed passes iff c(d, ω) − k >= Z. */
  k: number;
  /** The proof's t (1 <= t < k): a seed with more than t plausible seeds is covered by them. */
  t: number;
  /** ε0 > 0: Z is discrete Laplace of scale 1/ε0. */
  testEpsilon: Rational;
  /** n_S, the seeds a draw picks from (uniformly). */
  seeds: number;
  /** The fallback coin p_f = num/den (a row from the network alone); the proof needs p_f >= t/(t + n_S). */
  fallbackNum: number;
  fallbackDen: number;
}

/**
 * A rational L >= ln(1 + 1/t): Math.log1p widened by a relative 10⁻¹² and rounded up to 15 digits,
 * kept only when e^L − 1 >= 1/t is certified by {@link expm1LowerBound}; otherwise 1/t, which is
 * always >= ln(1 + 1/t).
 */
export function lnOnePlusInverseUpperBound(t: number): Rational {
  const inverse = Rational.of(1, t);
  const floating = parseRational(roundUp(Math.log1p(1 / t) * (1 + 1e-12), 15));
  return floating.isPositive() && expm1LowerBound(floating).compare(inverse) >= 0 ? floating : inverse;
}

/** e^(−700) < 10⁻³⁰⁴: used where the double e^(−x) would lose precision or underflow. */
const TINY_DELTA = parseRational('1e-304');

/** A rational >= e^(−x) for a rational x >= 0. */
export function expNegUpperBound(x: Rational): Rational {
  if (x.compare(Rational.of(700)) >= 0) return TINY_DELTA;
  const bound = exponentialUpperBound(x.neg());
  return bound === null || !bound.isPositive() ? TINY_DELTA : bound;
}

function checkTest(test: PlausibleDeniabilityTest): void {
  const whole = (what: string, v: number, min: number) => {
    if (!(Number.isSafeInteger(v) && v >= min))
      throw new RangeError(`${what} must be a whole number >= ${min}; got ${v}`);
  };
  whole('the test’s t', test.t, 1);
  whole('the test’s k', test.k, test.t + 1);
  whole('the number of seeds', test.seeds, 1);
  whole('the fallback coin’s denominator', test.fallbackDen, 1);
  whole('the fallback coin’s numerator', test.fallbackNum, 0);
  if (test.fallbackNum > test.fallbackDen)
    throw new RangeError('the fallback coin’s probability must be at most 1');
  if (!test.testEpsilon.isPositive()) throw new RangeError('the test’s ε0 must be > 0');
}

/** A rational <= e^(−x) for a rational x >= 0: 1 over a rational >= e^x (0 when e^x overflows). */
export function expNegLowerBound(x: Rational): Rational {
  const up = exponentialUpperBound(x);
  return up === null ? Rational.ZERO : Rational.ONE.div(up);
}

/**
 * The (ε, δ) of one draw of the test, from its own numbers (README, "Why one draw is …"), exact
 * rationals rounded in the safe direction (ε and δ never below their true values):
 *
 * ε = ε0 + L(t), L(t) >= ln(1 + 1/t) rational.
 *
 * δ: with q = e^(−ε0), F(a) = P[Z <= a] = q^(−a)/(1 + q) for a <= 0 (discrete Laplace). Neighbours differ
 * in the seed r (D) against r′ (D′) at one position. Every term of Pr[y | D] is within e^(ε0)(1 + 1/t) of
 * D′'s except r's seed terms for the ω where r has c = c_D(r, ω) <= t plausible seeds; over any event S
 * those weigh at most
 *   Σ_ω (1 − p_f)/(n_S·|Ω|) · F(c − k) · Σ_{y in S} G_ω(r, y) <= (1 − p_f)/n_S · F(t − k)
 * (a seed is picked with probability 1/n_S after the coin, ω's weights sum to 1, G_ω(r, ·) sums to at most
 * 1, F increases), and F(t − k) = e^(−ε0(k − t))/(1 + e^(−ε0)) as t < k. So
 *   δ = (1 − p_f)/n_S · e^(−ε0(k − t))/(1 + e^(−ε0)),
 * computed with a rational >= e^(−ε0(k − t)) over 1 + a rational <= e^(−ε0). With the coin
 * p_f = t/(t + n_S), (1 − p_f)/n_S = 1/(t + n_S): δ is about n_S·(1 + e^(−ε0)) times below e^(−ε0(k − t)).
 *
 * The fallback coin keeps a seed that fails alone from moving Pr[row from the network] beyond the factor
 * e^(ε0)(1 + 1/t) only when p_f >= t/(t + n_S) (then (1 − p_f)/n_S <= p_f/t); a smaller coin (none at all
 * included) leaves that seed's share (1 − p_f)/n_S of the fallback probability unbounded by a factor, so
 * it is added to δ.
 */
export function plausibleDeniabilityTestCost(test: PlausibleDeniabilityTest): {
  epsilon: Rational;
  delta: Rational;
} {
  checkTest(test);
  const epsilon = test.testEpsilon.add(lnOnePlusInverseUpperBound(test.t));
  const seedShare = Rational.of(test.fallbackDen - test.fallbackNum, test.fallbackDen).div(
    Rational.of(test.seeds),
  );
  const tail = expNegUpperBound(test.testEpsilon.mul(Rational.of(test.k - test.t))).div(
    Rational.ONE.add(expNegLowerBound(test.testEpsilon)),
  );
  let delta = seedShare.mul(tail);
  const coinCovers =
    BigInt(test.fallbackNum) * BigInt(test.seeds) >=
    BigInt(test.t) * BigInt(test.fallbackDen - test.fallbackNum);
  if (!coinCovers) delta = delta.add(seedShare);
  return { epsilon, delta };
}

import {
  expNegUpperBound,
  lnOnePlusInverseUpperBound,
  plausibleDeniabilityTestCost,
} from '../../privacy/plausible-deniability-cost';
import { roundDownRational } from '../../privacy/round-up';
import { parseRational, Rational } from '../../rng/rational';

/**
 * The per-draw numbers of the privacy test (Bindschaedler, Shokri & Gunter, Theorem 1, re-derived
 * for replace-one in README.md): with integers 1 <= t < k, n_S seeds, the coin t/(t + n_S) and test noise
 * of scale 1/ε0, one draw is (ε0 + ln(1 + 1/t), e^(−ε0·(k − t))/((t + n_S)(1 + e^(−ε0))))-DP, as the metered
 * test computes it. T draws share ε and δ by basic composition: each gets ε_a = ε/T and must have
 * δ_a <= δ/T. Page-safe: arithmetic only.
 */

export interface DrawBudget {
  /** T = M·n slots (draws). */
  draws: number;
  /** ε_a = ε/T, exact. */
  epsilonPerDraw: Rational;
  k: number;
  t: number;
  /** L >= ln(1 + 1/t), a rational upper bound. */
  lnBound: Rational;
  /** ε0 <= ε_a − L: the test noise has scale 1/ε0. Rounded down to 12 significant digits. */
  testEpsilon: Rational;
  /** δ_a >= e^(−ε0·(k − t))/((t + n_S)(1 + e^(−ε0))), a rational upper bound (the metered test's). */
  deltaPerDraw: Rational;
  /** T·δ_a <= δ. */
  totalDelta: Rational;
}

export { expNegUpperBound, lnOnePlusInverseUpperBound };

/** Largest k a user may set; the automatic k may exceed it. */
export const MAX_FIXED_K = 1e9;
/** Smallest t beyond which the search gives up (ε/T too small for any usable test). */
const MAX_T = 1e9;

/** ε0(t): ε_a − L(t) rounded down to 12 significant digits; null when not positive. */
export function testEpsilonFor(epsilonPerDraw: Rational, t: number): Rational | null {
  const exact = epsilonPerDraw.sub(lnOnePlusInverseUpperBound(t));
  if (!exact.isPositive()) return null;
  const rounded = parseRational(roundDownRational(exact, 12));
  return rounded.isPositive() ? rounded : null;
}

/**
 * ln(1/δ_a) in doubles (search only; the result is checked exactly): with the coin t/(t + n_S),
 * δ_a = e^(−ε0(k − t))/((t + n_S)(1 + e^(−ε0))) (privacy/plausible-deniability-cost.ts).
 */
function exponentOf(a: number, k: number, t: number, seeds: number): number {
  const e = a - Math.log1p(1 / t);
  return e > 0 ? e * (k - t) + seedLog(t, e, seeds) : -Infinity;
}

/** ln((t + n_S)(1 + e^(−ε0))): what the seed pick and the noise's CDF take off ln(1/δ_a). */
function seedLog(t: number, e: number, seeds: number): number {
  return Math.log(t + seeds) + Math.log1p(Math.exp(-e));
}

/** Smallest t with ε_a − ln(1 + 1/t) > 0 in doubles: t > 1/(e^ε_a − 1). */
function smallestUsableT(a: number): number {
  const t = Math.floor(1 / Math.expm1(a)) + 1;
  return Math.max(1, Number.isFinite(t) ? t : Infinity);
}

/**
 * Double search for the smallest k: k_min(t) = t + max(1, ⌈R(t)/ε0(t)⌉) with
 * R(t) = ln(T/δ) − ln((t + n_S)(1 + e^(−ε0(t)))), minimised over t. f(t) = t + R(t)/ε0(t) is unimodal in
 * practice with k_min(t) ∈ [f(t), f(t) + 1) when R(t) > 0, so a ternary search finds its minimum and a
 * scan outward from it while f(t) <= best covers every t that could do better; the caller checks the
 * result exactly and steps k up when rounding demands it. Returns null when no t below 10⁹ works.
 */
function searchSmallestK(a: number, logTOverDelta: number, seeds: number): number | null {
  const tMin = smallestUsableT(a);
  if (!(tMin < MAX_T)) return null;
  const R = (t: number, e: number) => logTOverDelta - seedLog(t, e, seeds);
  const f = (t: number) => {
    const e = a - Math.log1p(1 / t);
    return e > 0 ? t + Math.max(0, R(t, e) / e) : Infinity;
  };
  const kOf = (t: number) => {
    const e = a - Math.log1p(1 / t);
    return e > 0 ? t + Math.max(1, Math.ceil(R(t, e) / e)) : Infinity;
  };
  let hi = tMin;
  while (hi < MAX_T && f(hi * 2) < f(hi)) hi *= 2;
  hi = Math.min(MAX_T, hi * 2);
  let lo = tMin;
  while (hi - lo > 2) {
    const m1 = lo + Math.floor((hi - lo) / 3);
    const m2 = hi - Math.floor((hi - lo) / 3);
    if (f(m1) < f(m2)) hi = m2;
    else lo = m1;
  }
  const centre = lo;
  let best = Infinity;
  for (let t = centre; t >= tMin && f(t) <= best + 1; t--) best = Math.min(best, kOf(t));
  for (let t = centre + 1; t < MAX_T && f(t) <= best + 1; t++) best = Math.min(best, kOf(t));
  return Number.isFinite(best) ? best : null;
}

/** The t in [1, k) maximising ε0(t)·(k − t) (doubles; g is unimodal), or null if none has ε0 > 0. */
function bestTFor(a: number, k: number, seeds: number): number | null {
  const tMin = smallestUsableT(a);
  if (!(tMin < k)) return null;
  let lo = tMin;
  let hi = k - 1;
  while (hi - lo > 2) {
    const m1 = lo + Math.floor((hi - lo) / 3);
    const m2 = hi - Math.floor((hi - lo) / 3);
    if (exponentOf(a, k, m1, seeds) < exponentOf(a, k, m2, seeds)) lo = m1;
    else hi = m2;
  }
  let best = lo;
  for (let t = Math.max(tMin, lo - 3); t <= Math.min(k - 1, hi + 3); t++) {
    if (exponentOf(a, k, t, seeds) > exponentOf(a, k, best, seeds)) best = t;
  }
  return best;
}

/** The exact numbers for a given k and t, or null when ε0(t) is not positive. */
function exactBudget(
  draws: number,
  epsilonPerDraw: Rational,
  k: number,
  t: number,
  seeds: number,
): DrawBudget | null {
  const testEpsilon = testEpsilonFor(epsilonPerDraw, t);
  if (testEpsilon === null) return null;
  // The metered test's own δ for these numbers with the coin t/(t + n_S): what the run will charge.
  const { delta: deltaPerDraw } = plausibleDeniabilityTestCost({
    k,
    t,
    testEpsilon,
    seeds,
    fallbackNum: t,
    fallbackDen: t + seeds,
  });
  return {
    draws,
    epsilonPerDraw,
    k,
    t,
    lnBound: lnOnePlusInverseUpperBound(t),
    testEpsilon,
    deltaPerDraw,
    totalDelta: deltaPerDraw.mul(Rational.of(draws)),
  };
}

/** The smallest k (with its best t) whose exact δ_a fits δ/T; null when ε/T is too small. */
function smallestFittingBudget(
  draws: number,
  epsilon: Rational,
  delta: Rational,
  seeds: number,
): DrawBudget | null {
  const epsilonPerDraw = epsilon.div(Rational.of(draws));
  const a = epsilonPerDraw.toNumberDown();
  const R = Math.log(draws) - Math.log(delta.toNumber());
  const start = searchSmallestK(a, R, seeds);
  if (start === null) return null;
  // The double search can be off by one near a rounding edge: step k up until the exact δ fits.
  for (let k = start; k < start + 64; k++) {
    const t = bestTFor(a, k, seeds);
    const budget = t === null ? null : exactBudget(draws, epsilonPerDraw, k, t, seeds);
    if (budget && budget.totalDelta.compare(delta) <= 0) return budget;
  }
  return null;
}

export type DrawBudgetPlan = { budget: DrawBudget } | { problem: string; smallestK?: number };

/**
 * k and t for T draws from n_S seeds under (ε, δ): `k` = 0 takes the smallest k that fits and the t maximising
 * ε0(t)·(k − t); a fixed k takes its best t and must fit. Problems are sentences for `check`.
 * Example: T = 1,000, n_S = 500, ε = 1,200, δ = 10⁻⁶ → k = 19, t = 4, ε0 = 1.2 − ln 1.25 (rounded down).
 */
export function planDrawBudget(
  draws: number,
  epsilon: Rational,
  delta: Rational,
  fixedK: number,
  seeds: number,
): DrawBudgetPlan {
  const smallest = smallestFittingBudget(draws, epsilon, delta, seeds);
  if (smallest === null) {
    return {
      problem:
        `ε/T = ${roundDownRational(epsilon.div(Rational.of(draws)), 3)} per draw over T = ${draws} draws is too small ` +
        'for the privacy test of parameter `k` (it needs t below 10⁹ with ln(1 + 1/t) < ε/T): raise ε or release fewer datasets.',
    };
  }
  if (fixedK === 0) return { budget: smallest };
  const epsilonPerDraw = epsilon.div(Rational.of(draws));
  const t = bestTFor(epsilonPerDraw.toNumberDown(), fixedK, seeds);
  const budget = t === null ? null : exactBudget(draws, epsilonPerDraw, fixedK, t, seeds);
  if (budget && budget.totalDelta.compare(delta) <= 0) return { budget };
  return {
    problem:
      `\`k\` = ${fixedK} is too small for δ = ${roundDownRational(delta, 6)} over T = ${draws} draws: ` +
      `the smallest k that fits is ${smallest.k}; set k to at least ${smallest.k}, or 0 to choose it automatically.`,
    smallestK: smallest.k,
  };
}

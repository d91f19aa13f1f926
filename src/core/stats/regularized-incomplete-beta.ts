import { logBeta } from './log-beta';

const CONTINUED_FRACTION_MAX_TERMS = 20_000;
const RELATIVE_TOLERANCE = 1e-16;
const TINY = 1e-300;

/** One Lentz update of the running continued-fraction state with partial numerator `term`. */
function lentzStep(state: { c: number; d: number }, term: number): number {
  let d = 1 + term * state.d;
  if (Math.abs(d) < TINY) d = TINY;
  let c = 1 + term / state.c;
  if (Math.abs(c) < TINY) c = TINY;
  state.d = 1 / d;
  state.c = c;
  return state.d * c;
}

/**
 * Continued fraction of I_x(a, b) (Abramowitz & Stegun 26.5.8), evaluated with the modified Lentz
 * method; converges quickly for x < (a + 1) / (a + b + 2) and in O(√max(a, b)) terms near it.
 */
function incompleteBetaContinuedFraction(x: number, y: number, a: number, b: number): number {
  // 1 − (a + b)x/(a + 1) written as (1 − b + (a + b)y)/(a + 1): no cancellation when x is near 1.
  let d = (1 - b + (a + b) * y) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  const state = { c: 1, d: 1 / d };
  let fraction = state.d;
  for (let m = 1; m <= CONTINUED_FRACTION_MAX_TERMS; m++) {
    const m2 = 2 * m;
    fraction *= lentzStep(state, (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)));
    const delta = lentzStep(state, (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)));
    fraction *= delta;
    if (Math.abs(delta - 1) < RELATIVE_TOLERANCE) return fraction;
  }
  return fraction;
}

/**
 * I_x(a, b) given both x and its complement y = 1 − x, so that callers who know y more accurately
 * than 1 − x (e.g. t²/(ν + t²) for Student's t) lose no digits. Same method as
 * {@link regularizedIncompleteBeta}; the prefactor is x^a y^b / (a B(a, b)) in logs.
 */
export function regularizedIncompleteBetaWithComplement(x: number, y: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`regularizedIncompleteBeta needs a, b > 0, got ${a}, ${b}`);
  if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) {
    throw new RangeError(`regularizedIncompleteBeta needs 0 ≤ x ≤ 1, got ${x}`);
  }
  if (x === 0) return 0;
  if (y === 0) return 1;
  // log x from log1p(−y) when x is near 1 (and vice versa): a·log x is then accurate even for huge a.
  const logX = x < 0.5 ? Math.log(x) : Math.log1p(-y);
  const logY = y < 0.5 ? Math.log(y) : Math.log1p(-x);
  const logPrefactor = a * logX + b * logY - logBeta(a, b);
  if (x < (a + 1) / (a + b + 2)) {
    return (Math.exp(logPrefactor) * incompleteBetaContinuedFraction(x, y, a, b)) / a;
  }
  return 1 - (Math.exp(logPrefactor) * incompleteBetaContinuedFraction(y, x, b, a)) / b;
}

/**
 * Regularized incomplete beta function I_x(a, b) = B(x; a, b) / B(a, b) for a, b > 0, 0 ≤ x ≤ 1.
 *
 * Abramowitz & Stegun (1964) 26.5.8 continued fraction (modified Lentz) with the prefactor
 * x^a (1 − x)^b / (a B(a, b)) computed in logs; the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) is used
 * when x > (a + 1) / (a + b + 2) so the fraction converges. Relative accuracy about 1e−14 away from
 * underflow. Throws RangeError for invalid arguments. Cost O(√max(a, b)) terms at worst.
 * Example: regularizedIncompleteBeta(0.5, 2, 3) = 0.6875.
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  return regularizedIncompleteBetaWithComplement(x, 1 - x, a, b);
}

const POWER_SERIES_MAX_TERMS = 100_000;

/**
 * I_x(a, b) by the power series of Abramowitz & Stegun 26.5.4:
 *   I_x(a, b) = x^a (1 − x)^b / (a B(a, b)) · [1 + Σ_{n ≥ 0} B(a + 1, n + 1) / B(a + b, n + 1) · x^(n+1)],
 * whose terms are all positive (term_{n+1} = term_n · x (a + b + n + 1) / (a + n + 2)), so there is
 * no cancellation. Converges for 0 ≤ x < 1 in about x·(a + b)/(1 − x) + 40 terms: meant for small
 * x·b, e.g. the central part of Student's t with many degrees of freedom, where the continued
 * fraction is evaluated near the edge of its fast region and loses digits.
 * Throws RangeError for invalid arguments or when more than 100,000 terms would be needed.
 */
export function regularizedIncompleteBetaPowerSeries(x: number, y: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`regularizedIncompleteBeta needs a, b > 0, got ${a}, ${b}`);
  if (!(x >= 0 && x < 1)) throw new RangeError(`power series needs 0 ≤ x < 1, got ${x}`);
  if (x === 0) return 0;
  const logX = x < 0.5 ? Math.log(x) : Math.log1p(-y);
  const logY = y < 0.5 ? Math.log(y) : Math.log1p(-x);
  const prefactor = Math.exp(a * logX + b * logY - logBeta(a, b)) / a;
  let term = (x * (a + b)) / (a + 1);
  let sum = 1 + term;
  for (let n = 1; n < POWER_SERIES_MAX_TERMS; n++) {
    term *= (x * (a + b + n)) / (a + n + 1);
    sum += term;
    if (term < sum * 1e-17) return prefactor * sum;
  }
  throw new RangeError(`power series for I_x(a, b) did not converge (x = ${x}, a = ${a}, b = ${b})`);
}

import { stdlibSamplersFor } from './stdlib-samplers';
import type { Rng } from './types';

/** Below this mean n·p, inversion (O(1 + n·p)) beats BTRD's setup. */
const INVERSION_MEAN_LIMIT = 10;
/** Retry inversion when it runs past this many steps: floating rounding left u above the total mass. */
const INVERSION_STEP_LIMIT_ABOVE_MEAN = 110;

/**
 * Binomial(n, p): the number of successes in n independent trials of probability p.
 * For p > 1/2 returns n − Binomial(n, 1 − p). Then, for n·p < 10: inversion by sequential search,
 * algorithm BINV of Kachitvichyanukul & Schmeiser ("Binomial random variate generation", CACM 31(2),
 * 1988): f(0) = (1 − p)^n, f(x) = f(x − 1)·((n + 1)p/(q·x) − p/q), one uniform, O(1 + n·p) steps.
 * Otherwise stdlib's BTRD (Hörmann, "The generation of binomial random variates", JSCS 46, 1993), O(1).
 * (stdlib alone would sum n Bernoulli draws when n·p < 10, which is O(n): far too slow for
 * multinomial draws with millions of categories.) Floating point: for post-processing only.
 *
 * Throws RangeError unless n is a safe integer >= 0 and 0 <= p <= 1.
 * Example: `sampleBinomial(rng, 10, 0.5)` is 5 with probability 252/1024.
 */
export function sampleBinomial(rng: Rng, n: number, p: number): number {
  if (!(Number.isSafeInteger(n) && n >= 0)) {
    throw new RangeError(`sampleBinomial: n must be a safe integer >= 0, got ${String(n)}`);
  }
  if (!(p >= 0 && p <= 1)) throw new RangeError(`sampleBinomial: p must be in [0, 1], got ${String(p)}`);
  return binomialUnchecked(rng, n, p);
}

/** sampleBinomial without argument checks, for loops that validated their inputs. */
export function binomialUnchecked(rng: Rng, n: number, p: number): number {
  if (n === 0 || p === 0) return 0;
  if (p === 1) return n;
  if (p > 0.5) return n - binomialUnchecked(rng, n, 1 - p);
  if (n * p < INVERSION_MEAN_LIMIT) return binomialByInversion(rng, n, p);
  return stdlibSamplersFor(rng).binomial(n, p);
}

function binomialByInversion(rng: Rng, n: number, p: number): number {
  const q = 1 - p;
  const ratio = p / q;
  const a = (n + 1) * ratio;
  const probabilityOfZero = Math.exp(n * Math.log1p(-p));
  const stepLimit = Math.min(n, Math.ceil(n * p) + INVERSION_STEP_LIMIT_ABOVE_MEAN);
  for (;;) {
    let u = rng.nextFloat();
    let x = 0;
    let f = probabilityOfZero;
    while (u > f && x < stepLimit) {
      u -= f;
      x++;
      f *= a / x - ratio;
    }
    if (u <= f) return x;
  }
}

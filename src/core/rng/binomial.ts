import type { Rng } from './types';

/** Below this mean n·p (p <= ½), inversion (O(1 + n·p)) is used; BTRD above, where it is valid. */
const INVERSION_MEAN_LIMIT = 10;
/** Inversion restarts past this many steps beyond the mean: rounding left u above the summed mass. */
const INVERSION_STEPS_BEYOND_MEAN = 110;

/**
 * Binomial(n, p): the number of successes in n independent trials of probability p.
 * For p > ½ returns n − Binomial(n, 1 − p). Then:
 * - n·p < 10: inversion by sequential search, algorithm BINV of Kachitvichyanukul & Schmeiser,
 *   "Binomial random variate generation", CACM 31(2), 1988: f(0) = (1 − p)^n,
 *   f(x) = f(x − 1)·((n + 1)p/(q·x) − p/q); one uniform, O(1 + n·p) steps.
 * - otherwise BTRD, the transformed rejection of Hörmann, "The generation of binomial random
 *   variates", J. Statist. Comput. Simul. 46, 1993, §3: O(1) expected uniforms for any n.
 * Written here rather than taken from @stdlib/random-base-binomial 0.2.2, whose BTRD loops over
 * one factor too many in step 3.1 and is visibly biased for 10 <= n·p <~ 1000 (mean off by ~0.5).
 * Floating point: for post-processing only, never privacy noise.
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
  return n * p < INVERSION_MEAN_LIMIT ? binomialByInversion(rng, n, p) : binomialByBtrd(rng, n, p);
}

function binomialByInversion(rng: Rng, n: number, p: number): number {
  const q = 1 - p;
  const ratio = p / q;
  const a = (n + 1) * ratio;
  const probabilityOfZero = Math.exp(n * Math.log1p(-p));
  const stepLimit = Math.min(n, Math.ceil(n * p) + INVERSION_STEPS_BEYOND_MEAN);
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

/** Hörmann 1993, algorithm BTRD, for p <= ½ and n·p >= 10; step numbers follow the paper. */
function binomialByBtrd(rng: Rng, n: number, p: number): number {
  // Step 0: setup.
  const q = 1 - p;
  const m = Math.floor((n + 1) * p);
  const r = p / q;
  const nr = (n + 1) * r;
  const npq = n * p * q;
  const sqrtNpq = Math.sqrt(npq);
  const b = 1.15 + 2.53 * sqrtNpq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const alpha = (2.83 + 5.1 / b) * sqrtNpq;
  const vr = 0.92 - 4.2 / b;
  const urvr = 0.86 * vr;
  const nm = n - m + 1;
  const h = (m + 0.5) * Math.log((m + 1) / (r * nm)) + stirlingCorrection(m) + stirlingCorrection(n - m);
  for (;;) {
    // Step 1: the table-mountain centre, accepted without evaluating f.
    let v = rng.nextFloat();
    if (v <= urvr) {
      const u = v / vr - 0.43;
      return Math.floor(((2 * a) / (0.5 - Math.abs(u)) + b) * u + c);
    }
    // Step 2: a point (u, v) under the hat outside the centre.
    let u: number;
    if (v >= vr) {
      u = rng.nextFloat() - 0.5;
    } else {
      u = v / vr - 0.93;
      u = Math.sign(u) * 0.5 - u;
      v = rng.nextFloat() * vr;
    }
    // Step 3.0.
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    v = (v * alpha) / (a / (us * us) + b);
    const km = Math.abs(k - m);
    if (km <= 15) {
      // Step 3.1: f(k)/f(m) by the recursion f(i)/f(i − 1) = nr/i − r, for i from min+1 to max.
      let f = 1;
      if (m < k) {
        for (let i = m + 1; i <= k; i++) f *= nr / i - r;
      } else if (m > k) {
        for (let i = k + 1; i <= m; i++) v *= nr / i - r;
      }
      if (v <= f) return k;
      continue;
    }
    // Step 3.2: squeeze on log f(k)/f(m).
    v = Math.log(v);
    const rho = (km / npq) * (((km / 3 + 0.625) * km + 1 / 6) / npq + 0.5);
    const t = -(km * km) / (2 * npq);
    if (v < t - rho) return k;
    if (v > t + rho) continue;
    // Steps 3.3–3.4: the exact log ratio through Stirling's formula with corrections.
    const nk = n - k + 1;
    const logRatio =
      h +
      (n + 1) * Math.log(nm / nk) +
      (k + 0.5) * Math.log((nk * r) / (k + 1)) -
      stirlingCorrection(k) -
      stirlingCorrection(n - k);
    if (v <= logRatio) return k;
  }
}

/**
 * fc(k) = log k! − [(k + ½) log(k + 1) − (k + 1) + ½ log 2π] (Hörmann 1993, §3): tabulated from
 * exact sums of logs for k < 10, the series (1/12 − (1/360 − 1/(1260 (k+1)²))/(k+1)²)/(k+1) beyond.
 */
export function stirlingCorrection(k: number): number {
  if (k < STIRLING_TABLE.length) return STIRLING_TABLE[k];
  const k1 = k + 1;
  const k1Squared = k1 * k1;
  return (1 / 12 - (1 / 360 - 1 / (1260 * k1Squared)) / k1Squared) / k1;
}

const STIRLING_TABLE: readonly number[] = (() => {
  const table: number[] = [];
  let logFactorial = 0;
  for (let k = 0; k < 10; k++) {
    if (k > 0) logFactorial += Math.log(k);
    table.push(logFactorial - ((k + 0.5) * Math.log(k + 1) - (k + 1) + 0.5 * Math.log(2 * Math.PI)));
  }
  return table;
})();

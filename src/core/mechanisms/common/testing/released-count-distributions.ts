import { tabulatePmf, type IntegerPmf } from '../../../rng/testing/distribution-fit';

/**
 * Exact distributions of what the histogram mechanisms release, written from their definitions
 * (DIPS study §3.1.1–3.1.2; DESIGN.md §3) and independently of the mechanisms' code, for the noise
 * audits and empirical privacy tests. Test support only; nothing in the product imports this folder.
 */

/** Mass below which a tail is dropped (the pmfs are renormalised after truncation). */
const TAIL_MASS = 1e-14;

/** Binomial(n, p) pmf at s, by logs so that n up to thousands is fine: C(n, s)·p^s·(1 − p)^(n − s). */
export function binomialMass(s: number, n: number, p: number): number {
  if (s < 0 || s > n) return 0;
  if (p <= 0) return s === 0 ? 1 : 0;
  if (p >= 1) return s === n ? 1 : 0;
  let logChoose = 0;
  for (let i = 1; i <= s; i++) logChoose += Math.log((n - s + i) / i);
  return Math.exp(logChoose + s * Math.log(p) + (n - s) * Math.log1p(-p));
}

/**
 * Discrete Laplace pmf with scale t: P(Z = z) = (1 − q)/(1 + q)·q^|z|, q = e^(−1/t)
 * (Canonne, Kamath & Steinke 2020, Definition 28). scale 0 is the point mass at 0 (no noise).
 */
export function discreteLaplaceMass(z: number, scale: number): number {
  if (scale === 0) return z === 0 ? 1 : 0;
  const q = Math.exp(-1 / scale);
  return ((1 - q) / (1 + q)) * q ** Math.abs(z);
}

/**
 * Discrete Gaussian N_ℤ(0, σ²) on the integers: P(Z = z) = e^(−z²/(2σ²)) / Σ_k e^(−k²/(2σ²))
 * (Canonne, Kamath & Steinke 2020, Definition 1), tabulated where the tails hold more than TAIL_MASS.
 */
export function discreteGaussianPmf(sigma2: number): IntegerPmf {
  // P(|Z| > z) < 2e^(−z²/(2σ²)) relative to the mass at 0, so z = σ·√(2 ln(2/TAIL_MASS)) suffices.
  const reach = Math.ceil(Math.sqrt(2 * sigma2 * Math.log(2 / TAIL_MASS))) + 1;
  return tabulatePmf(-reach, reach, (z) => Math.exp(-(z * z) / (2 * sigma2)));
}

/** The z ≥ 0 beyond which the two tails of discrete Laplace(t) hold less than TAIL_MASS. */
function noiseReach(scale: number): number {
  if (scale === 0) return 0;
  // P(|Z| > z) = 2q^(z+1)/(1 + q) < q^z; q^z < TAIL_MASS ⇔ z > t·log(1/TAIL_MASS).
  return Math.ceil(scale * Math.log(1 / TAIL_MASS)) + 1;
}

/**
 * Distribution of max(0, c + Z), Z discrete Laplace(t): a released count after noise and the
 * "negatives to zero" repair. Index v holds P(max(0, c + Z) = v); all of Z ≤ −c lands on 0.
 */
export function repairedNoisyCountPmf(count: number, scale: number): Float64Array {
  const reach = noiseReach(scale);
  const top = count + reach;
  const pmf = new Float64Array(top + 1);
  for (let z = -count - reach; z <= reach; z++) {
    pmf[Math.max(0, count + z)] += discreteLaplaceMass(z, scale);
  }
  return pmf;
}

/** The pmf of the sum of independent non-negative integer variables (convolution). */
function convolve(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === 0) continue;
    for (let j = 0; j < b.length; j++) out[i + j] += a[i]! * b[j]!;
  }
  return out;
}

/**
 * The Laplace sanitizer followed by the draw of the synthetic rows (DIPS §3.1.1–3.1.2): every cell
 * k of a K-cell domain with true count c_k gets independent discrete Laplace noise of scale t,
 * negatives become 0 (y_k = max(0, c_k + Z_k)), and n rows are drawn in proportion to the y_k —
 * uniformly over the K cells when every y_k is 0. The number S of synthetic rows in `cell` is then
 *   P(S = s) = Σ_{y, R} P(y_cell = y)·P(Σ_{k≠cell} y_k = R)·Binomial(s; n, y/(y + R)),
 * with Binomial(s; n, 1/K) when y + R = 0. O(reach² · n).
 */
export function noisyHistogramDrawPmf(
  counts: readonly number[],
  cell: number,
  scale: number,
  rows: number,
): IntegerPmf {
  const own = repairedNoisyCountPmf(counts[cell]!, scale);
  let rest: Float64Array = Float64Array.of(1);
  counts.forEach((c, k) => {
    if (k !== cell) rest = convolve(rest, repairedNoisyCountPmf(c, scale));
  });
  const mass = new Float64Array(rows + 1);
  for (let y = 0; y < own.length; y++) {
    if (own[y]! < 1e-300) continue;
    for (let r = 0; r < rest.length; r++) {
      const weight = own[y]! * rest[r]!;
      if (weight < 1e-300) continue;
      const p = y + r === 0 ? 1 / counts.length : y / (y + r);
      for (let s = 0; s <= rows; s++) mass[s] += weight * binomialMass(s, rows, p);
    }
  }
  return tabulatePmf(0, rows, (s) => mass[s]!);
}

/**
 * Wasserman & Zhou's smoothing weight for T draws under replace-one neighbours (DIPS eq. 7
 * generalised from T = n; derivation in the mechanisms README): λ = K/(K + n·(e^(ε/T) − 1)).
 */
export function smoothingWeightFor(domainCells: number, n: number, draws: number, epsilon: number): number {
  return domainCells / (domainCells + n * Math.expm1(epsilon / draws));
}

/**
 * Rows in `cell` out of `rows` independent draws from the smoothed histogram
 * q_k = (1 − λ)·c_k/n + λ/K (DIPS eq. 6): Binomial(rows, q_cell).
 */
export function smoothedHistogramDrawPmf(
  counts: readonly number[],
  cell: number,
  lambda: number,
  rows: number,
): IntegerPmf {
  const n = counts.reduce((a, b) => a + b, 0);
  const q = (1 - lambda) * (counts[cell]! / n) + lambda / counts.length;
  return tabulatePmf(0, rows, (s) => binomialMass(s, rows, q));
}

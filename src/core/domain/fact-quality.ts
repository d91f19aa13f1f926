import { Rational } from '../rng/rational';
import { thresholdFor } from './dp-categories';
import { boundRank, boundReach, quantileRows, type BoundEnd } from './dp-quantile';
import { wholeNumberThreshold } from './dp-whole-number';

/**
 * The quality each learned fact is predicted to have, from public facts only: the number of rows n
 * (public under replace-one), the fact's share of ε (and δ), the number K of search candidates and
 * the quantile a bound aims at. Nothing here reads data. The floors say what a fact must reach for
 * learning it to be worth its budget; domain-plan.ts refuses a plan with a fact below its floor.
 */

/** A type must be called right with at least this probability. */
export const TYPE_RIGHT_FLOOR = 0.99;
/** The cells of the column's kind outnumber the others by at least this share of n (the type's prediction assumes it). */
export const TYPE_MARGIN_SHARE = 0.5;
/**
 * At most this share of the rows expected beyond each learned bound (or the bound's own quantile,
 * if larger): 2.5 % at each end, so that a pair of bounds keeps about 95 % of the rows between them.
 */
export const BEYOND_SHARE_FLOOR = 0.025;
/** A learned bound may lie beyond all the data (a looser range than the data need) with at most this probability. */
export const BEYOND_DATA_FLOOR = 0.05;
/** A whole-number flag may miss at most this share of the rows holding values that are not whole. */
export const NOT_WHOLE_SHARE_FLOOR = 0.05;
/** A category held by this share of the rows must be listed with probability LISTED_PROBABILITY. */
export const LIST_SHARE_FLOOR = 0.1;
export const LISTED_PROBABILITY = 0.99;

/**
 * P(Z >= j) for discrete Laplace Z with P(Z = z) ∝ p^|z|: p^j/(1 + p) for j >= 1, else
 * 1 − p^(1−j)/(1 + p) (Canonne, Kamath & Steinke 2020, the pmf (1 − p)/(1 + p)·p^|z|).
 */
export function discreteLaplaceSurvival(j: number, p: number): number {
  return j >= 1 ? p ** j / (1 + p) : 1 - p ** (1 - j) / (1 + p);
}

/** p = e^(−ε/Δ) of discrete Laplace noise of scale Δ/ε. */
function decay(epsilon: Rational, sensitivity: number): number {
  return Math.exp(-epsilon.toNumberDown() / sensitivity);
}

/** M = ⌈n/2⌉ (at least 1): the margin of cells of one kind the type's prediction assumes. */
export function typeMargin(n: number): number {
  return Math.max(1, Math.ceil(n * TYPE_MARGIN_SHARE));
}

/**
 * Probability that the type (dp-majority.ts: numeric iff yes − no + Z >= 1, Z of scale 2/ε) is
 * called right for a column whose cells of its kind outnumber the other kind by M = ⌈n/2⌉: a
 * numeric column (yes − no = M) is called categorical when Z <= −M, a categorical one (yes − no = −M)
 * numeric when Z >= M + 1, so the worse of the two is 1 − P(Z >= M) = 1 − p^M/(1 + p), p = e^(−ε/2).
 */
export function predictedTypeRight(n: number, epsilon: Rational): number {
  return 1 - discreteLaplaceSurvival(typeMargin(n), decay(epsilon, 2));
}

/**
 * The whole-number flag's threshold T (dp-whole-number.ts): a column with fewer than about T values
 * that are not whole is called whole and rounded; a whole column is called fractional with
 * probability at most 1/20. The floor asks T <= max(1, ⌊n/20⌋).
 */
export function predictedWholeThreshold(n: number, epsilon: Rational): number {
  return wholeNumberThreshold(n, epsilon);
}

export function wholeThresholdFloor(n: number): number {
  return Math.max(1, Math.floor(n * NOT_WHOLE_SHARE_FLOOR));
}

/** Σ_{d<L} p^d and Σ_{d<L} d·p^d, accurate for p near 1 (closed forms; uniform sums when L·(1 − p) is tiny). */
function geometricSums(L: number, p: number): [number, number] {
  if (L <= 0) return [0, 0];
  const oneMinusP = -Math.expm1(Math.log(p));
  if (L * oneMinusP < 1e-6) return [L, (L * (L - 1)) / 2];
  const pL = p ** L;
  const s0 = -Math.expm1(L * Math.log(p)) / oneMinusP;
  const s1 = (p - L * pL + (L - 1) * pL * p) / (oneMinusP * oneMinusP);
  return [s0, Math.max(0, s1)];
}

/**
 * The expected number of the n values beyond a bound learned by dpBoundIndex with this ε, for a
 * column without missing cells (m = n) whose values each fill their own grid cell, contiguously,
 * with the data at the grid's end (no candidate beyond it on the bound's side, K − n past its far
 * end). Cell k holds ranks [k, k + 1], so with r = boundRank(q, end, n) its score is
 * −max(k − r, r − k − 1, 0) (the reach term of boundScores adds nothing where every cell holds a
 * value) and the bound leaves k values beyond it; the K − n cells past the far end score −(n − r)
 * and leave n. The exponential mechanism picks cell k with weight p^d, p = e^(−ε/2):
 * E = Σ k·p^d(k) / Σ p^d(k), in closed form. A column whose values share cells (most real columns)
 * gets a bound at a cell edge outside the target and leaves fewer rows beyond; a column with a run
 * of empty cells just inside its end can leave more.
 */
export function predictedRowsBeyond(
  n: number,
  epsilon: Rational,
  candidates: number,
  q: Rational,
  end: BoundEnd,
): { rows: number; rank: number } {
  const r = boundRank(q, end, n);
  const p = decay(epsilon, 2);
  const [a0, a1] = geometricSums(n - r, p); // k = r + d, d = 0 … n − r − 1
  const [b0, b1] = geometricSums(r, p); // k = r − 1 − d, d = 0 … r − 1
  const far = Math.max(0, candidates - n) * p ** (n - r);
  const numerator = r * a0 + a1 + (r - 1) * b0 - b1 + far * n;
  const denominator = a0 + b0 + far;
  return { rows: numerator / denominator, rank: r };
}

/**
 * The probability that a bound learned by dpBoundIndex with this ε lies beyond all the data (a
 * lower bound below the least value's grid cell, an upper bound above the greatest's), for the
 * column of predictedRowsBeyond seen from the other side: its n values each fill a cell, and the B
 * cells on the bound's side hold none. B defaults to max(K − n, ⌈K/2⌉): the data at the grid's other
 * end when n <= K/2 (as the simulation in domain-plan.test.ts places them), and at least half the grid
 * beyond the data otherwise (the values of a column rarely spread over more than half of it, and a
 * column of one sign has about half the grid beyond one end), so that a large n never makes the cells
 * beyond the data vanish from the prediction. With r =
 * boundRank(q, end, n) and R = boundReach(n, ε, K), the cell t cells beyond the data scores
 * −max(r, min(r + t − 1, R)) (boundScores) and cell k of the data −max(k − r, r − k − 1, 0), so
 * P = Σ_{t=1…B} p^(max(r, min(r + t − 1, R))) / (that + Σ_k p^(max(k − r, r − k − 1, 0))),
 * p = e^(−ε/2), in closed form. Also the target rank r and the reach R. More cells beyond, more P.
 */
export function predictedBeyondData(
  n: number,
  epsilon: Rational,
  candidates: number,
  q: Rational,
  end: BoundEnd,
  beyondCells = Math.max(candidates - n, Math.ceil(candidates / 2)),
): { probability: number; rank: number; reach: number } {
  const r = boundRank(q, end, n);
  const reach = boundReach(n, epsilon, candidates);
  const p = decay(epsilon, 2);
  const [a0] = geometricSums(n - r, p);
  const [b0] = geometricSums(r, p);
  const inside = a0 + b0;
  const cells = Math.max(0, beyondCells);
  // t = 1 … cells: exponent r while r + t − 1 <= r (t = 1) or R <= r; then r + t − 1 up to R; then R.
  let beyond: number;
  if (reach <= r) {
    beyond = cells * p ** r;
  } else {
    const rising = Math.min(cells, reach - r + 1); // t = 1 … rising: exponent max(r, r + t − 1) = r + t − 1
    const [g0] = geometricSums(rising, p); // Σ_{d < rising} p^d, d = t − 1
    beyond = p ** r * g0 + Math.max(0, cells - rising) * p ** reach;
  }
  return { probability: beyond / (beyond + inside), rank: r, reach };
}

/** The most rows expected beyond a bound that meets the floor: 2.5 % of n, or the quantile's own rows if more. */
export function beyondRowsFloor(n: number, q: Rational, end: BoundEnd): number {
  return Math.max(n * BEYOND_SHARE_FLOOR, quantileRows(q, end, n));
}

/**
 * The smallest count c for which a value held by c rows is listed (dp-categories.ts: c + Z >= τ,
 * Z of scale 2/ε, τ = thresholdFor(ε, δ)) with probability at least 0.99: the least c with
 * P(Z >= τ − c) >= 0.99. Also P(Z >= τ − 1), the probability a value held by one row is listed.
 */
export function predictedListedCount(
  epsilon: Rational,
  delta: Rational,
): { count: number; threshold: number; single: number } {
  const tau = thresholdFor(epsilon, delta);
  const p = decay(epsilon, 2);
  let c = Math.max(1, tau + Math.floor(Math.log(0.01 * (1 + p)) / Math.log(p)) - 2);
  while (c > 1 && discreteLaplaceSurvival(tau - (c - 1), p) >= LISTED_PROBABILITY) c--;
  while (discreteLaplaceSurvival(tau - c, p) < LISTED_PROBABILITY) c++;
  return { count: c, threshold: tau, single: discreteLaplaceSurvival(tau - 1, p) };
}

/** ⌈n/10⌉: a category held by 10 % of the rows must be listed. */
export function listedCountFloor(n: number): number {
  return Math.max(1, Math.ceil(n * LIST_SHARE_FLOOR - 1e-9));
}

/**
 * The least ε (3 significant digits, rounded up) at which `meets` holds, by bisection over
 * [1e−4, 1e5] on a log scale (`meets` must be monotone in ε); Infinity when it fails at 1e5.
 */
export function leastEpsilon(meets: (epsilon: Rational) => boolean): number {
  const at = (x: number) => meets(Rational.of(BigInt(Math.round(x * 1e9)), 1_000_000_000n));
  let lo = 1e-4;
  let hi = 1e5;
  if (!at(hi)) return Infinity;
  if (at(lo)) return lo;
  for (let i = 0; i < 60 && hi / lo > 1 + 1e-4; i++) {
    const mid = Math.sqrt(lo * hi);
    if (at(mid)) hi = mid;
    else lo = mid;
  }
  let up = roundUpSignificant(hi, 3);
  while (!at(up)) up = roundUpSignificant(up * 1.001, 3);
  return up;
}

/** x rounded up to `digits` significant digits. */
export function roundUpSignificant(x: number, digits: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return x;
  const scale = 10 ** (digits - 1 - Math.floor(Math.log10(x)));
  return Math.ceil(x * scale - 1e-9) / scale;
}

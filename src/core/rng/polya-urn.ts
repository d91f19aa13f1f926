import type { Rational } from './rational';
import type { Rng } from './types';
import { uniformBigInt, uniformInt, uniformIntBelowSafe } from './uniform-int';
import { throwIfAborted, type AbortSignalLike } from '../abort';

/** Weighted cells: cells[i] holds counts[i] balls (non-negative whole numbers); cells need not be sorted. */
export interface UrnBalls {
  cells: ArrayLike<number>;
  counts: ArrayLike<number>;
}

export interface UrnDrawOptions {
  /** K: every cell 0 … K − 1 carries the prior weight α. At most 2^32. */
  domainCells: number;
  /** α > 0 per cell, exact. */
  prior: Rational;
  balls: UrnBalls;
  draws: number;
  /**
   * true: Pólya urn — each drawn cell gets one more ball, so the draws are Dirichlet–multinomial
   * with parameter α + counts. false: the draws are independent with P(k) = (α + c_k)/(Kα + C).
   */
  reinforce: boolean;
  signal?: AbortSignalLike;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Draws cells from the weights α + c_k over K cells, exactly, in memory proportional to the balls
 * and draws (never to K). Draw j first chooses between the prior mass Kα and the C + j balls
 * (Bernoulli(Kα/(Kα + C + j)) as an exact ratio of integers: α = a/b gives Ka/(Ka + b(C + j))),
 * then a uniform cell, or a uniformly chosen ball (binary search over the cumulative counts, or an
 * earlier draw). With `reinforce` this is the Pólya urn, whose sequence of draws is exchangeable and
 * Dirichlet–multinomial(α + c) in its counts (Blackwell & MacQueen 1973) — the same law as drawing
 * π ~ Dirichlet(α + c) and then m rows from Multinomial(π), but with integer arithmetic only, so a
 * guarantee that rests on the exact law (the Multinomial–Dirichlet synthesizer) holds as derived.
 * Why by hand: no library samples this exactly. Cost O(m·log S + S) for S weighted cells.
 * Throws RangeError for K outside [1, 2^32], a count that is not a whole number >= 0, or α <= 0.
 */
export function drawFromPriorAndBalls(rng: Rng, options: UrnDrawOptions): Uint32Array {
  const { domainCells: K, prior, balls, draws, reinforce, signal } = options;
  if (!(Number.isInteger(K) && K >= 1 && K <= 2 ** 32))
    throw new RangeError(`urn: the domain must have 1 to 2^32 cells, got ${K}`);
  if (!prior.isPositive()) throw new RangeError(`urn: the prior weight must be > 0, got ${prior.toString()}`);
  const S = balls.cells.length;
  const cumulative = new Float64Array(S);
  let total = 0;
  for (let i = 0; i < S; i++) {
    const count = balls.counts[i]!;
    if (!(Number.isInteger(count) && count >= 0))
      throw new RangeError(`urn: count ${count} is not a whole number >= 0`);
    total += count;
    cumulative[i] = total;
  }
  const priorMass = BigInt(K) * prior.num;
  const perBall = prior.den;
  const largest = priorMass + perBall * BigInt(total + (reinforce ? draws : 0));
  const safe = largest <= MAX_SAFE;
  const priorMassSafe = Number(priorMass);
  const perBallSafe = Number(perBall);
  const out = new Uint32Array(draws);
  for (let j = 0; j < draws; j++) {
    if ((j & 0xffff) === 0) throwIfAborted(signal);
    const ballCount = total + (reinforce ? j : 0);
    const fromPrior = safe
      ? uniformIntBelowSafe(rng, priorMassSafe + perBallSafe * ballCount) < priorMassSafe
      : uniformBigInt(rng, priorMass + perBall * BigInt(ballCount)) < priorMass;
    if (fromPrior) {
      out[j] = uniformInt(rng, K);
      continue;
    }
    const r = uniformIntBelowSafe(rng, ballCount);
    out[j] = r < total ? balls.cells[firstAbove(cumulative, r)]! : out[r - total]!;
  }
  return out;
}

/** The first index i with cumulative[i] > r (cumulative is non-decreasing and its last entry > r). */
function firstAbove(cumulative: Float64Array, r: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid]! > r) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

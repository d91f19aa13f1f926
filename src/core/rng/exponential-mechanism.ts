import { bernoulliExpNegBig, bernoulliExpNegSafe } from './bernoulli-exp-neg';
import type { Rational } from './rational';
import type { Rng } from './types';
import { uniformInt } from './uniform-int';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The exponential mechanism (McSherry & Talwar 2007), sampled exactly: candidate i is returned with
 * probability  exp(ε·qᵢ/(2Δ)) / Σⱼ exp(ε·qⱼ/(2Δ)),  for integer scores qᵢ whose sensitivity (the
 * most any score moves between neighbouring datasets) is the integer Δ, in the same units.
 *
 * Method: draw a candidate i uniformly and accept it with probability exp(−γᵢ), γᵢ = ε·(q_max − qᵢ)/(2Δ),
 * an exact rational, using the Bernoulli(exp(−γ)) sampler of Canonne, Kamath & Steinke 2020
 * (Algorithm 1); repeat until accepted. Accepting i in a round has probability exp(−γᵢ)/K, so the
 * output has exactly the distribution above (q_max cancels in the normalisation). The best candidate
 * has γ = 0, so each round succeeds with probability at least 1/K: at most K rounds expected.
 * Floating-point scores are avoided on purpose: an ε-DP guarantee needs the exact ratios.
 *
 * The output is ε-DP, and ε-bounded-range, hence ε²/8-zCDP (Cesar & Rogers 2021, Lemma 3.2).
 * Throws RangeError unless there is at least one candidate, scores are safe integers, Δ is a positive
 * safe integer and ε >= 0.
 */
export function sampleExponentialMechanism(
  rng: Rng,
  scores: ArrayLike<number>,
  epsilon: Rational,
  sensitivity: number,
): number {
  const k = scores.length;
  if (k < 1) throw new RangeError('sampleExponentialMechanism: there must be at least one candidate');
  if (!(Number.isSafeInteger(sensitivity) && sensitivity > 0)) {
    throw new RangeError(
      `sampleExponentialMechanism: the sensitivity must be a positive whole number, got ${sensitivity}`,
    );
  }
  if (epsilon.isNegative()) {
    throw new RangeError(`sampleExponentialMechanism: ε must be >= 0, got ${epsilon.toString()}`);
  }
  let best = -Infinity;
  for (let i = 0; i < k; i++) {
    const score = scores[i]!;
    if (!Number.isSafeInteger(score)) {
      throw new RangeError(`sampleExponentialMechanism: score ${i} must be a safe integer, got ${score}`);
    }
    if (score > best) best = score;
  }
  const bigBest = BigInt(best);
  return acceptUniformCandidate(rng, k, (i) => bigBest - BigInt(scores[i]!), epsilon, BigInt(sensitivity));
}

/**
 * {@link sampleExponentialMechanism} for scores and a sensitivity of any size, as bigints: the same
 * distribution, exp(ε·qᵢ/(2Δ)) / Σⱼ exp(ε·qⱼ/(2Δ)), sampled the same way (for scores and Δ that are safe
 * integers it makes the same draws). For scores that can pass 2^53, e.g. weighted errors on a fine grid.
 * Throws RangeError unless there is at least one candidate, Δ >= 1 and ε >= 0.
 */
export function sampleExponentialMechanismBig(
  rng: Rng,
  scores: readonly bigint[],
  epsilon: Rational,
  sensitivity: bigint,
): number {
  const k = scores.length;
  if (k < 1) throw new RangeError('sampleExponentialMechanismBig: there must be at least one candidate');
  if (sensitivity < 1n) {
    throw new RangeError(
      `sampleExponentialMechanismBig: the sensitivity must be a positive whole number, got ${sensitivity}`,
    );
  }
  if (epsilon.isNegative()) {
    throw new RangeError(`sampleExponentialMechanismBig: ε must be >= 0, got ${epsilon.toString()}`);
  }
  let best = scores[0]!;
  for (const score of scores) if (score > best) best = score;
  return acceptUniformCandidate(rng, k, (i) => best - scores[i]!, epsilon, sensitivity);
}

/**
 * The sampling loop of both forms: a uniform candidate i accepted with probability exp(−γᵢ),
 * γᵢ = ε.num·gap(i) / (2Δ·ε.den), gap(i) = q_max − qᵢ >= 0; repeated until one is accepted.
 */
function acceptUniformCandidate(
  rng: Rng,
  k: number,
  gap: (i: number) => bigint,
  epsilon: Rational,
  sensitivity: bigint,
): number {
  const den = 2n * sensitivity * epsilon.den;
  for (;;) {
    const i = uniformInt(rng, k);
    const num = epsilon.num * gap(i);
    const accepted =
      num <= MAX_SAFE && den <= MAX_SAFE
        ? bernoulliExpNegSafe(rng, Number(num), Number(den))
        : bernoulliExpNegBig(rng, num, den);
    if (accepted) return i;
  }
}

/** The exact selection probabilities of {@link sampleExponentialMechanism} (floating point, for tests and reports). */
export function exponentialMechanismProbabilities(
  scores: ArrayLike<number>,
  epsilon: number,
  sensitivity: number,
): number[] {
  let best = -Infinity;
  for (let i = 0; i < scores.length; i++) best = Math.max(best, scores[i]!);
  const weights = Array.from(scores, (q) => Math.exp((epsilon * (q - best)) / (2 * sensitivity)));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}

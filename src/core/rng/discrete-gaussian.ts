import { bernoulliExpNegBig, bernoulliExpNegSafe } from './bernoulli-exp-neg';
import { makeDiscreteLaplaceSampler } from './discrete-laplace';
import { Rational } from './rational';
import type { Rng } from './types';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const BIG_MAX_SAFE = BigInt(MAX_SAFE);

/**
 * One draw of the discrete Gaussian on the integers, P(x) ∝ exp(−x²/(2σ²)), exactly.
 * For repeated draws use {@link makeDiscreteGaussianSampler}. Throws RangeError for σ² <= 0.
 */
export function sampleDiscreteGaussian(rng: Rng, sigma2: Rational): number {
  return makeDiscreteGaussianSampler(sigma2)(rng);
}

/**
 * A sampler of the discrete Gaussian N_Z(0, σ²): P(x) = exp(−x²/(2σ²)) / Σ_y exp(−y²/(2σ²)), x ∈ Z
 * (Canonne, Kamath & Steinke 2020, Definition 1; sampler §5.3, Algorithm 3). With t = ⌊σ⌋ + 1:
 * draw Y from the discrete Laplace with scale t and accept it with probability
 * exp(−(|Y| − σ²/t)² / (2σ²)); otherwise repeat. The expected number of Laplace draws per output
 * is 1/P(accept) ≈ 1.85 at σ² = 1, 1.41 at σ² = 2.5 and 1.33 at σ² = 100 (summing the acceptance
 * probability over the Laplace pmf), tending to about 1.3 for large σ.
 *
 * With σ² = a/b the acceptance exponent is the exact rational (|Y|·b·t − a)² / (2·a·b·t²), so all
 * arithmetic is on integers; JS numbers are used while they stay below 2^53, bigint beyond.
 * ⌊σ⌋ is computed exactly as the integer square root of ⌊σ²⌋.
 * Throws RangeError for σ² <= 0, or when a draw would exceed Number.MAX_SAFE_INTEGER.
 */
export function makeDiscreteGaussianSampler(sigma2: Rational): (rng: Rng) => number {
  if (!sigma2.isPositive()) {
    throw new RangeError(`discrete Gaussian: sigma2 must be > 0, got ${sigma2.toString()}`);
  }
  const a = sigma2.num;
  const b = sigma2.den;
  const t = integerSquareRoot(sigma2.floor()) + 1n;
  const laplace = makeDiscreteLaplaceSampler(Rational.of(t));
  const bt = b * t;
  const den = 2n * a * b * t * t;
  if (bt <= BIG_MAX_SAFE && a <= BIG_MAX_SAFE && den <= BIG_MAX_SAFE) {
    const btSafe = Number(bt);
    const aSafe = Number(a);
    const denSafe = Number(den);
    // (|Y|·b·t − a)² is exact while |diff| <= ⌊√(2^53 − 1)⌋ − 1.
    const largestSafeDiff = Math.floor(Math.sqrt(MAX_SAFE)) - 1;
    return (rng) => {
      for (;;) {
        const y = laplace(rng);
        const magnitude = Math.abs(y);
        // magnitude·b·t is exact when below 2^53 and rounds to >= 2^53 otherwise, so the test is exact.
        const scaled = magnitude * btSafe;
        const diff = scaled <= MAX_SAFE ? scaled - aSafe : Infinity;
        const accepted =
          Math.abs(diff) <= largestSafeDiff
            ? bernoulliExpNegSafe(rng, diff * diff, denSafe)
            : acceptBig(rng, BigInt(magnitude), a, bt, den);
        if (accepted) return y;
      }
    };
  }
  return (rng) => {
    for (;;) {
      const y = laplace(rng);
      if (acceptBig(rng, BigInt(Math.abs(y)), a, bt, den)) return y;
    }
  };
}

function acceptBig(rng: Rng, magnitude: bigint, a: bigint, bt: bigint, den: bigint): boolean {
  const diff = magnitude * bt - a;
  return bernoulliExpNegBig(rng, diff * diff, den);
}

/** ⌊√n⌋ for n >= 0 by Newton's iteration on integers (decreasing from an upper start, exact). */
export function integerSquareRoot(n: bigint): bigint {
  if (n < 0n) throw new RangeError(`integerSquareRoot: negative input ${n}`);
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const next = (x + n / x) >> 1n;
    if (next >= x) return x;
    x = next;
  }
}

import { choleskyLower } from '../linalg/cholesky';
import { invertLowerTriangular, multiply, multiplyByOwnTranspose, transpose } from '../linalg/small-matrix';
import { stdlibSamplersFor } from './stdlib-samplers';
import type { Rng } from './types';

/**
 * Wishart(df, Σ) on p×p symmetric positive definite matrices, E[W] = df·Σ, by the Bartlett
 * decomposition (Bartlett 1933; Smith & Hocking, "Algorithm AS 53: Wishart variate generator",
 * Applied Statistics 21(3), 1972): with Σ = L·Lᵀ (Cholesky) and A lower triangular with
 * A_ii = √χ²(df − i) (i = 0…p−1) and A_ij ~ N(0, 1) below the diagonal, W = (L·A)(L·A)ᵀ.
 * df may be any real number > p − 1. Cost O(p³) plus p(p+1)/2 draws.
 *
 * Throws RangeError when Σ is not symmetric positive definite or df <= p − 1.
 */
export function sampleWishart(rng: Rng, df: number, scale: number[][]): number[][] {
  const lower = choleskyLower(scale);
  checkDegreesOfFreedom('sampleWishart', df, scale.length);
  return multiplyByOwnTranspose(multiply(lower, sampleBartlettFactor(rng, df, scale.length)));
}

/**
 * Inverse-Wishart(df, Ψ): W⁻¹ for W ~ Wishart(df, Ψ⁻¹), so E[X] = Ψ/(df − p − 1) for df > p + 1
 * (Anderson, An Introduction to Multivariate Statistical Analysis, 3rd ed., §7.7).
 * With Ψ = R·Rᵀ, R⁻ᵀ is a square root of Ψ⁻¹, so W = R⁻ᵀ·A·Aᵀ·R⁻¹ and
 * W⁻¹ = (R·A⁻ᵀ)(R·A⁻ᵀ)ᵀ: no general matrix inversion is needed. Cost O(p³).
 *
 * Throws RangeError when Ψ is not symmetric positive definite or df <= p − 1.
 */
export function sampleInverseWishart(rng: Rng, df: number, scale: number[][]): number[][] {
  const lower = choleskyLower(scale);
  checkDegreesOfFreedom('sampleInverseWishart', df, scale.length);
  const bartlettInverse = invertLowerTriangular(sampleBartlettFactor(rng, df, scale.length));
  return multiplyByOwnTranspose(multiply(lower, transpose(bartlettInverse)));
}

/** The lower-triangular A of the Bartlett decomposition: A·Aᵀ ~ Wishart(df, I_p). */
function sampleBartlettFactor(rng: Rng, df: number, p: number): number[][] {
  const { gamma, normal } = stdlibSamplersFor(rng);
  const factor = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let i = 0; i < p; i++) {
    // χ²(ν) = Gamma(shape ν/2, rate 1/2).
    factor[i][i] = Math.sqrt(gamma((df - i) / 2, 0.5));
    for (let j = 0; j < i; j++) factor[i][j] = normal(0, 1);
  }
  return factor;
}

function checkDegreesOfFreedom(fn: string, df: number, p: number): void {
  if (!(Number.isFinite(df) && df > p - 1)) {
    throw new RangeError(`${fn}: df must be a finite number > p − 1 = ${p - 1}, got ${String(df)}`);
  }
}

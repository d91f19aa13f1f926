import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { choleskyLowerInPlace } from '../../linalg/cholesky';
import { FEATURE_GRID } from './plan';
import { randomFeatures, upperIndex, type NoisyMoments, type RandomFrequencies } from './random-features';

/** The released moments in feature units: Ã (D × D, symmetric, projected to PSD) and b̃ (D × C). */
export interface KipMoments {
  gram: Float64Array;
  cross: Float64Array;
  featureDimension: number;
  classes: number;
  /** n (public): the loss is taken per row so that α weighs comparable terms. */
  n: number;
}

/**
 * Post-processing of the noisy moments: A/B_φ² made symmetric and projected onto the PSD cone
 * (negative eigenvalues set to 0: the nearest PSD matrix in Frobenius norm, Higham 1988), b/B_φ.
 * A PSD Ã keeps the loss bounded below in β.
 */
export function kipMomentsFromRelease(released: NoisyMoments, n: number): KipMoments {
  const D = released.featureDimension;
  const scale = 1 / (FEATURE_GRID * FEATURE_GRID);
  const full = Matrix.zeros(D, D);
  for (let a = 0; a < D; a++) {
    for (let b = a; b < D; b++) {
      const value = released.gramUpper[upperIndex(a, b, D)]! * scale;
      full.set(a, b, value);
      full.set(b, a, value);
    }
  }
  const eig = new EigenvalueDecomposition(full, { assumeSymmetric: true });
  const values = eig.realEigenvalues.map((value) => Math.max(0, value));
  const vectors = eig.eigenvectorMatrix;
  const gram = new Float64Array(D * D);
  for (let a = 0; a < D; a++) {
    for (let b = a; b < D; b++) {
      let sum = 0;
      for (let k = 0; k < D; k++) sum += vectors.get(a, k) * values[k]! * vectors.get(b, k);
      gram[a * D + b] = sum;
      gram[b * D + a] = sum;
    }
  }
  const cross = Float64Array.from(released.cross, (value) => value / FEATURE_GRID);
  return { gram, cross, featureDimension: D, classes: released.classes, n };
}

/** The support set's fixed parts: one-hot classes Y_s, the starting centres X̃_s, α, λ. */
export interface KipProblem {
  /** Number of support points s and dimension d. */
  points: number;
  dimension: number;
  classOf: Uint32Array;
  start: Float64Array;
  alpha: number;
  ridge: number;
  frequencies: RandomFrequencies;
  moments: KipMoments;
}

/** Solves (L·Lᵀ)·X = Y in place for an s × s lower factor L and s × C right-hand sides. */
function solveWithLowerFactor(lower: Float64Array, s: number, rhs: Float64Array, columns: number): void {
  for (let c = 0; c < columns; c++) {
    for (let i = 0; i < s; i++) {
      let sum = rhs[i * columns + c]!;
      for (let k = 0; k < i; k++) sum -= lower[i * s + k]! * rhs[k * columns + c]!;
      rhs[i * columns + c] = sum / lower[i * s + i]!;
    }
    for (let i = s - 1; i >= 0; i--) {
      let sum = rhs[i * columns + c]!;
      for (let k = i + 1; k < s; k++) sum -= lower[k * s + i]! * rhs[k * columns + c]!;
      rhs[i * columns + c] = sum / lower[i * s + i]!;
    }
  }
}

/**
 * Eq. 5 with the kernel ridge regression loss of eq. 4 written through the released moments, per row:
 *   L(X) = α·‖X − X̃‖²/‖X̃‖² + (1 − α)·(1/n)·(½n − tr(βᵀb̃) + ½tr(βᵀÃβ)),
 *   β = Φᵀ(ΦΦᵀ + λI)⁻¹Y,  Φ = φ(X) (s × 2F),
 * since ½‖Y_t − Φ_tβ‖² = ½‖Y_t‖² − tr(βᵀΦ_tᵀY_t) + ½tr(βᵀΦ_tᵀΦ_tβ) and ‖Y_t‖² = n (one-hot).
 * Gradient (analytic): with G = ΦΦᵀ + λI, W = G⁻¹Y, R = Ãβ − b̃, U = G⁻¹ΦR,
 *   ∂/∂Φ = W Rᵀ − U WᵀΦ − W UᵀΦ, then through φ: ∂φ_cos,f/∂x = −F^(−½) sin(ω_fᵀx)·ω_f,
 *   ∂φ_sin,f/∂x = F^(−½) cos(ω_fᵀx)·ω_f. Writes the gradient into `gradient` when given.
 * Never sees the table: only the released moments and the released centres. Cost O(s²·F + s³ + s·d·F).
 */
export function kipLoss(problem: KipProblem, x: Float64Array, gradient?: Float64Array): number {
  const { points: s, dimension: d, frequencies, moments, alpha, ridge } = problem;
  const F = frequencies.features;
  const D = 2 * F;
  const C = moments.classes;
  const n = moments.n;
  const phi = new Float64Array(s * D);
  const row = new Float64Array(D);
  for (let i = 0; i < s; i++) {
    randomFeatures(x, i * d, frequencies, row);
    phi.set(row, i * D);
  }
  const g = new Float64Array(s * s);
  for (let i = 0; i < s; i++) {
    for (let k = 0; k <= i; k++) {
      let sum = 0;
      for (let a = 0; a < D; a++) sum += phi[i * D + a]! * phi[k * D + a]!;
      g[i * s + k] = sum + (i === k ? ridge : 0);
      g[k * s + i] = g[i * s + k]!;
    }
  }
  const lower = new Float64Array(s * s);
  if (!choleskyLowerInPlace(g, s, lower)) return Infinity;
  const w = new Float64Array(s * C);
  for (let i = 0; i < s; i++) w[i * C + problem.classOf[i]!] = 1;
  solveWithLowerFactor(lower, s, w, C);
  const beta = new Float64Array(D * C);
  for (let i = 0; i < s; i++)
    for (let a = 0; a < D; a++)
      for (let c = 0; c < C; c++) beta[a * C + c]! += phi[i * D + a]! * w[i * C + c]!;
  const residual = new Float64Array(D * C);
  let crossTerm = 0;
  let quadratic = 0;
  for (let a = 0; a < D; a++) {
    for (let c = 0; c < C; c++) {
      let sum = 0;
      for (let b = 0; b < D; b++) sum += moments.gram[a * D + b]! * beta[b * C + c]!;
      residual[a * C + c] = sum - moments.cross[a * C + c]!;
      quadratic += beta[a * C + c]! * sum;
      crossTerm += beta[a * C + c]! * moments.cross[a * C + c]!;
    }
  }
  let startNorm = 0;
  let distance = 0;
  for (let i = 0; i < s * d; i++) {
    startNorm += problem.start[i]! * problem.start[i]!;
    const diff = x[i]! - problem.start[i]!;
    distance += diff * diff;
  }
  startNorm = Math.max(startNorm, Number.MIN_VALUE);
  const krr = n / 2 - crossTerm + quadratic / 2;
  const loss = (alpha * distance) / startNorm + ((1 - alpha) * krr) / n;
  if (!gradient) return loss;
  // U = G⁻¹ Φ R (s × C)
  const u = new Float64Array(s * C);
  for (let i = 0; i < s; i++)
    for (let c = 0; c < C; c++) {
      let sum = 0;
      for (let a = 0; a < D; a++) sum += phi[i * D + a]! * residual[a * C + c]!;
      u[i * C + c] = sum;
    }
  solveWithLowerFactor(lower, s, u, C);
  // M = W Uᵀ + U Wᵀ (s × s, symmetric); ∂/∂Φ = W Rᵀ − M Φ
  const m = new Float64Array(s * s);
  for (let i = 0; i < s; i++)
    for (let k = 0; k < s; k++) {
      let sum = 0;
      for (let c = 0; c < C; c++) sum += w[i * C + c]! * u[k * C + c]! + u[i * C + c]! * w[k * C + c]!;
      m[i * s + k] = sum;
    }
  const krrWeight = (1 - alpha) / n;
  const distanceWeight = (2 * alpha) / startNorm;
  const omega = frequencies.omega;
  const dPhi = new Float64Array(D);
  for (let i = 0; i < s; i++) {
    for (let a = 0; a < D; a++) {
      let sum = 0;
      for (let c = 0; c < C; c++) sum += w[i * C + c]! * residual[a * C + c]!;
      for (let k = 0; k < s; k++) sum -= m[i * s + k]! * phi[k * D + a]!;
      dPhi[a] = sum;
    }
    for (let j = 0; j < d; j++)
      gradient[i * d + j] = distanceWeight * (x[i * d + j]! - problem.start[i * d + j]!);
    for (let f = 0; f < F; f++) {
      // φ_cos = scale·cos z, φ_sin = scale·sin z, so ∂z of (dPhi_cos·φ_cos + dPhi_sin·φ_sin) is
      // dPhi_cos·(−φ_sin) + dPhi_sin·φ_cos.
      const dz = krrWeight * (dPhi[f]! * -phi[i * D + F + f]! + dPhi[F + f]! * phi[i * D + f]!);
      if (dz === 0) continue;
      for (let j = 0; j < d; j++) gradient[i * d + j]! += dz * omega[f * d + j]!;
    }
  }
  return loss;
}

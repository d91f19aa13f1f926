import {
  applyQTranspose,
  householderQrWithLimitedPivoting,
  invertUpperTriangularR,
  LM_QR_TOLERANCE,
} from './householder-qr';

/** Ordinary least squares fit, in the shape of R's `lm` summary. Aliased coefficients are NaN. */
export interface LinearRegressionFit {
  /** β̂ per design column (NaN where aliased). */
  coefficients: Float64Array;
  /** √(σ̂² [(XᵀX)⁻¹]_jj) per design column (NaN where aliased or when the residual df is 0). */
  standardErrors: Float64Array;
  /** 1 where the column is linearly dependent on earlier columns (R reports NA). */
  aliased: Uint8Array;
  rank: number;
  /** n − rank. */
  residualDf: number;
  /** σ̂ = √(RSS / (n − rank)); NaN when the residual df is 0. */
  residualStandardError: number;
  residualSumOfSquares: number;
  fitted: Float64Array;
}

/**
 * Ordinary least squares by Householder QR: X P = Q R, β̂ = R⁻¹ (Qᵀy)[0:rank], RSS = ‖(Qᵀy)[rank:n]‖²,
 * σ̂² = RSS / (n − rank), Var(β̂) = σ̂² R⁻¹ R⁻ᵀ (Golub & Van Loan, Matrix Computations, 4th ed., §5.3.3;
 * the method of R's `lm.fit`). Collinear columns are detected with R's limited pivoting and tolerance
 * 1e−7 and reported as aliased (NaN), as `lm` reports NA.
 *
 * X is row-major n × p (include the intercept column yourself). Throws RangeError for n = 0 or a size
 * mismatch. Cost O(n p²).
 * Example: X = [[1, 0], [1, 1], [1, 2]], y = [1, 3, 5] → coefficients [1, 2], residualDf 1, RSS 0.
 */
export function fitLinearRegression(
  xRowMajor: Float64Array,
  n: number,
  p: number,
  y: Float64Array,
  opts?: { tolerance?: number },
): LinearRegressionFit {
  if (n === 0) throw new RangeError('Linear regression needs at least one row.');
  if (y.length !== n) throw new RangeError(`response has ${y.length} values, expected ${n}`);
  const qr = householderQrWithLimitedPivoting(xRowMajor, n, p, opts?.tolerance ?? LM_QR_TOLERANCE);
  const { rank, pivot } = qr;
  const qty = Float64Array.from(y);
  applyQTranspose(qr, qty);
  let residualSumOfSquares = 0;
  for (let i = rank; i < n; i++) residualSumOfSquares += qty[i]! * qty[i]!;
  const rInverse = invertUpperTriangularR(qr);
  const coefficients = new Float64Array(p).fill(NaN);
  const standardErrors = new Float64Array(p).fill(NaN);
  const aliased = new Uint8Array(p).fill(1);
  const residualDf = n - rank;
  const sigma = residualDf > 0 ? Math.sqrt(residualSumOfSquares / residualDf) : NaN;
  for (let k = 0; k < rank; k++) {
    let estimate = 0;
    let varianceFactor = 0;
    for (let l = k; l < rank; l++) {
      estimate += rInverse[k * rank + l]! * qty[l]!;
      varianceFactor += rInverse[k * rank + l]! ** 2;
    }
    const column = pivot[k]!;
    coefficients[column] = estimate;
    standardErrors[column] = sigma * Math.sqrt(varianceFactor);
    aliased[column] = 0;
  }
  const fitted = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let value = 0;
    for (let j = 0; j < p; j++) if (aliased[j] === 0) value += xRowMajor[i * p + j]! * coefficients[j]!;
    fitted[i] = value;
  }
  return {
    coefficients,
    standardErrors,
    aliased,
    rank,
    residualDf,
    residualStandardError: sigma,
    residualSumOfSquares,
    fitted,
  };
}

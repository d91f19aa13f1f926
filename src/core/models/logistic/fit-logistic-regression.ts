import { inverseOfCrossProduct, limitedPivotQr, solveLeastSquares } from './limited-pivot-qr';

export interface LogisticRegressionOptions {
  /**
   * L2 penalty λ added to the log-likelihood as −λ/2·Σβ_j² over every column but column 0 (the
   * intercept); a small value keeps estimates finite under separation. 0 (default) = plain MLE,
   * as R's glm.
   */
  ridge?: number;
  /** IRLS iterations at most (default 200, synthpop's maxit). */
  maxIter?: number;
  /** Convergence tolerance on the deviance (default 1e-8, R's glm.control default). */
  epsilon?: number;
}

export interface LogisticRegressionFit {
  /** One per design column; NaN where aliased (R: NA). */
  coefficients: Float64Array;
  /** sqrt of the diagonal of (XᵀWX)⁻¹ at the last IRLS step; NaN where aliased. */
  standardErrors: Float64Array;
  aliased: boolean[];
  /** Number of identified coefficients (intercept included): R's sum(!is.na(coef)). */
  rank: number;
  /** Fitted probabilities P(y = 1 | x_i). */
  fitted: Float64Array;
  converged: boolean;
  iterations: number;
  /** Binomial deviance −2 Σ log-likelihood at the fitted values. */
  deviance: number;
  /** Fitted probabilities within 1e-8 of 0 or 1: (quasi-)separation, the MLE does not exist. */
  nExtreme: number;
}

const DBL_EPSILON = 2.220446049250313e-16;
const ETA_LIMIT = 30;

/** R's binomial()$linkinv (C logit_linkinv): exp(η) clamped to [ε, 1/ε] outside |η| <= 30. */
function logitInverse(eta: number): number {
  const t = eta < -ETA_LIMIT ? DBL_EPSILON : eta > ETA_LIMIT ? 1 / DBL_EPSILON : Math.exp(eta);
  return t / (1 + t);
}

/** R's binomial()$mu.eta (C logit_mu_eta): dμ/dη = e^η/(1+e^η)², ε outside |η| <= 30. */
function logitDerivative(eta: number): number {
  if (eta > ETA_LIMIT || eta < -ETA_LIMIT) return DBL_EPSILON;
  const e = Math.exp(eta);
  const onePlus = 1 + e;
  return e / (onePlus * onePlus);
}

function yLogY(y: number, mu: number): number {
  return y > 0 ? y * Math.log(y / mu) : 0;
}

/** Binomial deviance 2 Σ [y log(y/μ) + (1−y) log((1−y)/(1−μ))] (R binomial()$dev.resids). */
function binomialDeviance(y: ArrayLike<number>, mu: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < mu.length; i++) sum += 2 * (yLogY(y[i]!, mu[i]!) + yLogY(1 - y[i]!, 1 - mu[i]!));
  return sum;
}

/**
 * Logistic regression by iteratively reweighted least squares, following R's glm.fit
 * (McCullagh & Nelder 1989, §2.5; R source stats::glm.fit):
 * start μ = (y + 0.5)/2, η = logit μ; each step solves the weighted least-squares problem
 * min Σ w_i (z_i − x_iᵀβ)² with z = η + (y − μ)/μ'(η), w = μ'(η)²/(μ(1−μ)), by Householder QR
 * with R's limited pivoting and tolerance min(1e-7, ε/1000) (aliased columns dropped, NaN
 * coefficient); stops when |dev − dev_old| / (|dev| + 0.1) < ε.
 * Standard errors: sqrt diag (XᵀWX)⁻¹ (dispersion 1) from the last step's R factor.
 *
 * X is row-major n × p and should include the intercept column. y values in [0, 1].
 * Throws a RangeError for mismatched sizes. Cost: O(n p²) per iteration.
 */
export function fitLogisticRegression(
  X: Float64Array,
  n: number,
  p: number,
  y: ArrayLike<number>,
  options: LogisticRegressionOptions = {},
): LogisticRegressionFit {
  if (X.length < n * p)
    throw new RangeError(`fitLogisticRegression: X has ${X.length} entries, n·p = ${n * p}`);
  if (y.length < n) throw new RangeError('fitLogisticRegression: y is shorter than n');
  const ridge = options.ridge ?? 0;
  const maxIter = options.maxIter ?? 200;
  const epsilon = options.epsilon ?? 1e-8;
  const tol = Math.min(1e-7, epsilon / 1000);
  const extraRows = ridge > 0 ? Math.max(p - 1, 0) : 0;
  const rows = n + extraRows;
  const ridgeScale = Math.sqrt(ridge);

  const mu = new Float64Array(n);
  const eta = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    mu[i] = (y[i]! + 0.5) / 2;
    eta[i] = Math.log(mu[i]! / (1 - mu[i]!));
  }
  let devOld = binomialDeviance(y, mu);
  let deviance = devOld;
  const beta = new Float64Array(p);
  const weighted = new Float64Array(rows * p);
  const response = new Float64Array(rows);
  let qr = limitedPivotQr(new Float64Array(0), 0, 0, tol);
  let converged = false;
  let iterations = 0;

  for (let iter = 1; iter <= maxIter; iter++) {
    iterations = iter;
    weighted.fill(0);
    response.fill(0);
    for (let i = 0; i < n; i++) {
      const derivative = logitDerivative(eta[i]!);
      const variance = mu[i]! * (1 - mu[i]!);
      const z = eta[i]! + (y[i]! - mu[i]!) / derivative;
      const w = Math.sqrt((derivative * derivative) / variance);
      response[i] = z * w;
      for (let j = 0; j < p; j++) weighted[j * rows + i] = X[i * p + j]! * w;
    }
    for (let j = 1; j < p && extraRows > 0; j++) weighted[j * rows + n + (j - 1)] = ridgeScale;
    qr = limitedPivotQr(weighted, rows, p, tol);
    const solution = solveLeastSquares(qr, response);
    beta.fill(0);
    for (let j = 0; j < qr.rank; j++) beta[qr.pivot[j]!] = solution[j]!;
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let j = 0; j < p; j++) sum += X[i * p + j]! * beta[j]!;
      eta[i] = sum;
      mu[i] = logitInverse(sum);
    }
    deviance = binomialDeviance(y, mu);
    let penalised = deviance;
    if (ridge > 0) for (let j = 1; j < p; j++) penalised += ridge * beta[j]! * beta[j]!;
    if (Math.abs(penalised - devOld) / (Math.abs(penalised) + 0.1) < epsilon) {
      converged = true;
      break;
    }
    devOld = penalised;
  }

  const aliased = new Array<boolean>(p).fill(true);
  for (let j = 0; j < qr.rank; j++) aliased[qr.pivot[j]!] = false;
  const coefficients = new Float64Array(p).fill(NaN);
  const standardErrors = new Float64Array(p).fill(NaN);
  const covariance = inverseOfCrossProduct(qr);
  for (let j = 0; j < qr.rank; j++) {
    const column = qr.pivot[j]!;
    coefficients[column] = beta[column]!;
    standardErrors[column] = Math.sqrt(covariance[j * qr.rank + j]!);
  }
  let nExtreme = 0;
  for (let i = 0; i < n; i++) if (mu[i]! < 1e-8 || mu[i]! > 1 - 1e-8) nExtreme++;
  return {
    coefficients,
    standardErrors,
    aliased,
    rank: qr.rank,
    fitted: mu,
    converged,
    iterations,
    deviance,
    nExtreme,
  };
}

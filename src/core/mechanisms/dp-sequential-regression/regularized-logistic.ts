import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../types';
import { lossSmoothness } from './sensitivity';

/**
 * A multinomial logistic regression problem: n rows of d predictors (row-major, every row of
 * Euclidean norm <= 1) and a class y_i ∈ {0, …, K − 1} per row; class 0 is the reference, so the
 * coefficients are K − 1 vectors β_1 … β_{K−1} of length d, stored β[(k − 1)·d + j]. With K = 2 it is
 * the binary logistic regression of Chaudhuri & Monteleoni (2009). A row with y_i >= K (a missing
 * response) adds no loss; the mean still divides by the public n, so replacing a row still changes at
 * most one term (sensitivity.ts).
 */
export interface LogisticProblem {
  n: number;
  d: number;
  classes: number;
  x: Float64Array;
  y: Uint32Array;
}

/** Per-row class probabilities of the non-reference classes into `probabilities` (length K − 1); returns nothing. */
function classProbabilities(
  beta: Float64Array,
  x: Float64Array,
  offset: number,
  d: number,
  classes: number,
  probabilities: Float64Array,
): void {
  let largest = 0;
  for (let k = 1; k < classes; k++) {
    let s = 0;
    const base = (k - 1) * d;
    for (let j = 0; j < d; j++) s += beta[base + j]! * x[offset + j]!;
    probabilities[k - 1] = s;
    if (s > largest) largest = s;
  }
  let total = Math.exp(-largest);
  for (let k = 0; k < classes - 1; k++) {
    const e = Math.exp(probabilities[k]! - largest);
    probabilities[k] = e;
    total += e;
  }
  for (let k = 0; k < classes - 1; k++) probabilities[k] = probabilities[k]! / total;
}

/**
 * J(β) = (1/n)·Σ_i [−s_{y_i} + log Σ_k e^{s_k}] + (λ/2)‖β‖², the regularised multinomial logistic loss
 * (Chaudhuri & Monteleoni 2009, eq. 1, for K = 2). Cost O(n·d·K).
 */
export function regularizedLoss(problem: LogisticProblem, lambda: number, beta: Float64Array): number {
  const { n, d, classes, x, y } = problem;
  let total = 0;
  for (let i = 0; i < n; i++) {
    let largest = 0;
    const scores = new Float64Array(classes);
    for (let k = 1; k < classes; k++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += beta[(k - 1) * d + j]! * x[i * d + j]!;
      scores[k] = s;
      if (s > largest) largest = s;
    }
    let sum = 0;
    for (let k = 0; k < classes; k++) sum += Math.exp(scores[k]! - largest);
    if (y[i]! < classes) total += largest + Math.log(sum) - scores[y[i]!]!;
  }
  let norm = 0;
  for (const b of beta) norm += b * b;
  return total / n + (lambda / 2) * norm;
}

/** ∇J(β) into `gradient`: (1/n)·Σ_i (p_ik − 1[y_i = k])·x_i + λβ_k. Cost O(n·d·K). */
export function regularizedGradient(
  problem: LogisticProblem,
  lambda: number,
  beta: Float64Array,
  gradient: Float64Array,
): void {
  const { n, d, classes, x, y } = problem;
  gradient.fill(0);
  const probabilities = new Float64Array(classes - 1);
  for (let i = 0; i < n; i++) {
    if (y[i]! >= classes) continue;
    const offset = i * d;
    classProbabilities(beta, x, offset, d, classes, probabilities);
    for (let k = 1; k < classes; k++) {
      const residual = probabilities[k - 1]! - (y[i] === k ? 1 : 0);
      if (residual === 0) continue;
      const base = (k - 1) * d;
      for (let j = 0; j < d; j++) gradient[base + j] += residual * x[offset + j]!;
    }
  }
  for (let c = 0; c < gradient.length; c++) gradient[c] = gradient[c]! / n + lambda * beta[c]!;
}

/**
 * β_T after exactly `iterations` steps of Nesterov's accelerated gradient method from β_0 = 0 (see
 * iterationsForGap): deterministic, and the number of steps does not depend on the data. Checks
 * `signal` and reports each finished step to `onIteration`. Cost O(T·n·d·K).
 */
export function fitRegularizedLogistic(
  problem: LogisticProblem,
  lambda: number,
  iterations: number,
  signal?: AbortSignalLike,
  onIteration?: (done: number, total: number) => void,
): Float64Array {
  const size = (problem.classes - 1) * problem.d;
  const smoothness = lambda + lossSmoothness(problem.classes);
  const momentum = (Math.sqrt(smoothness) - Math.sqrt(lambda)) / (Math.sqrt(smoothness) + Math.sqrt(lambda));
  let current = new Float64Array(size);
  let previous = new Float64Array(size);
  const look = new Float64Array(size);
  const gradient = new Float64Array(size);
  for (let t = 0; t < iterations; t++) {
    if (signal) throwIfAborted(signal);
    for (let c = 0; c < size; c++) look[c] = current[c]! + momentum * (current[c]! - previous[c]!);
    regularizedGradient(problem, lambda, look, gradient);
    const next = previous;
    for (let c = 0; c < size; c++) next[c] = look[c]! - gradient[c]! / smoothness;
    previous = current;
    current = next;
    onIteration?.(t + 1, iterations);
  }
  return current;
}

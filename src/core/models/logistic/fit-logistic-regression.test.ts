import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { fitLogisticRegression } from './fit-logistic-regression';

const x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const z = [0.5, -1, 2, 0, 1.5, -0.5, 1, 3, -2, 0.25, 1, -1];
const y = [0, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1];

function rowMajor(columns: number[][]): Float64Array {
  const n = columns[0]!.length;
  const p = columns.length;
  const out = new Float64Array(n * p);
  for (let i = 0; i < n; i++) for (let j = 0; j < p; j++) out[i * p + j] = columns[j]![i]!;
  return out;
}
const ones = x.map(() => 1);

describe('fitLogisticRegression reproduces R glm', () => {
  it('coefficients, standard errors and deviance (tight convergence)', () => {
    // R 4.2.2: f <- glm(y ~ x + z, family = binomial(), control = glm.control(epsilon = 1e-14, maxit = 100))
    // sprintf("%.15g", coef(f)); sqrt(diag(vcov(f))); f$deviance; f$iter
    const fit = fitLogisticRegression(rowMajor([ones, x, z]), 12, 3, y, { epsilon: 1e-14, maxIter: 100 });
    const coefficients = [-0.378457660157301, 0.156058153698853, -1.56756688859712];
    const standardErrors = [1.58294059548482, 0.226789382807788, 0.936718209254785];
    coefficients.forEach((value, j) => expect(fit.coefficients[j]).toBeCloseTo(value, 10));
    standardErrors.forEach((value, j) => expect(fit.standardErrors[j]).toBeCloseTo(value, 8));
    expect(fit.deviance).toBeCloseTo(10.1884686631765, 10);
    expect(fit.iterations).toBe(6);
    expect(fit.converged).toBe(true);
    expect(fit.rank).toBe(3);
    expect(fit.nExtreme).toBe(0);
  });

  it('stops where glm stops with the default epsilon 1e-8 and drops an aliased column as glm does', () => {
    // R: f <- glm(y ~ x + I(2*x) + z, family = binomial()); coef(f); f$iter
    // → -0.378457659657913, 0.156058153541128, NA, -1.56756688718164; 5 iterations
    const fit = fitLogisticRegression(rowMajor([ones, x, x.map((v) => 2 * v), z]), 12, 4, y);
    expect(fit.iterations).toBe(5);
    expect(fit.rank).toBe(3);
    expect(fit.aliased).toEqual([false, false, true, false]);
    expect(Number.isNaN(fit.coefficients[2]!)).toBe(true);
    expect(fit.coefficients[0]).toBeCloseTo(-0.378457659657913, 12);
    expect(fit.coefficients[1]).toBeCloseTo(0.156058153541128, 12);
    expect(fit.coefficients[3]).toBeCloseTo(-1.56756688718164, 12);
  });

  it('flags separation (n_extreme) and keeps estimates finite with a small ridge', () => {
    const xs = [1, 2, 3, 4, 5, 6];
    const ys = [0, 0, 0, 1, 1, 1];
    const design = rowMajor([xs.map(() => 1), xs]);
    const plain = fitLogisticRegression(design, 6, 2, ys, { maxIter: 50 });
    expect(plain.nExtreme).toBeGreaterThan(0);
    const ridged = fitLogisticRegression(design, 6, 2, ys, { ridge: 0.1 });
    expect(ridged.converged).toBe(true);
    expect(ridged.nExtreme).toBe(0);
    expect(Math.abs(ridged.coefficients[1]!)).toBeLessThan(10);
    // The penalised slope solves the score equation Σ (y − μ) x = λ β.
    let score = 0;
    xs.forEach((v, i) => (score += (ys[i]! - ridged.fitted[i]!) * v));
    expect(score).toBeCloseTo(0.1 * ridged.coefficients[1]!, 6);
  });

  it('recovers known coefficients from a large simulated sample (within 4 standard errors)', () => {
    const rng = new SeededRng(3);
    const n = 4000;
    const u = Array.from({ length: n }, () => rng.nextFloat() * 4 - 2);
    const labels = u.map((v) => (rng.nextFloat() < 1 / (1 + Math.exp(-(0.5 - 1.2 * v))) ? 1 : 0));
    const fit = fitLogisticRegression(rowMajor([u.map(() => 1), u]), n, 2, labels);
    expect(Math.abs(fit.coefficients[0]! - 0.5)).toBeLessThan(4 * fit.standardErrors[0]!);
    expect(Math.abs(fit.coefficients[1]! + 1.2)).toBeLessThan(4 * fit.standardErrors[1]!);
  });
});

import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { projectOntoScaledSimplex } from './simplex-projection';

/**
 * The same projection solved exactly, independently of the bisection: g(λ) = Σ max(0, y_l − λ/w_l)
 * is piecewise linear with breakpoints b_l = w_l·y_l. With the breakpoints sorted from the largest,
 * the first k levels are active on [b_(k+1), b_(k)], where g(λ) = total gives
 * λ_k = (Σ_active y_l − total) / Σ_active 1/w_l; the answer is the k whose λ_k lies in its interval.
 */
function exactProjection(y: number[], w: number[], total: number): number[] {
  const order = y.map((_, l) => l).sort((a, b) => w[b]! * y[b]! - w[a]! * y[a]!);
  let sumY = 0;
  let sumInverseW = 0;
  for (let k = 0; k < order.length; k++) {
    const l = order[k]!;
    sumY += y[l]!;
    sumInverseW += 1 / w[l]!;
    const lambda = (sumY - total) / sumInverseW;
    const next = k + 1 < order.length ? w[order[k + 1]!]! * y[order[k + 1]!]! : -Infinity;
    if (lambda >= next) return y.map((v, i) => Math.max(0, v - lambda / w[i]!));
  }
  throw new Error('unreachable: λ below every breakpoint');
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < actual.length; i++)
    expect(
      Math.abs(actual[i]! - expected[i]!),
      `cell ${i}: ${actual[i]} vs ${expected[i]}`,
    ).toBeLessThanOrEqual(tolerance);
}

describe('projectOntoScaledSimplex', () => {
  it('raises every value equally when the Euclidean projection needs a negative λ', () => {
    // Duchi et al. 2008: y = (0.5, 0.2, −0.1), total 1 → all three active, λ = (0.6 − 1)/3 = −2/15.
    const x = projectOntoScaledSimplex(Float64Array.of(0.5, 0.2, -0.1), Float64Array.of(1, 1, 1), 1);
    expectClose(x, [0.5 + 2 / 15, 0.2 + 2 / 15, -0.1 + 2 / 15], 1e-12);
  });

  it('keeps a single level at the total and sends a dominated level to 0', () => {
    expectClose(projectOntoScaledSimplex(Float64Array.of(-7), Float64Array.of(3), 4), [4], 1e-12);
    // y = (5, 0, 0), total 1: λ = 4, x = (1, 0, 0).
    expectClose(
      projectOntoScaledSimplex(Float64Array.of(5, 0, 0), Float64Array.of(1, 1, 1), 1),
      [1, 0, 0],
      1e-12,
    );
  });

  it('spreads the total evenly when rounding leaves no positive value', () => {
    // w·(y − total) and w·y are the same double for y = 1e20, total 1: the bracket is empty, every
    // x_l = y_l − λ/w_l is 0, and the even split is what is left.
    const x = projectOntoScaledSimplex(Float64Array.of(1e20, 1e20), Float64Array.of(1, 1), 1);
    expect(Array.from(x)).toEqual([0.5, 0.5]);
  });

  it('rescales away the rounding of λ when the values dwarf the total', () => {
    // y = (10¹², 10¹², 5·10¹¹), total 1/3: λ = 10¹² − 1/6 is not a double, and doubles near 10¹² are
    // 2^−13 ≈ 1.2e−4 apart, so y − λ read at the last bracket end is off by up to that much. Both
    // active values are equal, so after rescaling each is exactly half of the total.
    const x = projectOntoScaledSimplex(Float64Array.of(1e12, 1e12, 5e11), Float64Array.of(1, 1, 1), 1 / 3);
    expect(Array.from(x)).toEqual([1 / 6, 1 / 6, 0]);
  });

  it('matches the exact piecewise-linear solution for random weighted problems', () => {
    // Both solve the same KKT system; the bisection runs to neighbouring doubles, so 1e−9 of the
    // total is far above its rounding and far below any wrong λ.
    const rng = new SeededRng('simplex projection');
    for (let trial = 0; trial < 40; trial++) {
      const k = 1 + (trial % 6);
      const y = Array.from({ length: k }, () => 20 * (rng.nextFloat() - 0.4));
      const w = Array.from({ length: k }, () => 0.1 + 3 * rng.nextFloat());
      const total = 0.5 + 30 * rng.nextFloat();
      const x = projectOntoScaledSimplex(Float64Array.from(y), Float64Array.from(w), total);
      expectClose(x, exactProjection(y, w, total), 1e-9 * total);
      expect(Math.abs(x.reduce((a, b) => a + b, 0) - total)).toBeLessThanOrEqual(1e-12 * total);
      expect(x.every((v) => v >= 0)).toBe(true);
    }
  });
});

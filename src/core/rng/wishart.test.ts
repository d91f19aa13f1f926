import { describe, expect, it } from 'vitest';
import { regularizedGammaP, regularizedGammaQ } from '../stats/regularized-gamma';
import { SeededRng } from './seeded-rng';
import { choleskyLower } from '../linalg/cholesky';
import { fitContinuous, ksPowerMargin, linearGrid } from './testing/continuous-fit';
import { sampleInverseWishart, sampleWishart } from './wishart';

const ALPHA = 1e-6;
const SIGMA = [
  [2, 0.6, -0.3],
  [0.6, 1, 0.2],
  [-0.3, 0.2, 0.5],
];

/** Entry-wise means of R draws and the largest asymmetry seen. */
function averageOf(draw: () => number[][], reps: number): { mean: number[][]; asymmetry: number } {
  const mean = SIGMA.map((row) => row.map(() => 0));
  let asymmetry = 0;
  for (let r = 0; r < reps; r++) {
    const w = draw();
    choleskyLower(w); // throws unless symmetric positive definite
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        mean[i][j] += w[i][j] / reps;
        asymmetry = Math.max(asymmetry, Math.abs(w[i][j] - w[j][i]));
      }
    }
  }
  return { mean, asymmetry };
}

describe('sampleWishart (Bartlett decomposition)', () => {
  it('has E[W] = df·Σ (each entry within 5 sd of the mean of 20,000 draws)', () => {
    // Var W_ij = df(Σ_ij² + Σ_ii Σ_jj) (Anderson, An Introduction to Multivariate Statistical
    // Analysis, 3rd ed., Theorem 7.3.4 / eq. 7.3.16).
    const df = 7.5;
    const reps = 20_000;
    const rng = new SeededRng('wishart');
    const { mean, asymmetry } = averageOf(() => sampleWishart(rng, df, SIGMA), reps);
    expect(asymmetry).toBe(0);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const sd = Math.sqrt((df * (SIGMA[i][j] ** 2 + SIGMA[i][i] * SIGMA[j][j])) / reps);
        expect(Math.abs(mean[i][j] - df * SIGMA[i][j]), `entry ${i},${j}`).toBeLessThanOrEqual(5 * sd);
      }
    }
    // Power: df off by 10 % moves each diagonal mean by 0.1·df·Σ_ii, computed here to exceed 10 sd,
    // so the same 5-sd check rejects it whatever the seed; and it does for these draws.
    const sdOf = (i: number, j: number) =>
      Math.sqrt((df * (SIGMA[i][j] ** 2 + SIGMA[i][i] * SIGMA[j][j])) / reps);
    for (let i = 0; i < 3; i++) expect(0.1 * df * SIGMA[i][i]).toBeGreaterThan(10 * sdOf(i, i));
    const wrong = averageOf(() => sampleWishart(rng, df * 1.1, SIGMA), reps).mean;
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(wrong[i][i] - df * SIGMA[i][i]), `entry ${i},${i}`).toBeGreaterThan(5 * sdOf(i, i));
    }
  });

  it('reduces to σ²·χ²(df) in one dimension (Kolmogorov–Smirnov, α = 1e−6)', () => {
    const rng = new SeededRng('wishart 1d');
    const fit = fitContinuous(
      () => sampleWishart(rng, 4.5, [[3]])[0][0],
      30_000,
      (x) => (x <= 0 ? 0 : regularizedGammaP(4.5 / 2, x / (2 * 3))),
    );
    expect(fit.pValue, `D = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    // df × 1.3 moves the CDF by up to 0.18 (scipy chi2.cdf): √N·0.18 ≈ 31 >> 2·2.68.
    const wrong = fitContinuous(
      () => sampleWishart(rng, 4.5 * 1.3, [[3]])[0][0],
      30_000,
      (x) => (x <= 0 ? 0 : regularizedGammaP(4.5 / 2, x / (2 * 3))),
    );
    expect(wrong.pValue, `D = ${wrong.statistic}`).toBeLessThan(ALPHA);
    // df × 0.7: σ²·χ²(3.15); the power margin is computed from the two exact CDFs.
    const cdf = (x: number) => (x <= 0 ? 0 : regularizedGammaP(4.5 / 2, x / (2 * 3)));
    const smallerCdf = (x: number) => (x <= 0 ? 0 : regularizedGammaP((4.5 * 0.7) / 2, x / (2 * 3)));
    expect(ksPowerMargin(cdf, smallerCdf, linearGrid(0.01, 60, 1000), 30_000, ALPHA)).toBeGreaterThan(1.1);
    const smaller = fitContinuous(() => sampleWishart(rng, 4.5 * 0.7, [[3]])[0][0], 30_000, cdf);
    expect(smaller.pValue, `D = ${smaller.statistic}`).toBeLessThan(ALPHA);
  });

  it('validates df and the scale matrix', () => {
    const rng = new SeededRng(1);
    expect(() => sampleWishart(rng, 2, SIGMA)).toThrow(/df must be/);
    expect(() =>
      sampleWishart(rng, 5, [
        [1, 2],
        [2, 1],
      ]),
    ).toThrow(/positive definite/);
    expect(() =>
      sampleWishart(rng, 5, [
        [1, 0.5],
        [0, 1],
      ]),
    ).toThrow(/symmetric/);
    expect(() => sampleWishart(rng, 5, [[1, 0], [0]])).toThrow(/square/);
    // Any real df > p − 1 is accepted: here p = 2 and df = 1.5 (Bartlett's A_11 is then √χ²(0.5)).
    const identity = [
      [1, 0],
      [0, 1],
    ];
    for (const draw of [sampleWishart(rng, 1.5, identity), sampleInverseWishart(rng, 1.5, identity)]) {
      expect(draw[0]![0]!).toBeGreaterThan(0);
      expect(draw[1]![1]!).toBeGreaterThan(0);
      expect(draw[0]![1]).toBe(draw[1]![0]);
    }
  });
});

describe('sampleInverseWishart', () => {
  it('has E[X] = Ψ/(df − p − 1) (each entry within 5 sd of the mean of 20,000 draws)', () => {
    // Var X_ij = ((df−p+1)ψ_ij² + (df−p−1)ψ_ii ψ_jj) / ((df−p)(df−p−1)²(df−p−3)) (Press, Applied
    // Multivariate Analysis, 1982, §5.2; finite for df > p + 3).
    const df = 10;
    const p = 3;
    const reps = 20_000;
    const rng = new SeededRng('inverse wishart');
    const { mean, asymmetry } = averageOf(() => sampleInverseWishart(rng, df, SIGMA), reps);
    expect(asymmetry).toBe(0);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const variance =
          ((df - p + 1) * SIGMA[i][j] ** 2 + (df - p - 1) * SIGMA[i][i] * SIGMA[j][j]) /
          ((df - p) * (df - p - 1) ** 2 * (df - p - 3));
        const sd = Math.sqrt(variance / reps);
        expect(Math.abs(mean[i][j] - SIGMA[i][j] / (df - p - 1)), `entry ${i},${j}`).toBeLessThanOrEqual(
          5 * sd,
        );
      }
    }
  });

  it('reduces to inverse-gamma(df/2, ψ/2) in one dimension (Kolmogorov–Smirnov, α = 1e−6)', () => {
    const rng = new SeededRng('inverse wishart 1d');
    const cdf = (x: number) => (x <= 0 ? 0 : regularizedGammaQ(6 / 2, 2 / (2 * x)));
    const fit = fitContinuous(() => sampleInverseWishart(rng, 6, [[2]])[0][0], 30_000, cdf);
    expect(fit.pValue, `D = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    // ψ × 1.3 moves the CDF by up to 0.17 (scipy invgamma.cdf): √N·0.17 ≈ 30 >> 2·2.68.
    const wrong = fitContinuous(() => sampleInverseWishart(rng, 6, [[2 * 1.3]])[0][0], 30_000, cdf);
    expect(wrong.pValue, `D = ${wrong.statistic}`).toBeLessThan(ALPHA);
    // ψ × 0.7: inverse-gamma(3, 0.7); the power margin is computed from the two exact CDFs.
    const smallerCdf = (x: number) => (x <= 0 ? 0 : regularizedGammaQ(6 / 2, (2 * 0.7) / (2 * x)));
    expect(ksPowerMargin(cdf, smallerCdf, linearGrid(0.01, 10, 1000), 30_000, ALPHA)).toBeGreaterThan(1.1);
    const smaller = fitContinuous(() => sampleInverseWishart(rng, 6, [[2 * 0.7]])[0][0], 30_000, cdf);
    expect(smaller.pValue, `D = ${smaller.statistic}`).toBeLessThan(ALPHA);
  });
});

import { describe, expect, it } from 'vitest';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { chiSquareGoodnessOfFit } from '../../stats/chi-square-goodness-of-fit';
import { logGamma } from '../../stats/log-gamma';
import { mcclureReiterPrior, multinomialDirichletPrior } from './dirichlet-prior';
import { drawFromPriorAndBalls } from './polya-urn';

/** Dirichlet–multinomial pmf of the count in cell 0 of two cells: m draws, parameters (a0, a1). */
function betaBinomialPmf(k: number, m: number, a0: number, a1: number): number {
  const logChoose = logGamma(m + 1) - logGamma(k + 1) - logGamma(m - k + 1);
  return Math.exp(
    logChoose +
      logGamma(a0 + k) +
      logGamma(a1 + m - k) -
      logGamma(a0) -
      logGamma(a1) +
      logGamma(a0 + a1) -
      logGamma(a0 + a1 + m),
  );
}

describe('drawFromPriorAndBalls', () => {
  // Pearson's test at the 0.001 level: a correct sampler fails one seed in a thousand, and the seeds are fixed.
  it('without reinforcement draws each cell with probability (α + c_k)/(Kα + C)', () => {
    const rng = new SeededRng(11);
    const draws = drawFromPriorAndBalls(rng, {
      domainCells: 4,
      prior: Rational.of(1, 2),
      balls: { cells: [2, 0], counts: [3, 1] },
      draws: 40_000,
      reinforce: false,
    });
    const observed = [0, 0, 0, 0];
    for (const cell of draws) observed[cell]! += 1;
    // K α + C = 2 + 4 = 6: cell 0 has 0.5 + 1, cell 1 0.5, cell 2 0.5 + 3, cell 3 0.5.
    const expected = [1.5 / 6, 0.5 / 6, 3.5 / 6, 0.5 / 6];
    expect(chiSquareGoodnessOfFit(observed, expected).pValue).toBeGreaterThan(0.001);
  });

  it('with reinforcement gives Dirichlet–multinomial counts (beta-binomial for two cells)', () => {
    const rng = new SeededRng(12);
    const m = 6;
    const histogram = new Array<number>(m + 1).fill(0);
    const repetitions = 20_000;
    for (let r = 0; r < repetitions; r++) {
      const draws = drawFromPriorAndBalls(rng, {
        domainCells: 2,
        prior: Rational.of(1, 3),
        balls: { cells: [0], counts: [2] },
        draws: m,
        reinforce: true,
      });
      let inCellZero = 0;
      for (const cell of draws) if (cell === 0) inCellZero++;
      histogram[inCellZero]! += 1;
    }
    const expected = histogram.map((_, k) => betaBinomialPmf(k, m, 1 / 3 + 2, 1 / 3));
    expect(chiSquareGoodnessOfFit(histogram, expected).pValue).toBeGreaterThan(0.001);
    // A test that can fail: the same counts are far from the non-reinforced binomial.
    const p = (1 / 3 + 2) / (2 / 3 + 2);
    const binomial = histogram.map(
      (_, k) =>
        Math.exp(logGamma(m + 1) - logGamma(k + 1) - logGamma(m - k + 1)) * p ** k * (1 - p) ** (m - k),
    );
    expect(chiSquareGoodnessOfFit(histogram, binomial).pValue).toBeLessThan(1e-6);
  });

  it('draws its first row uniformly over the domain when there are no balls', () => {
    const rng = new SeededRng(13);
    const observed = [0, 0, 0, 0, 0];
    for (let r = 0; r < 10_000; r++) {
      const [first] = drawFromPriorAndBalls(rng, {
        domainCells: 5,
        prior: Rational.of(7),
        balls: { cells: [], counts: [] },
        draws: 3,
        reinforce: true,
      });
      observed[first!]! += 1;
    }
    expect(chiSquareGoodnessOfFit(observed, [0.2, 0.2, 0.2, 0.2, 0.2]).pValue).toBeGreaterThan(0.001);
  });

  it('uses the bigint path when the weights exceed 2^53 and still follows the weights', () => {
    const rng = new SeededRng(14);
    const huge = Rational.of(2n ** 60n + 1n, 3n);
    const draws = drawFromPriorAndBalls(rng, {
      domainCells: 2,
      prior: huge,
      balls: { cells: [0], counts: [5] },
      draws: 20_000,
      reinforce: false,
    });
    let zero = 0;
    for (const cell of draws) if (cell === 0) zero++;
    // The balls are negligible next to α ≈ 3.8e17: both cells 1/2; 4 SDs of a binomial proportion.
    expect(Math.abs(zero / 20_000 - 0.5)).toBeLessThan(4 * Math.sqrt(0.25 / 20_000));
  });

  it('refuses a fractional count and a non-positive prior', () => {
    const rng = new SeededRng(15);
    const base = { domainCells: 2, draws: 1, reinforce: false, balls: { cells: [0], counts: [0.5] } };
    expect(() => drawFromPriorAndBalls(rng, { ...base, prior: Rational.ONE })).toThrow(/whole number/);
    expect(() =>
      drawFromPriorAndBalls(rng, { ...base, balls: { cells: [], counts: [] }, prior: Rational.ZERO }),
    ).toThrow(/prior weight/);
  });
});

describe('prior weights', () => {
  it('Multinomial–Dirichlet: α = m/(e^ε − 1), rounded up onto the 2^−24 grid', () => {
    const alpha = multinomialDirichletPrior(100, Rational.ONE);
    const exact = 100 / Math.expm1(1);
    expect(alpha.toNumber()).toBeGreaterThanOrEqual(exact);
    expect(alpha.toNumber() - exact).toBeLessThan(2 ** -24 + 1e-9);
    expect(alpha.den <= 2n ** 24n).toBe(true);
  });

  it('McClure–Reiter: α = 1/(e^(ε/n) − 1), rounded up', () => {
    const alpha = mcclureReiterPrior(100, Rational.ONE);
    const exact = 1 / Math.expm1(1 / 100);
    expect(alpha.toNumber()).toBeGreaterThanOrEqual(exact);
    expect(alpha.toNumber() - exact).toBeLessThan(1e-6);
    // ε = n·log(1 + 1/α) recovers ε from below: the guarantee is not overstated.
    expect(100 * Math.log1p(1 / alpha.toNumber())).toBeLessThanOrEqual(1);
  });
});

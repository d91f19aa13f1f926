import { describe, expect, it } from 'vitest';
import { Rational } from './rational';
import { SeededRng } from './seeded-rng';
import { chiSquareGoodnessOfFit } from '../stats/chi-square-goodness-of-fit';
import { logGamma } from '../stats/log-gamma';
import { mcclureReiterPrior, multinomialDirichletPrior } from '../privacy/dirichlet-prior';
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

describe('drawFromPriorAndBalls: checks and exact paths', () => {
  const base = { prior: Rational.of(1, 2), balls: { cells: [0], counts: [1] }, draws: 3, reinforce: false };

  it('refuses a domain outside 1 to 2^32 cells, counts that are not whole numbers >= 0, and α <= 0', () => {
    const rng = new SeededRng(1);
    for (const K of [0, 1.5, 2 ** 32 + 1]) {
      expect(() => drawFromPriorAndBalls(rng, { ...base, domainCells: K })).toThrow(
        `urn: the domain must have 1 to 2^32 cells, got ${K}`,
      );
    }
    for (const count of [-1, 0.5]) {
      expect(() =>
        drawFromPriorAndBalls(rng, { ...base, domainCells: 4, balls: { cells: [0, 1], counts: [2, count] } }),
      ).toThrow(`urn: count ${count} is not a whole number >= 0`);
    }
    expect(() => drawFromPriorAndBalls(rng, { ...base, domainCells: 4, prior: Rational.ZERO })).toThrow(
      'urn: the prior weight must be > 0, got 0',
    );
  });

  it('accepts the edges: one cell, 2^32 cells, empty cells among the balls', () => {
    const rng = new SeededRng(2);
    expect(Array.from(drawFromPriorAndBalls(rng, { ...base, domainCells: 1 }))).toEqual([0, 0, 0]);
    const wide = drawFromPriorAndBalls(rng, { ...base, domainCells: 2 ** 32 });
    expect(wide).toHaveLength(3);
    const withEmpty = drawFromPriorAndBalls(rng, {
      ...base,
      domainCells: 4,
      prior: Rational.of(1, 10 ** 9),
      balls: { cells: [1, 3], counts: [0, 2] },
      draws: 20,
    });
    // P(a draw from the prior) = 4·10⁻⁹/(4·10⁻⁹ + 2) < 2.1·10⁻⁹, so all 20 come from cell 3's balls
    // except with probability below 5·10⁻⁸.
    expect(Array.from(withEmpty)).toEqual(new Array(20).fill(3));
  });

  it('draws the only weighted cell when the prior is negligible', () => {
    // P(any of 50 draws from the prior) <= 50 · 10/(10 + 3·10⁹) < 1.7·10⁻⁷.
    const draws = drawFromPriorAndBalls(new SeededRng(3), {
      domainCells: 10,
      prior: Rational.of(1, 10 ** 9),
      balls: { cells: [5], counts: [3] },
      draws: 50,
      reinforce: false,
    });
    expect(Array.from(draws)).toEqual(new Array(50).fill(5));
  });

  it('chooses prior or balls with the exact odds when the integers pass 2^53 (the bigint path)', () => {
    // α = 2^52/(2^52 + 1), K = 2, two balls in cell 1: K·a + b·C = 2^53 + 2·(2^52 + 1) > 2^53, so every
    // draw compares bigints. P(prior) = 2^52/(2^53 + 1) ≈ 1/2, so P(cell 0) = 1/4 − ε, P(cell 1) = 3/4 + ε.
    // Cell 0's count of 4,000 draws is binomial, mean 1,000, sd √(4000·¼·¾) = 27.4; ±6 sd = ±165
    // (two-sided α ≈ 2·10⁻⁹). Drawing the odds with b/C instead of b·C gives P(cell 0) = 0.4 (mean
    // 1,600), always from the prior 0.5 (mean 2,000): both far outside.
    const draws = drawFromPriorAndBalls(new SeededRng(4), {
      domainCells: 2,
      prior: Rational.of(2n ** 52n, 2n ** 52n + 1n),
      balls: { cells: [1], counts: [2] },
      draws: 4000,
      reinforce: false,
    });
    const zeros = draws.filter((cell) => cell === 0).length;
    expect(Math.abs(zeros - 1000), `cell 0 drawn ${zeros} times`).toBeLessThanOrEqual(165);
  });

  it('stops when aborted before the first draw', () => {
    expect(() =>
      drawFromPriorAndBalls(new SeededRng(5), {
        ...base,
        domainCells: 4,
        draws: 1,
        signal: { aborted: true },
      }),
    ).toThrow(expect.objectContaining({ name: 'AbortError' }));
  });
});

import { describe, expect, it } from 'vitest';
import { chiSquareGoodnessOfFit } from './chi-square-goodness-of-fit';

describe("Pearson's chi-square goodness of fit", () => {
  it('matches scipy.stats.chisquare', () => {
    // scipy 1.17: chisquare([48, 52], [50, 50]) → statistic 0.16, p 0.6891565167793516.
    const even = chiSquareGoodnessOfFit([48, 52], [0.5, 0.5]);
    expect(even.statistic).toBeCloseTo(0.16, 14);
    expect(even.degreesOfFreedom).toBe(1);
    expect(Math.abs(even.pValue - 0.6891565167793516)).toBeLessThan(1e-13);
    // chisquare([16, 18, 16, 14, 12, 12], [16, 16, 16, 16, 16, 8]) → 3.5, p 0.6233876277495822.
    const uneven = chiSquareGoodnessOfFit(
      [16, 18, 16, 14, 12, 12],
      [16, 16, 16, 16, 16, 8].map((e) => e / 88),
    );
    expect(uneven.statistic).toBeCloseTo(3.5, 13);
    expect(Math.abs(uneven.pValue - 0.6233876277495822)).toBeLessThan(1e-13);
  });

  it('pools ordered cells until each expects at least 5, folding a short last group back', () => {
    // n = 100, probabilities → expected [1, 2, 3, 44, 46, 2, 1, 1]: groups {1,2,3}, {44}, {46, 2, 1, 1}.
    const probabilities = [0.01, 0.02, 0.03, 0.44, 0.46, 0.02, 0.01, 0.01];
    const observed = [0, 4, 2, 40, 50, 1, 2, 1];
    const fit = chiSquareGoodnessOfFit(observed, probabilities);
    expect(fit.cells).toBe(3);
    const expected = (6 - 6) ** 2 / 6 + (40 - 44) ** 2 / 44 + (54 - 50) ** 2 / 50;
    expect(fit.statistic).toBeCloseTo(expected, 14);
    expect(fit.degreesOfFreedom).toBe(2);
  });

  it('rejects mismatched or invalid input', () => {
    expect(() => chiSquareGoodnessOfFit([1, 2], [1])).toThrow(/2 observed cells but 1/);
    expect(() => chiSquareGoodnessOfFit([1, 2], [0.5, 0.6])).toThrow(/sum to/);
    expect(() => chiSquareGoodnessOfFit([1, 2], [-0.5, 1.5])).toThrow(RangeError);
    expect(() => chiSquareGoodnessOfFit([3, 3], [0.5, 0.5])).toThrow(/only 1 cell/);
  });
});

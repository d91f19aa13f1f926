import { describe, expect, it } from 'vitest';
import { clopperPearsonLower, clopperPearsonUpper, epsilonLowerBound } from './clopper-pearson';

describe('one-sided Clopper–Pearson bounds', () => {
  it('match the closed forms at k = 0 and k = N', () => {
    expect(clopperPearsonUpper(0, 50_000, 1e-6)).toBeCloseTo(1 - 1e-6 ** (1 / 50_000), 12);
    expect(clopperPearsonLower(50_000, 50_000, 1e-6)).toBeCloseTo(1e-6 ** (1 / 50_000), 12);
    expect(clopperPearsonLower(0, 10, 0.05)).toBe(0);
    expect(clopperPearsonUpper(10, 10, 0.05)).toBe(1);
  });

  it("match R's binom.test(5, 10) interval, each side at α = 0.025", () => {
    // scipy: beta.ppf(0.025, 5, 6) = 0.18708602844739855; beta.ppf(0.975, 6, 5) = 0.8129139715526015
    // (binom.test(5, 10)$conf.int in R prints 0.187086 0.812914).
    expect(clopperPearsonLower(5, 10, 0.025)).toBeCloseTo(0.18708602844739855, 10);
    expect(clopperPearsonUpper(5, 10, 0.025)).toBeCloseTo(0.8129139715526015, 10);
  });

  it('match scipy at the sizes of the empirical privacy test', () => {
    // scipy: beta.ppf(1e-6, 19375, 30626) = 0.37716944141985764; beta.ppf(1 - 1e-6, 7126, 42875) = 0.1500508099903835
    expect(clopperPearsonLower(19_375, 50_000, 1e-6)).toBeCloseTo(0.37716944141985764, 9);
    expect(clopperPearsonUpper(7_125, 50_000, 1e-6)).toBeCloseTo(0.1500508099903835, 9);
    expect(epsilonLowerBound(19_375, 7_125, 50_000, 1e-6)).toBeCloseTo(
      Math.log(0.37716944141985764 / 0.1500508099903835),
      8,
    );
  });

  it('gives −Infinity for an event never seen on the first side', () => {
    expect(epsilonLowerBound(0, 10, 100, 1e-6)).toBe(-Infinity);
  });
});

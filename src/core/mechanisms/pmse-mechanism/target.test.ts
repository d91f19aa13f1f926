import { describe, expect, it } from 'vitest';
import { publicWarnings } from './diagnostics';
import {
  exponentialMechanismLogWeight,
  FLAT_PRIOR_VARIANCE,
  logFlatPrior,
  pmseLogTarget,
  pmseSensitivity,
  provenPmseSensitivity,
  qualitySensitivity,
} from './target';

describe('pMSE mechanism log target', () => {
  it('uses the proven Δu = 1/(2n) for exact searches and the paper’s 1/n (Theorem 2) for greedy trees', () => {
    expect(pmseSensitivity(5000)).toBe(1 / 5000);
    expect(provenPmseSensitivity(5000)).toBe(1 / 10000);
    expect(qualitySensitivity({ kind: 'grid-tree', depth: 2, gridSize: 32 }, 5000)).toBe(1 / 10000);
    expect(qualitySensitivity({ kind: 'exhaustive-stump' }, 5000)).toBe(1 / 10000);
    const greedy = { maxDepth: 5, minSplit: 20, minBucket: 7, cp: 0.01 };
    expect(qualitySensitivity({ kind: 'greedy-tree', tree: greedy }, 5000)).toBe(1 / 5000);
  });

  it('weights u by −ε/(2Δu): u = 0.01, ε = 1, n = 5000 → −25', () => {
    expect(exponentialMechanismLogWeight(0.01, 1, 1 / 5000)).toBeCloseTo(-25, 12);
  });

  it('adds the N(0, 10⁵) prior (variance 10⁵) to every coordinate', () => {
    expect(FLAT_PRIOR_VARIANCE).toBe(100_000);
    // R 4.2.2: dnorm(0, 0, sqrt(1e5), log = TRUE) = -6.67540126568979.
    expect(logFlatPrior([0])).toBeCloseTo(-6.67540126568979, 12);
    // R: dnorm(sqrt(1e5), 0, sqrt(1e5), log = TRUE) = -7.17540126568979 (one standard deviation out).
    expect(logFlatPrior([Math.sqrt(1e5)])).toBeCloseTo(-7.17540126568979, 12);
  });

  it('sums weight and prior: u = 0.02, ε = 0.1, n = 5000, θ = (1, −2)', () => {
    const expected = -0.1 * 5000 * 0.02 * 0.5 + (-(1 + 4) / 2e5 - Math.log(2 * Math.PI * 1e5));
    expect(pmseLogTarget(0.02, 0.1, 5000, [1, -2])).toBeCloseTo(expected, 12);
    // R: sum(dnorm(c(1, -2), 0, sqrt(1e5), log = TRUE)) - 0.1 * 5000 * 0.02 / 2 = -18.3508275313796.
    expect(pmseLogTarget(0.02, 0.1, 5000, [1, -2])).toBeCloseTo(-18.3508275313796, 12);
  });

  it('makes an exp(ε) odds change when u moves by the sensitivity', () => {
    const n = 1000;
    const epsilon = 0.7;
    const theta = [0.3];
    const difference =
      pmseLogTarget(0.05, epsilon, n, theta) - pmseLogTarget(0.05 + 1 / n, epsilon, n, theta);
    expect(difference).toBeCloseTo(epsilon / 2, 12);
  });
});

describe('public concentration warning', () => {
  it('warns when ε/(2lΔu) is below 100 and is silent above', () => {
    // Greedy trees (Δu = 1/n), ε = 0.25 over 10 releases, n = 5000: ε·n/(2l) = 62.5, ratio ≤ e^15.6.
    const [warning] = publicWarnings(0.025, 5000, 1 / 5000);
    expect(warning).toMatch(/at most a factor e\^15\.6/);
    expect(warning).toMatch(/ε·n\/\(2·releases\) is 62\.5; aim for 100 or more/);
    expect(publicWarnings(0.05, 5000, 1 / 5000)).toEqual([]);
    // Proven Δu = 1/(2n): the same ε/l gives twice the scale, ε·n/l = 125: no warning.
    expect(publicWarnings(0.025, 5000, 1 / 10000)).toEqual([]);
    const [proven] = publicWarnings(0.015, 5000, 1 / 10000);
    expect(proven).toMatch(/ε·n\/releases is 75\.0; aim for 100/);
    // The per-release ε is rounded up: ε = 1/3 shows as 0.334, never 0.333 (privacy rule 7).
    expect(publicWarnings(1 / 3, 300, 1 / 300)[0]).toMatch(/^Each release gets ε = 0\.334 with n = 300/);
  });
});

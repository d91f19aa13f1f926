import { describe, expect, it } from 'vitest';
import { parseRational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { fitDraws, powerAgainst, type IntegerPmf } from '../rng/testing/distribution-fit';
import { dpMajority } from './dp-majority';
import { recordingStep } from '../privacy/metered/testing';

/** P(yes − no + Z >= 1) for discrete Laplace Z of scale b: written from the pmf (1 − p)/(1 + p)·p^|z|. */
function answerYes(difference: number, scale: number): number {
  const p = Math.exp(-1 / scale);
  const j = 1 - difference;
  return j >= 1 ? p ** j / (1 + p) : 1 - p ** (1 - j) / (1 + p);
}

describe('noisy majority', () => {
  // 100,000 answers for yes = 3, no = 2 at ε = 0.5 (scale 2/ε = 4): a Bernoulli against its exact
  // probability, and the same test against the answer with scale 2 (sensitivity taken as 1).
  const DRAWS = 100_000;
  const ALPHA = 1e-6;
  const pmf = (scale: number): IntegerPmf => {
    const yes = answerYes(1, scale);
    return { lo: 0, hi: 1, probabilities: Float64Array.from([1 - yes, yes]) };
  };

  it('answers yes with probability P(yes − no + Z >= 1), Z of scale 2/ε (chi-square, α = 1e−6)', () => {
    const rng = new SeededRng('majority');
    const fit = fitDraws(
      () => (dpMajority(recordingStep('approx-dp'), rng, 3, 2, parseRational('0.5')) ? 1 : 0),
      DRAWS,
      pmf(4),
    );
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('the same test rejects noise for a sensitivity of 1', () => {
    const power = powerAgainst(pmf(4), pmf(2), DRAWS, ALPHA);
    expect(power.fiveSigmaLowerStatistic).toBeGreaterThan(power.critical);
    const rng = new SeededRng('majority, Δ = 1');
    const fit = fitDraws(
      () => (dpMajority(recordingStep('approx-dp'), rng, 3, 2, parseRational('1')) ? 1 : 0),
      DRAWS,
      pmf(4),
    );
    expect(fit.pValue).toBeLessThan(ALPHA);
  });
});

import { describe, expect, it } from 'vitest';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { kolmogorovSmirnovOneSample } from '../../stats/kolmogorov-smirnov-one-sample';
import { regularizedGammaP } from '../../stats/regularized-gamma';
import { regularizedIncompleteBeta } from '../../stats/regularized-incomplete-beta';
import { l2QuerySensitivity, type L2QueryKind } from '../query-sensitivity';
import { meteredOutputPerturbation } from './output-perturbation';
import { recordingStep } from './testing';

const QUERY: L2QueryKind = {
  kind: 'regularized-logistic-coefficients',
  rows: 50,
  lambda: 0.2,
  classes: 3,
  gapPerSensitivity: 1000,
};

describe('output perturbation noise: density ∝ exp(−ε‖e‖/Δ₂)', () => {
  it.each([1, 3, 6])('D = %i: ‖e‖ ~ Gamma(D, Δ₂/ε) and e₁²/‖e‖² ~ Beta(½, (D − 1)/2) (KS, α = 1e−6)', (d) => {
    const rng = new SeededRng(100 + d);
    const epsilon = Rational.of(2, 3);
    const scale = l2QuerySensitivity(QUERY, 'replace-one').l2Upper / epsilon.toNumberDown();
    const step = recordingStep('approx-dp');
    const zero = new Float64Array(d);
    const norms: number[] = [];
    const shares: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const e = meteredOutputPerturbation(step, QUERY, zero, epsilon, rng);
      const squared = e.reduce((s, v) => s + v * v, 0);
      norms.push(Math.sqrt(squared));
      shares.push((e[0]! * e[0]!) / squared);
    }
    expect(step.charges).toHaveLength(20_000);
    const normFit = kolmogorovSmirnovOneSample(norms, (r) => regularizedGammaP(d, r / scale));
    expect(normFit.pValue).toBeGreaterThan(1e-6);
    if (d > 1) {
      const shareFit = kolmogorovSmirnovOneSample(shares, (u) =>
        regularizedIncompleteBeta(u, 0.5, (d - 1) / 2),
      );
      expect(shareFit.pValue).toBeGreaterThan(1e-6);
    } else expect(shares.every((s) => s === 1)).toBe(true);
  });
});

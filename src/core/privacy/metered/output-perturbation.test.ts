import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { kolmogorovSmirnovOneSample } from '../../stats/kolmogorov-smirnov-one-sample';
import { regularizedGammaP } from '../../stats/regularized-gamma';
import { regularizedIncompleteBeta } from '../../stats/regularized-incomplete-beta';
import { sampleOutputPerturbation } from './output-perturbation';

describe('output perturbation noise: density ∝ exp(−‖e‖/scale)', () => {
  it.each([1, 3, 6])(
    'D = %i: ‖e‖ ~ Gamma(D, scale) and e₁²/‖e‖² ~ Beta(½, (D − 1)/2) (KS, α = 1e−6)',
    (d) => {
      const rng = new SeededRng(100 + d);
      const scale = 0.37;
      const norms: number[] = [];
      const shares: number[] = [];
      for (let i = 0; i < 20_000; i++) {
        const e = sampleOutputPerturbation(rng, d, scale);
        const squared = e.reduce((s, v) => s + v * v, 0);
        norms.push(Math.sqrt(squared));
        shares.push((e[0]! * e[0]!) / squared);
      }
      const normFit = kolmogorovSmirnovOneSample(norms, (r) => regularizedGammaP(d, r / scale));
      expect(normFit.pValue).toBeGreaterThan(1e-6);
      if (d > 1) {
        const shareFit = kolmogorovSmirnovOneSample(shares, (u) =>
          regularizedIncompleteBeta(u, 0.5, (d - 1) / 2),
        );
        expect(shareFit.pValue).toBeGreaterThan(1e-6);
      } else expect(shares.every((s) => s === 1)).toBe(true);
    },
  );
});

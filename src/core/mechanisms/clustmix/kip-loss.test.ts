import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { adamInBox } from './adapt';
import { kipLoss, kipMomentsFromRelease, type KipProblem } from './kip-loss';
import { FEATURE_GRID } from './plan';
import { drawRandomFrequencies, momentStatistics, randomFeatures, upperIndex } from './random-features';

/** A small problem: 4 support points in d = 3, F = 5 (D = 10), 2 classes, moments of 200 random rows. */
function problem(alpha: number, noiseScale = 0): KipProblem {
  const rng = new SeededRng(11);
  const d = 3;
  const frequencies = drawRandomFrequencies(5, d, 0.7, rng);
  const n = 200;
  const values = Float64Array.from({ length: n * d }, () => rng.nextFloat());
  const classOfRow = Uint32Array.from({ length: n }, (_, i) => (values[i * d]! > 0.5 ? 1 : 0));
  const released = momentStatistics({ n, dimension: d, values, classOfRow }, frequencies, 2);
  // An indefinite perturbation of A (as noise can make it) to exercise the PSD projection.
  for (let i = 0; i < released.gramUpper.length; i++)
    released.gramUpper[i]! += noiseScale * FEATURE_GRID * FEATURE_GRID * (rng.nextFloat() - 0.5);
  return {
    points: 4,
    dimension: d,
    classOf: Uint32Array.of(0, 1, 0, 1),
    start: Float64Array.from([0.2, 0.3, 0.4, 0.8, 0.5, 0.6, 0.3, 0.7, 0.2, 0.7, 0.2, 0.5]),
    alpha,
    ridge: 1e-3,
    frequencies,
    moments: kipMomentsFromRelease(released, n),
  };
}

describe('DP-KIP loss (eq. 5 through released random-feature moments)', () => {
  it('has an analytic gradient that matches central finite differences', () => {
    for (const alpha of [0, 0.5]) {
      const p = problem(alpha, 5);
      const x = Float64Array.from(p.start, (v, i) => v + 0.05 * Math.sin(i));
      const gradient = new Float64Array(x.length);
      kipLoss(p, x, gradient);
      const h = 1e-6;
      for (let i = 0; i < x.length; i++) {
        const plus = Float64Array.from(x);
        const minus = Float64Array.from(x);
        plus[i]! += h;
        minus[i]! -= h;
        const numeric = (kipLoss(p, plus) - kipLoss(p, minus)) / (2 * h);
        // Central differences err by O(h²·f‴) + O(ε_machine·|f|/h) ≈ 10⁻⁹ here; 10⁻⁶ relative allows for both.
        expect(Math.abs(gradient[i]! - numeric), `α = ${alpha}, coordinate ${i}`).toBeLessThan(
          1e-6 * Math.max(1, Math.abs(numeric)),
        );
      }
    }
  });

  it('equals the kernel ridge regression loss on the rows when the moments are exact (α = 0)', () => {
    const p = problem(0);
    // Direct: ½‖Y_t − Φ_t β‖²/n with β = Φ_sᵀ(Φ_sΦ_sᵀ + λI)⁻¹Y_s, computed here by a 4 × 4 solve.
    const rng = new SeededRng(11);
    const d = 3;
    drawRandomFrequencies(5, d, 0.7, rng); // same draws as problem()
    const n = 200;
    const values = Float64Array.from({ length: n * d }, () => rng.nextFloat());
    const D = 10;
    const phiS = Array.from({ length: 4 }, (_, i) => {
      const out = new Float64Array(D);
      randomFeatures(p.start, i * d, p.frequencies, out);
      return out;
    });
    const g = phiS.map((a, i) =>
      phiS.map((b, k) => a.reduce((s, v, j) => s + v * b[j]!, 0) + (i === k ? 1e-3 : 0)),
    );
    const y = [0, 1, 0, 1].map((c) => [c === 0 ? 1 : 0, c === 1 ? 1 : 0]);
    // Gauss–Jordan on [G | Y]
    const aug = g.map((row, i) => [...row, ...y[i]!]);
    for (let c = 0; c < 4; c++) {
      const pivot = aug[c]![c]!;
      for (let j = 0; j < 6; j++) aug[c]![j]! /= pivot;
      for (let r = 0; r < 4; r++) {
        if (r === c) continue;
        const f = aug[r]![c]!;
        for (let j = 0; j < 6; j++) aug[r]![j]! -= f * aug[c]![j]!;
      }
    }
    const beta = Array.from({ length: D }, (_, a) =>
      [0, 1].map((c) => phiS.reduce((s, phi, i) => s + phi[a]! * aug[i]![4 + c]!, 0)),
    );
    let direct = 0;
    const phi = new Float64Array(D);
    for (let i = 0; i < n; i++) {
      randomFeatures(values, i * d, p.frequencies, phi);
      const cls = values[i * d]! > 0.5 ? 1 : 0;
      for (let c = 0; c < 2; c++) {
        const prediction = beta.reduce((s, b, a) => s + phi[a]! * b[c]!, 0);
        direct += ((c === cls ? 1 : 0) - prediction) ** 2 / 2;
      }
    }
    // The moments are on the grid 1/4096 (truncation): agreement to ~10⁻³ relative.
    expect(kipLoss(p, p.start)).toBeCloseTo(direct / n, 3);
  });

  it('projects the noisy Gram matrix onto the PSD cone', () => {
    const p = problem(0.5, 50);
    const D = p.moments.featureDimension;
    const rng = new SeededRng(3);
    for (let t = 0; t < 50; t++) {
      const v = Float64Array.from({ length: D }, () => rng.nextFloat() - 0.5);
      let q = 0;
      for (let a = 0; a < D; a++) for (let b = 0; b < D; b++) q += v[a]! * p.moments.gram[a * D + b]! * v[b]!;
      expect(q).toBeGreaterThan(-1e-9);
    }
    expect(upperIndex(1, 1, D)).toBe(D);
  });

  it('keeps X_s at the centroids when α = 1, and lowers the loss when α < 1', () => {
    const keep = problem(1);
    const moved = adamInBox((x, g) => kipLoss(keep, x, g), keep.start, new Float64Array(3).fill(1), 50);
    expect(Array.from(moved)).toEqual(Array.from(keep.start));
    const fit = problem(0.2);
    const adapted = adamInBox((x, g) => kipLoss(fit, x, g), fit.start, new Float64Array(3).fill(1), 100);
    expect(kipLoss(fit, adapted)).toBeLessThan(kipLoss(fit, fit.start));
    for (const v of adapted) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
  });
});

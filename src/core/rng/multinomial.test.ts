import { describe, expect, it } from 'vitest';
import { chiSquareGoodnessOfFit } from '../stats/chi-square-goodness-of-fit';
import { chiSquareUpperQuantile } from '../stats/chi-square';
import { sampleMultinomial } from './multinomial';
import { SeededRng } from './seeded-rng';
import { scriptedFloatRng } from './testing/scripted-rng';

const ALPHA = 1e-6;

function normalised(weights: ArrayLike<number>): Float64Array {
  const total = Array.from(weights).reduce((s, w) => s + w, 0);
  return Float64Array.from(weights, (w) => w / total);
}

// One multinomial draw of n is exactly what Pearson's test is for: its counts against n·p_i.
describe('sampleMultinomial', () => {
  const layouts: [string, number, number[]][] = [
    // n >= 2k: conditional binomials.
    [
      'conditional binomials (k = 40, n = 200,000)',
      200_000,
      Array.from({ length: 40 }, (_, i) => 1 + (i % 9)),
    ],
    // n < 2k: sorted uniforms swept through the cumulative weights.
    [
      'sorted uniforms (k = 300,000, n = 200,000)',
      200_000,
      Array.from({ length: 300_000 }, (_, i) => (i % 5 === 0 ? 0 : 1 + ((i * 7) % 13))),
    ],
  ];
  for (const [label, n, weights] of layouts) {
    it(`${label}: counts fit n·w/Σw (chi-square, α = 1e−6) and sum to n`, () => {
      const rng = new SeededRng(label);
      const counts = sampleMultinomial(rng, n, weights);
      expect(counts.reduce((s, c) => s + c, 0)).toBe(n);
      expect(counts.every((c, i) => Number.isInteger(c) && (weights[i] > 0 || c === 0))).toBe(true);
      const fit = chiSquareGoodnessOfFit(counts, normalised(weights));
      expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeGreaterThan(ALPHA);
    });

    it(`${label}: the same test rejects counts drawn with reversed weights`, () => {
      // Reversing moves mass between cells of weight ratio up to 13: λ = n·Σ(p' − p)²/p is in the
      // tens of thousands against a critical value in the hundreds (or thousands for the many cells).
      // Computed, not cited: X² under the reversed weights is noncentral χ² with λ = Pearson's X² of
      // the expected counts n·p′ against p (same pooling); its mean minus 5 sd must clear the critical value.
      const reversed = normalised([...weights].reverse());
      const noncentral = chiSquareGoodnessOfFit(
        Float64Array.from(reversed, (p) => n * p),
        normalised(weights),
      );
      const df = noncentral.degreesOfFreedom;
      const critical = chiSquareUpperQuantile(ALPHA, df);
      const lowStatistic = df + noncentral.statistic - 5 * Math.sqrt(2 * (df + 2 * noncentral.statistic));
      expect(lowStatistic, `λ = ${noncentral.statistic} on ${df} df`).toBeGreaterThan(critical);
      const rng = new SeededRng(`${label} reversed`);
      const counts = sampleMultinomial(rng, n, [...weights].reverse());
      const fit = chiSquareGoodnessOfFit(counts, normalised(weights));
      expect(fit.pValue, `X² = ${fit.statistic}`).toBeLessThan(ALPHA);
    });
  }

  it('has mean n·p_i and variance n·p_i(1 − p_i) per cell over repeated small draws', () => {
    // 20,000 draws of n = 30 over weights [1, 2, 3, 0, 4]; the mean count of cell i has sd
    // √(n p(1−p)/R); we allow 5 sd. The sample variance of a count has sd about √(2/R)·var·√(1 + …)
    // — we allow 10% which is over 7 sd for R = 20,000.
    const weights = [1, 2, 3, 0, 4];
    const p = normalised(weights);
    const n = 30;
    const reps = 20_000;
    const rng = new SeededRng('multinomial moments');
    const sums = new Float64Array(5);
    const squares = new Float64Array(5);
    for (let r = 0; r < reps; r++) {
      const counts = sampleMultinomial(rng, n, weights);
      for (let i = 0; i < 5; i++) {
        sums[i] += counts[i];
        squares[i] += counts[i] ** 2;
      }
    }
    for (let i = 0; i < 5; i++) {
      const mean = sums[i] / reps;
      const variance = squares[i] / reps - mean * mean;
      const expectedVariance = n * p[i] * (1 - p[i]);
      expect(Math.abs(mean - n * p[i]), `cell ${i}`).toBeLessThanOrEqual(
        5 * Math.sqrt(expectedVariance / reps),
      );
      expect(Math.abs(variance - expectedVariance), `cell ${i}`).toBeLessThanOrEqual(0.1 * expectedVariance);
    }
  });

  it('sweeps sorted uniforms through the cumulative weights, one uniform per draw, intervals closed on the left', () => {
    // Weights (1, 2, 4), n = 1 < 2k: the one point is (1 − (1 − u))·Σw = u·7 up to rounding, and lands
    // in [0, 1) → 0, [1, 3) → 1, [3, 7) → 2. (The uniforms are chosen so the point is far from an edge.)
    for (const [u, category] of [
      [0.1, 0],
      [2 / 7, 1],
      [5 / 7, 2],
    ] as const) {
      const rng = scriptedFloatRng([u]);
      const expected = [0, 0, 0];
      expected[category] = 1;
      expect(Array.from(sampleMultinomial(rng, 1, [1, 2, 4])), `u = ${u}`).toEqual(expected);
      expect(rng.used).toBe(1);
    }
    // Weights (1, 1), u = ½: exp(log ½) is ½ exactly in doubles, so the point is 1, the edge itself,
    // and belongs to the second category.
    expect(Array.from(sampleMultinomial(scriptedFloatRng([0.5]), 1, [1, 1]))).toEqual([0, 1]);
  });

  it('handles n = 0, a single positive weight, and validates input', () => {
    expect(Array.from(sampleMultinomial(new SeededRng(4), 3, [5, 0]))).toEqual([3, 0]);
    const rng = new SeededRng(3);
    expect(Array.from(sampleMultinomial(rng, 0, [1, 2]))).toEqual([0, 0]);
    expect(Array.from(sampleMultinomial(rng, 7, [0, 5, 0]))).toEqual([0, 7, 0]);
    expect(Array.from(sampleMultinomial(rng, 1, [0, 0, 2, 0, 0, 0]))).toEqual([0, 0, 1, 0, 0, 0]);
    expect(() => sampleMultinomial(rng, 3, [0, 0])).toThrow(/all weights are zero/);
    expect(() => sampleMultinomial(rng, 3, [1, -1])).toThrow(/weight 1/);
    expect(() => sampleMultinomial(rng, 3, [1, NaN])).toThrow(RangeError);
    expect(() => sampleMultinomial(rng, -3, [1])).toThrow(/n must be/);
    expect(() => sampleMultinomial(rng, 1.5, [1])).toThrow(RangeError);
  });

  it('places 10^6 draws over 2·10^6 equal categories as uniform balls in bins', () => {
    const m = 2_000_000;
    const n = 1_000_000;
    const weights = new Float64Array(m).fill(1);
    const counts = sampleMultinomial(new SeededRng('large'), n, weights);
    expect(counts.reduce((s, c) => s + c, 0)).toBe(n);
    // Occupied categories: E = m(1 − (1 − 1/m)^n) = 786,938.7; with λ = n/m = 1/2 the variance is
    // close to the Poisson one, m(e^(−λ) − (1 + λ)e^(−2λ)) = 109,390 (sd 331). 6 sd: 1,985.
    // (Its speed is measured in bench/samplers.bench.ts, not here.)
    let occupied = 0;
    for (const c of counts) if (c > 0) occupied++;
    const expected = m * -Math.expm1(n * Math.log1p(-1 / m));
    expect(Math.abs(occupied - expected)).toBeLessThan(
      6 * Math.sqrt(m * (Math.exp(-0.5) - 1.5 * Math.exp(-1))),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { logGamma } from '../stats/log-gamma';
import { sampleBinomial, stirlingCorrection } from './binomial';
import { SeededRng } from './seeded-rng';
import { fitDraws, powerAgainst, tabulatePmf } from './testing/distribution-fit';
import { scriptedFloatRng } from './testing/scripted-rng';

const ALPHA = 1e-6;

/** Binomial pmf C(n, k) p^k (1 − p)^(n−k) in logs, over the k where it is not negligible. */
function binomialPmf(n: number, p: number) {
  const mean = n * p;
  const sd = Math.sqrt(n * p * (1 - p));
  const lo = Math.max(0, Math.floor(mean - 15 * sd - 5));
  const hi = Math.min(n, Math.ceil(mean + 15 * sd + 5));
  const logChoose = (k: number) => logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
  return tabulatePmf(lo, hi, (k) => Math.exp(logChoose(k) + k * Math.log(p) + (n - k) * Math.log1p(-p)));
}

// 100,000 draws; the wrong-p checks assert (powerAgainst) that X² under p × 1.3 (or × 0.7 when
// p × 1.3 >= 1) lies five standard
// deviations above the α = 1e−6 critical value, so the rejection is certain rather than lucky.
const DRAWS = 100_000;

describe('sampleBinomial', () => {
  const cases: [number, number, string][] = [
    [20, 0.3, 'inversion'],
    [1_000_000, 3e-6, 'inversion with huge n'],
    [34, 0.3, 'BTRD near its lower limit, where stdlib 0.2.2 was biased'],
    [1000, 0.3, 'BTRD'],
    [50, 0.9, 'symmetry n − Binomial(n, 1 − p)'],
    [200_000, 0.5, 'BTRD at p = ½'],
  ];
  for (const [n, p, path] of cases) {
    const factor = p * 1.3 < 1 ? 1.3 : 0.7;
    it(`matches Binomial(${n}, ${p}) (${path}) by chi-square at α = 1e−6, and rejects p × ${factor}`, () => {
      const truth = binomialPmf(n, p);
      const rng = new SeededRng(`binomial ${n} ${p}`);
      const fit = fitDraws(() => sampleBinomial(rng, n, p), DRAWS, truth);
      expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeGreaterThan(ALPHA);

      const wrongP = p * factor;
      const power = powerAgainst(truth, binomialPmf(n, wrongP), DRAWS, ALPHA);
      expect(power.fiveSigmaLowerStatistic, `λ = ${power.noncentrality}`).toBeGreaterThan(power.critical);
      const wrong = fitDraws(() => sampleBinomial(rng, n, wrongP), DRAWS, truth);
      expect(wrong.pValue, `X² = ${wrong.statistic}`).toBeLessThan(ALPHA);
    });
  }

  it('inverts the exact distribution function below the BTRD limit: one uniform, the smallest k with F(k) ≥ u', () => {
    // Binomial(10, 1/5): F(k) = Σ_{j≤k} C(10, j)·4^(10−j) / 5^10, whole numbers over 5^10 = 9,765,625,
    // exact in doubles. A uniform 1e−9 below F(k) gives k, 1e−9 above gives k + 1 (the inversion's
    // rounding is near 1e−16). With p = 4/5 the draw is 10 minus the draw for 1/5 from the same uniform.
    const choose = (n: number, k: number): number => (k === 0 ? 1 : (choose(n, k - 1) * (n - k + 1)) / k);
    let mass = 0;
    for (let k = 0; k <= 8; k++) {
      mass += choose(10, k) * 4 ** (10 - k);
      const cdf = mass / 5 ** 10;
      for (const [u, expected] of [
        [cdf - 1e-9, k],
        [cdf + 1e-9, k + 1],
      ] as const) {
        const rng = scriptedFloatRng([u]);
        expect(sampleBinomial(rng, 10, 0.2), `u = ${u}`).toBe(expected);
        expect(rng.used).toBe(1);
        expect(sampleBinomial(scriptedFloatRng([u]), 10, 0.8), `u = ${u}, p = 0.8`).toBe(10 - expected);
      }
    }
  });

  it('restarts inversion with a new uniform when the summed masses leave the uniform unplaced', () => {
    // u = 1 − 2^−53, the largest uniform: subtracting the masses f(0), f(1), … in doubles leaves it
    // above the last one (rounding), for n = 3 at x = n and for Binomial(10^6, 3·10^−6) at the step
    // limit, mean + 110. The draw must then start again from the next uniform (0.01 → 0), not
    // return the last x or walk on.
    for (const [n, p] of [
      [3, 0.4],
      [1_000_000, 3e-6],
    ] as const) {
      const rng = scriptedFloatRng([1 - 2 ** -53, 0.01]);
      expect(sampleBinomial(rng, n, p), `n = ${n}`).toBe(0);
      expect(rng.used).toBe(2);
    }
  });

  it('draws no uniform when n = 0 or p is 0 or 1', () => {
    const none = scriptedFloatRng([]);
    expect([sampleBinomial(none, 0, 0.4), sampleBinomial(none, 12, 0), sampleBinomial(none, 12, 1)]).toEqual([
      0, 0, 12,
    ]);
    expect(none.used).toBe(0);
  });

  it('accepts a BTRD candidate exactly when v ≤ f(k)/f(m), the exact pmf ratio, on both sides of it', () => {
    // Hörmann 1993, BTRD: with v ≥ v_r the next uniform u − ½ gives the candidate
    // k = ⌊(2a/u_s + b)·u + c⌋ (u_s = ½ − |u|) and v·α/(a/u_s² + b) is compared with f(k)/f(m), the
    // pmf ratio to the mode m = ⌊(n + 1)p⌋. Here the first uniform is set so that this product is the
    // exact ratio (from log-gamma) times 1 ∓ 1e−6: the candidate must be accepted (two uniforms) or
    // rejected, in which case a third uniform 0.43·v_r lands in the centre, u = 0, and gives ⌊c⌋.
    // The step-0 constants below are the paper's; the ratio is computed independently of the
    // sampler's recursion, squeeze and Stirling series (accurate to 1e−10, far inside 1e−6).
    let checked = 0;
    for (const [n, p] of [
      [1000, 0.3],
      [34, 0.3],
      [200, 0.45],
    ] as const) {
      const q = 1 - p;
      const m = Math.floor((n + 1) * p);
      const sqrtNpq = Math.sqrt(n * p * q);
      const b = 1.15 + 2.53 * sqrtNpq;
      const a = -0.0873 + 0.0248 * b + 0.01 * p;
      const c = n * p + 0.5;
      const alpha = (2.83 + 5.1 / b) * sqrtNpq;
      const vr = 0.92 - 4.2 / b;
      const candidate = (u: number) => ((2 * a) / (0.5 - Math.abs(u)) + b) * u + c;
      const logChoose = (k: number) => logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
      for (let k = Math.max(0, m - 40); k <= Math.min(n, m + 40); k++) {
        // The u with candidate(u) = k + ½, by bisection (candidate increases in u).
        let lo = -0.5 + 1e-12;
        let hi = 0.5 - 1e-12;
        if (candidate(lo) > k + 0.5 || candidate(hi) < k + 0.5) continue;
        for (let step = 0; step < 200; step++) {
          const mid = (lo + hi) / 2;
          if (candidate(mid) < k + 0.5) lo = mid;
          else hi = mid;
        }
        const u = (lo + hi) / 2;
        const us = 0.5 - Math.abs(u);
        const ratio = Math.exp(logChoose(k) - logChoose(m) + (k - m) * Math.log(p / q));
        for (const [factor, accepted] of [
          [1 - 1e-6, true],
          [1 + 1e-6, false],
        ] as const) {
          const v = (ratio * factor * (a / (us * us) + b)) / alpha;
          if (!(v >= vr && v < 1)) continue;
          const rng = scriptedFloatRng([v, u + 0.5, 0.43 * vr]);
          const drawn = sampleBinomial(rng, n, p);
          expect(drawn, `n = ${n}, p = ${p}, k = ${k}, v = ${v}`).toBe(accepted ? k : Math.floor(c));
          expect(rng.used).toBe(accepted ? 2 : 3);
          checked++;
        }
      }
    }
    // Candidates on both sides of the mode, within 15 of it and beyond (the squeeze and Stirling path).
    expect(checked).toBeGreaterThan(40);
  });

  it("uses Stirling's correction fc(k) = log k! − [(k + ½) log(k + 1) − (k + 1) + ½ log 2π]", () => {
    // log k! summed term by term (error about k ulps, 1e−14 here). The table (k < 10) is exact to
    // rounding; the series beyond stops before the term 1/(1680 (k + 1)^7), 3.1e−11 at k = 10, so
    // 1e−10 bounds both and is far below what any changed term of the series shifts (1e−8 and more).
    let logFactorial = 0;
    for (let k = 0; k <= 20; k++) {
      if (k > 0) logFactorial += Math.log(k);
      const expected = logFactorial - ((k + 0.5) * Math.log(k + 1) - (k + 1) + 0.5 * Math.log(2 * Math.PI));
      expect(Math.abs(stirlingCorrection(k) - expected), `k = ${k}`).toBeLessThan(1e-10);
    }
  });

  it('handles the degenerate cases and validates arguments', () => {
    const rng = new SeededRng(1);
    expect(sampleBinomial(rng, 0, 0.4)).toBe(0);
    expect(sampleBinomial(rng, 17, 0)).toBe(0);
    expect(sampleBinomial(rng, 17, 1)).toBe(17);
    expect(() => sampleBinomial(rng, -1, 0.5)).toThrow(/n must be/);
    expect(() => sampleBinomial(rng, 2.5, 0.5)).toThrow(RangeError);
    expect(() => sampleBinomial(rng, 10, 1.5)).toThrow(/p must be/);
    expect(() => sampleBinomial(rng, 10, NaN)).toThrow(RangeError);
  });
});

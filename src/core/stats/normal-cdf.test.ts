import { describe, expect, it } from 'vitest';
import golden from '../../../tests/fixtures/privacy-golden.json';
import { normalCdf, normalDensity, normalLogCdf, normalMillsRatio } from './normal-cdf';
import { expectRelativelyClose } from '../testing/expect-close';

// Goldens: tests/reference/privacy_golden.py (mpmath, 60 digits, rounded to the nearest double).
// Tolerance 1e-14 relative: Cody's approximations are accurate to ~1e-17 and the evaluation adds a
// few roundings of 1.1e-16 each; the split exponent keeps e^{−x²/2} within ~1e-15 for |x| ≤ 37.
describe('normalCdf', () => {
  for (const { x, value } of golden.normalCdf) {
    if (value > 1e-300) {
      it(`matches mpmath at x = ${x}`, () => expectRelativelyClose(normalCdf(x), value, 1e-14, `Φ(${x})`));
    }
  }

  it('underflows to (nearly) zero far in the lower tail and reaches 1 in the upper tail', () => {
    expect(normalCdf(-40)).toBeLessThan(1e-300);
    expect(normalCdf(-Infinity)).toBe(0);
    expect(normalCdf(Infinity)).toBe(1);
    expect(normalCdf(40)).toBe(1);
    expect(normalCdf(NaN)).toBeNaN();
  });

  it('is monotone across the boundaries between Cody ranges', () => {
    // Boundaries at |x| = 0.46875·√2 and |x| = 4·√2.
    for (const boundary of [0.46875 * Math.SQRT2, 4 * Math.SQRT2]) {
      for (const sign of [-1, 1]) {
        const centre = sign * boundary;
        const xs = [-2, -1, 0, 1, 2].map((k) => centre + k * 1e-12);
        const values = xs.map(normalCdf);
        for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
      }
    }
  });

  it('satisfies Φ(x) + Φ(−x) = 1', () => {
    for (const x of [0.1, 0.5, 0.7, 1.3, 2.9, 5.5]) {
      expect(Math.abs(normalCdf(x) + normalCdf(-x) - 1)).toBeLessThanOrEqual(4 * Number.EPSILON);
    }
  });
});

describe('normalLogCdf', () => {
  // Same goldens; 1e-14 relative holds for log Φ too since |log Φ| ≥ 1e-9 at the points chosen
  // except where log Φ ≈ −Φ(−x) (x ≥ 2), which log1p keeps to the accuracy of Φ(−x).
  for (const { x, value } of golden.normalLogCdf) {
    it(`matches mpmath at x = ${x}`, () =>
      expectRelativelyClose(normalLogCdf(x), value, 1e-14, `log Φ(${x})`));
  }

  it('is finite where Φ itself underflows', () => {
    expect(normalCdf(-1e5)).toBe(0);
    expect(Number.isFinite(normalLogCdf(-1e5))).toBe(true);
    expect(normalLogCdf(-Infinity)).toBe(-Infinity);
  });
});

describe('normalMillsRatio', () => {
  // R(t) = Φ(−t)/φ(t); same tolerance and reasoning as Φ, since R is erfcx times a constant.
  for (const { t, value } of golden.normalMillsRatio) {
    it(`matches mpmath at t = ${t}`, () =>
      expectRelativelyClose(normalMillsRatio(t), value, 1e-14, `R(${t})`));
  }

  it('rejects negative arguments', () => {
    expect(() => normalMillsRatio(-1)).toThrow(RangeError);
    expect(() => normalMillsRatio(NaN)).toThrow(RangeError);
  });
});

describe('normalDensity', () => {
  it('equals e^{−x²/2}/√(2π), also deep in the tail', () => {
    // φ(0) = 1/√(2π) (the double nearest 0.398942280401432677...). In the tail φ is checked through
    // the identity φ(t)·R(t) = Φ(−t) against the Φ goldens, at the same 1e-14 tolerance.
    expect(normalDensity(0)).toBe(0.3989422804014327);
    for (const { x, value } of golden.normalCdf) {
      if (x < -1 && value > 1e-300) {
        const viaMills = normalDensity(-x) * normalMillsRatio(-x);
        expectRelativelyClose(viaMills, value, 1e-14, `φ(${-x})·R(${-x})`);
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import { parseRational } from '../rng/rational';
import { expm1LowerBound } from './expm1-lower-bound';

describe('expm1LowerBound', () => {
  it('is below e^x − 1 and within 1e−11 of it', () => {
    for (const x of ['1e-9', '0.001', '0.2', '1', '2.718281828', '20', '54.6']) {
      const bound = expm1LowerBound(parseRational(x)).toNumber();
      const exact = Math.expm1(Number(x));
      expect(bound).toBeLessThanOrEqual(exact);
      expect((exact - bound) / exact).toBeLessThan(1e-11);
    }
  });

  it('never falls below x itself, even where a double underflows', () => {
    const tiny = parseRational('1e-400');
    expect(expm1LowerBound(tiny).equals(tiny)).toBe(true);
  });

  it('stays finite above the overflow of e^x', () => {
    expect(expm1LowerBound(parseRational(1000)).toNumber()).toBeGreaterThan(1e307);
  });

  it('refuses x <= 0', () => {
    expect(() => expm1LowerBound(parseRational(0))).toThrow(RangeError);
  });
});

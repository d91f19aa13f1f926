import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import { exponentialUpperBound } from './exp-upper-bound';

describe('exponentialUpperBound', () => {
  it('is above e^x by about 1e-12 relative, never below', () => {
    // e^1 = 2.718281828459045235…, e^0.1 = 1.105170918075647624…, e^20 = 485165195.4097902779…
    const cases: [string, string][] = [
      ['1', '2.718281828459045235'],
      ['0.1', '1.105170918075647624'],
      ['20', '485165195.4097902779'],
      ['0', '1'],
    ];
    for (const [x, exact] of cases) {
      const bound = exponentialUpperBound(parseRational(x))!;
      const reference = parseRational(exact);
      expect(bound.compare(reference), `e^${x}`).toBeGreaterThan(0);
      expect(bound.sub(reference).div(reference).toNumber()).toBeLessThan(2e-12);
    }
  });

  it('returns null when e^x is beyond the double range', () => {
    expect(exponentialUpperBound(Rational.of(710))).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { normalQuantile } from './normal-quantile';

// R 4.2.2: sprintf("%.17g", qnorm(p)) for the p below (R's qnorm is AS 241 too).
const R_QNORM: [number, number][] = [
  [1e-10, -6.3613409024040557],
  [1e-4, -3.71901648545568],
  [0.01, -2.3263478740408408],
  [0.025, -1.9599639845400538],
  [0.1, -1.2815515655446008],
  [0.3, -0.52440051270804067],
  [0.5, 0],
  [0.7, 0.52440051270804067],
  [0.975, 1.9599639845400536],
  [0.999999, 4.7534243088170891],
];

describe('normalQuantile', () => {
  it.each(R_QNORM)('matches R qnorm(%d) to 4 ulp', (p, expected) => {
    // Same algorithm as R; 4·2^-52 relative allows for a different operation order.
    expect(Math.abs(normalQuantile(p) - expected)).toBeLessThanOrEqual(
      4 * Number.EPSILON * Math.abs(expected),
    );
  });

  it('handles the ends and invalid input', () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(normalQuantile(1.5)).toBeNaN();
    expect(normalQuantile(Number.NaN)).toBeNaN();
  });
});

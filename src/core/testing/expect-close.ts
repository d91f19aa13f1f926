import { expect } from 'vitest';

/**
 * Relative error |actual − expected| / |expected|, or the absolute difference |actual| when the
 * expected value is 0 (where no relative scale exists). Example: relativeError(1.01, 1) ≈ 0.01.
 */
export function relativeError(actual: number, expected: number): number {
  return expected === 0 ? Math.abs(actual) : Math.abs(actual - expected) / Math.abs(expected);
}

/**
 * Fails unless relativeError(actual, expected) ≤ tolerance; the message names `what` and prints
 * both values, the error and the tolerance.
 */
export function expectRelativelyClose(
  actual: number,
  expected: number,
  tolerance: number,
  what: string,
): void {
  const error = relativeError(actual, expected);
  expect(
    error,
    `${what}: got ${actual}, expected ${expected}, relative error ${error} > ${tolerance}`,
  ).toBeLessThanOrEqual(tolerance);
}

/**
 * Fails unless |actual − expected| ≤ tolerance · max(1, |expected|): relative for values above 1,
 * absolute below, for quantities that can be near 0 (coefficients, correlations). An expected
 * null or undefined matches only null or undefined.
 */
export function expectCloseOnUnitScale(
  actual: number | null | undefined,
  expected: number | null | undefined,
  tolerance: number,
  what: string,
): void {
  if (expected === null || expected === undefined) {
    expect(actual ?? null, what).toBeNull();
    return;
  }
  expect(actual ?? null, what).not.toBeNull();
  const error = Math.abs(actual! - expected);
  const allowed = tolerance * Math.max(1, Math.abs(expected));
  expect(
    error,
    `${what}: got ${actual}, expected ${expected}, |diff| ${error} > ${allowed}`,
  ).toBeLessThanOrEqual(allowed);
}

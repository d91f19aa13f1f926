/**
 * Rounds to the nearest integer, halves away from zero: 2.5 → 3, −2.5 → −3 (Math.round would give −2,
 * which treats negative values differently from positive ones). O(1).
 */
export function roundHalfAwayFromZero(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

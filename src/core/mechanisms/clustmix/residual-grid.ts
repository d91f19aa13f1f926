/**
 * A residual r = x − c as an integer vector on the grid γ = C/B: r is clipped to ‖r‖ ≤ C, then each
 * coordinate is truncated toward 0 at r_j/γ. Truncation only shrinks |v_j|, so ‖v‖ ≤ B in exact
 * arithmetic; an exact integer check (Σv² is an integer below 2^53 for d ≤ 5,000 and B = 4096)
 * enforces Σv² ≤ B² against floating-point rounding by moving the largest |v_j| one step toward 0
 * until it holds. No rounding term enters the sensitivity: every released sum is of vectors in the
 * ball of radius B. Writes v into `out` and returns Σv². Cost O(d).
 */
export function residualOnGrid(
  row: Float64Array,
  rowOffset: number,
  centroid: Float64Array,
  centroidOffset: number,
  dimension: number,
  clipRadius: number,
  grid: number,
  out: Int32Array,
): number {
  let norm2 = 0;
  for (let j = 0; j < dimension; j++) {
    const r = row[rowOffset + j]! - centroid[centroidOffset + j]!;
    norm2 += r * r;
  }
  const norm = Math.sqrt(norm2);
  const scale = (norm > clipRadius ? clipRadius / norm : 1) * (grid / clipRadius);
  let squares = 0;
  for (let j = 0; j < dimension; j++) {
    // A non-finite coordinate (NaN makes the norm NaN and skips the clipping) counts as 0, so Σv² is a
    // finite integer and the check below bounds ‖v‖ ≤ B whatever the inputs.
    const raw = Math.trunc((row[rowOffset + j]! - centroid[centroidOffset + j]!) * scale);
    const v = Number.isFinite(raw) ? raw : 0;
    out[j] = v;
    squares += v * v;
  }
  const limit = grid * grid;
  while (squares > limit) {
    let largest = 0;
    for (let j = 1; j < dimension; j++) if (Math.abs(out[j]!) > Math.abs(out[largest]!)) largest = j;
    const v = out[largest]!;
    const shrunk = v > 0 ? v - 1 : v + 1;
    squares += shrunk * shrunk - v * v;
    out[largest] = shrunk;
  }
  return squares;
}

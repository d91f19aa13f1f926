/**
 * Predictors of a regression with every row of Euclidean norm at most 1 (Chaudhuri & Monteleoni 2009
 * need ‖x‖ <= 1): the intercept 1, each numeric value mapped to u = 2(x − c₀)/(c₁ − c₀) − 1 ∈ [−1, 1]
 * (a missing value gives 0), and the indicators of levels 1 … L − 1 of each earlier categorical column
 * (level 0 is the reference, so at most one indicator per column is 1), all divided by √(1 + p + j)
 * for p numeric and j categorical columns: each of the 1 + p + j blocks has squared norm <= 1.
 * Row-major n × d with d = 1 + p + Σ(L − 1). Cost O(n·d).
 */
export function buildPredictors(
  scaledNumeric: readonly Float64Array[],
  earlierLevels: readonly Uint32Array[],
  levelCounts: readonly number[],
  n: number,
): { x: Float64Array; d: number } {
  const p = scaledNumeric.length;
  const d = 1 + p + levelCounts.reduce((sum, levels) => sum + levels - 1, 0);
  const scale = 1 / Math.sqrt(1 + p + earlierLevels.length);
  const x = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    const row = i * d;
    x[row] = scale;
    for (let j = 0; j < p; j++) x[row + 1 + j] = scaledNumeric[j]![i]! * scale;
    let offset = 1 + p;
    earlierLevels.forEach((levels, c) => {
      const level = levels[i]!;
      if (level > 0) x[row + offset + level - 1] = scale;
      offset += levelCounts[c]! - 1;
    });
  }
  return { x, d };
}

/** u = 2(x − lo)/(hi − lo) − 1 with x clamped into [lo, hi]; a missing value (flag or NaN) gives 0. */
export function scaleToUnitInterval(
  values: Float64Array,
  missing: Uint8Array,
  lo: number,
  hi: number,
): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (missing[i] === 1 || Number.isNaN(v)) continue;
    out[i] = (2 * (Math.min(hi, Math.max(lo, v)) - lo)) / (hi - lo) - 1;
  }
  return out;
}

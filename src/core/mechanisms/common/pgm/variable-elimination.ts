import { cellCount, multiplyProjected, projection, sumProjected } from './factor-index';

/** A table of non-negative values over attributes (ascending). */
export interface Factor {
  attrs: number[];
  values: Float64Array;
}

/** The join of factors: their product broadcast over the union of their attributes. Cost O(cells of the union · factors). */
function joinFactors(factors: readonly Factor[], sizes: readonly number[]): Factor {
  const attrs = [...new Set(factors.flatMap((f) => f.attrs))].sort((a, b) => a - b);
  const values = new Float64Array(cellCount(attrs, sizes)).fill(1);
  for (const factor of factors)
    multiplyProjected(values, projection(attrs, factor.attrs, sizes), factor.values, values);
  return { attrs, values };
}

/**
 * Σ_{x outside target} Π_f f(x) as a table over `target` (ascending): variable elimination in the
 * sum-product form (Koller & Friedman 2009, §9.3), eliminating first the attribute whose joined factor
 * is smallest. Attributes of `target` no factor mentions are not allowed. Products of the model's
 * marginals and conditionals (each at most n) underflow only where the result is below 1e−300 of n.
 */
export function eliminateToMarginal(
  factors: readonly Factor[],
  target: readonly number[],
  sizes: readonly number[],
): Float64Array {
  let pool = [...factors];
  const keep = new Set(target);
  for (;;) {
    const remaining = [...new Set(pool.flatMap((f) => f.attrs))].filter((a) => !keep.has(a));
    if (remaining.length === 0) break;
    let best = remaining[0]!;
    let bestCells = Infinity;
    for (const a of remaining) {
      const union = new Set(pool.filter((f) => f.attrs.includes(a)).flatMap((f) => f.attrs));
      const cells = cellCount([...union], sizes);
      if (cells < bestCells) {
        best = a;
        bestCells = cells;
      }
    }
    const touching = pool.filter((f) => f.attrs.includes(best));
    const joined = joinFactors(touching, sizes);
    const rest = joined.attrs.filter((a) => a !== best);
    const summed = sumProjected(
      joined.values,
      projection(joined.attrs, rest, sizes),
      new Float64Array(cellCount(rest, sizes)),
    );
    pool = [...pool.filter((f) => !f.attrs.includes(best)), { attrs: rest, values: summed }];
  }
  const joined = joinFactors(pool, sizes);
  const missing = target.filter((a) => !joined.attrs.includes(a));
  if (missing.length > 0) throw new Error(`no factor mentions attributes [${missing.join(', ')}]`);
  return joined.attrs.length === target.length
    ? joined.values
    : sumProjected(
        joined.values,
        projection(joined.attrs, [...target], sizes),
        new Float64Array(cellCount(target, sizes)),
      );
}

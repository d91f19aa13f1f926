import { cellCount, projection, sumProjected } from './factor-index';

/** A table of non-negative values over attributes (ascending). */
export interface Factor {
  attrs: number[];
  values: Float64Array;
}

/** For each attribute of `attrs`, the step of the table over `sub` (a subset) when it moves by one (0 if absent). */
function stepsIn(attrs: readonly number[], sub: readonly number[], sizes: readonly number[]): Int32Array {
  const steps = new Int32Array(attrs.length);
  let stride = 1;
  for (let q = sub.length - 1; q >= 0; q--) {
    steps[attrs.indexOf(sub[q]!)] = stride;
    stride *= sizes[sub[q]!]!;
  }
  return steps;
}

/**
 * out(x_keep) = Σ_{x_attrs outside keep} Π_f f(x_f) with `attrs` the union of the factors' attributes
 * (ascending) and `keep` a subset: the join and the sum in one walk over the union's cells, without
 * storing the join. Cost O(cells of the union · factors).
 */
function sumOfProduct(
  factors: readonly Factor[],
  attrs: readonly number[],
  keep: readonly number[],
  sizes: readonly number[],
): Float64Array {
  const k = attrs.length;
  const out = new Float64Array(cellCount(keep, sizes));
  if (k === 0) {
    out[0] = factors.reduce((product, f) => product * f.values[0]!, 1);
    return out;
  }
  const count = factors.length;
  const tables = factors.map((f) => f.values);
  const steps = factors.map((f) => stepsIn(attrs, f.attrs, sizes));
  const outSteps = stepsIn(attrs, keep, sizes);
  const radix = attrs.map((a) => sizes[a]!);
  const inner = radix[k - 1]!;
  const innerSteps = Int32Array.from(steps, (s) => s[k - 1]!);
  const outInner = outSteps[k - 1]!;
  const offsets = new Int32Array(count);
  const counter = new Int32Array(k);
  const total = cellCount(attrs, sizes);
  let at = 0;
  for (let cell = 0; cell < total; cell += inner) {
    if (count === 2) {
      const a = tables[0]!;
      const b = tables[1]!;
      const oa = offsets[0]!;
      const ob = offsets[1]!;
      const sa = innerSteps[0]!;
      const sb = innerSteps[1]!;
      for (let v = 0; v < inner; v++) out[at + v * outInner] += a[oa + v * sa]! * b[ob + v * sb]!;
    } else {
      for (let v = 0; v < inner; v++) {
        let product = 1;
        for (let f = 0; f < count; f++) product *= tables[f]![offsets[f]! + v * innerSteps[f]!]!;
        out[at + v * outInner] += product;
      }
    }
    for (let p = k - 2; p >= 0; p--) {
      counter[p]!++;
      at += outSteps[p]!;
      for (let f = 0; f < count; f++) offsets[f] += steps[f]![p]!;
      if (counter[p]! < radix[p]!) break;
      const r = radix[p]!;
      at -= outSteps[p]! * r;
      for (let f = 0; f < count; f++) offsets[f] -= steps[f]![p]! * r;
      counter[p] = 0;
    }
  }
  return out;
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
    const union = [...new Set(touching.flatMap((f) => f.attrs))].sort((a, b) => a - b);
    // Every attribute of the join that no other factor mentions is summed out in the same pass.
    const others = pool.filter((f) => !f.attrs.includes(best));
    const rest = union.filter((a) => keep.has(a) || others.some((f) => f.attrs.includes(a)));
    const summed =
      touching.length === 1
        ? sumProjected(
            touching[0]!.values,
            projection(union, rest, sizes),
            new Float64Array(cellCount(rest, sizes)),
          )
        : sumOfProduct(touching, union, rest, sizes);
    pool = [...others, { attrs: rest, values: summed }];
  }
  const attrs = [...new Set(pool.flatMap((f) => f.attrs))].sort((a, b) => a - b);
  const missing = target.filter((a) => !attrs.includes(a));
  if (missing.length > 0) throw new Error(`no factor mentions attributes [${missing.join(', ')}]`);
  return sumOfProduct(pool, attrs, [...target], sizes);
}

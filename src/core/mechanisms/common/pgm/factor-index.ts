/**
 * Tables over sets of discrete attributes, stored as flat Float64Arrays. A clique lists its
 * attributes in ascending order; its cells are laid out mixed-radix with the last attribute varying
 * fastest, as in the rest of the mechanisms (`cellStrides`). Every operation between a clique and a
 * subset of it goes through an index map: for each cell of the clique, the cell of the subset it
 * projects to. Maps are built once per model structure and reused by every iteration.
 */

/** The number of cells of a table over attributes with these level counts (1 for none). */
export function cellCount(attrs: readonly number[], sizes: readonly number[]): number {
  let cells = 1;
  for (const a of attrs) cells *= sizes[a]!;
  return cells;
}

/**
 * For every cell of the table over `superAttrs`, the index of its cell in the table over `subAttrs`
 * (which must be a subset, ascending). Walks the cells in order with an odometer, so the cost is
 * O(cells) with no division. Throws when `subAttrs` is not a subset.
 */
export function indexMap(
  superAttrs: readonly number[],
  subAttrs: readonly number[],
  sizes: readonly number[],
): Uint32Array {
  const k = superAttrs.length;
  const subStride = new Array<number>(k).fill(0);
  let stride = 1;
  for (let q = subAttrs.length - 1; q >= 0; q--) {
    const position = superAttrs.indexOf(subAttrs[q]!);
    if (position < 0)
      throw new Error(`attribute ${subAttrs[q]} is not in the clique [${superAttrs.join(', ')}]`);
    subStride[position] = stride;
    stride *= sizes[subAttrs[q]!]!;
  }
  const radix = superAttrs.map((a) => sizes[a]!);
  const total = cellCount(superAttrs, sizes);
  const map = new Uint32Array(total);
  const counter = new Array<number>(k).fill(0);
  let sub = 0;
  for (let cell = 0; cell < total; cell++) {
    map[cell] = sub;
    for (let p = k - 1; p >= 0; p--) {
      counter[p]!++;
      sub += subStride[p]!;
      if (counter[p]! < radix[p]!) break;
      sub -= subStride[p]! * radix[p]!;
      counter[p] = 0;
    }
  }
  return map;
}

/**
 * values[c] += small[cell of c on subAttrs] for every cell c of the table over `superAttrs`: the
 * same as addExpanded with indexMap(superAttrs, subAttrs, sizes), walking the odometer without
 * building the map (for one-off joins). Cost O(cells).
 */
export function addBroadcast(
  values: Float64Array,
  superAttrs: readonly number[],
  subAttrs: readonly number[],
  small: Float64Array,
  sizes: readonly number[],
): void {
  const k = superAttrs.length;
  const subStride = new Array<number>(k).fill(0);
  let stride = 1;
  for (let q = subAttrs.length - 1; q >= 0; q--) {
    const position = superAttrs.indexOf(subAttrs[q]!);
    if (position < 0)
      throw new Error(`attribute ${subAttrs[q]} is not in the clique [${superAttrs.join(', ')}]`);
    subStride[position] = stride;
    stride *= sizes[subAttrs[q]!]!;
  }
  const radix = superAttrs.map((a) => sizes[a]!);
  const counter = new Array<number>(k).fill(0);
  // The last attribute varies fastest: run along it in a tight loop, then step the odometer.
  const lastRadix = k > 0 ? radix[k - 1]! : 1;
  const lastStride = k > 0 ? subStride[k - 1]! : 0;
  let sub = 0;
  for (let cell = 0; cell < values.length; cell += lastRadix) {
    for (let v = 0; v < lastRadix; v++) values[cell + v] += small[sub + v * lastStride]!;
    for (let p = k - 2; p >= 0; p--) {
      counter[p]!++;
      sub += subStride[p]!;
      if (counter[p]! < radix[p]!) break;
      sub -= subStride[p]! * radix[p]!;
      counter[p] = 0;
    }
  }
}

/** out[map[c]] = Σ values[c]: the marginal of a table on a subset. out is overwritten. */
export function sumOnto(values: Float64Array, map: Uint32Array, out: Float64Array): Float64Array {
  out.fill(0);
  for (let c = 0; c < values.length; c++) out[map[c]!] += values[c]!;
  return out;
}

/**
 * out[s] = log Σ_{c: map[c] = s} exp(values[c]), computed stably with the largest term of each s
 * factored out (two passes). Cells of s whose every term is −∞ stay −∞. out is overwritten.
 */
export function logSumExpOnto(values: Float64Array, map: Uint32Array, out: Float64Array): Float64Array {
  out.fill(-Infinity);
  for (let c = 0; c < values.length; c++) {
    const s = map[c]!;
    if (values[c]! > out[s]!) out[s] = values[c]!;
  }
  const largest = Float64Array.from(out);
  out.fill(0);
  for (let c = 0; c < values.length; c++) {
    const s = map[c]!;
    const top = largest[s]!;
    if (top !== -Infinity) out[s] += Math.exp(values[c]! - top);
  }
  for (let s = 0; s < out.length; s++) {
    const top = largest[s]!;
    out[s] = top === -Infinity ? -Infinity : top + Math.log(out[s]!);
  }
  return out;
}

/** values[c] += scale · small[map[c]]: a table on a subset added to every cell that projects to it. */
export function addExpanded(values: Float64Array, map: Uint32Array, small: Float64Array, scale = 1): void {
  for (let c = 0; c < values.length; c++) values[c] += scale * small[map[c]!]!;
}

/** Counts of rows per cell of the table over `attrs`, from each attribute's level per row. Cost O(rows · |attrs|). */
export function countCells(
  levels: readonly Uint32Array[],
  attrs: readonly number[],
  sizes: readonly number[],
): Float64Array {
  const counts = new Float64Array(cellCount(attrs, sizes));
  const n = levels[attrs[0] ?? 0]?.length ?? 0;
  const strides: number[] = [];
  let stride = 1;
  for (let q = attrs.length - 1; q >= 0; q--) {
    strides[q] = stride;
    stride *= sizes[attrs[q]!]!;
  }
  if (attrs.length === 0) {
    counts[0] = n;
    return counts;
  }
  const cellOfRow = new Uint32Array(n);
  attrs.forEach((a, q) => {
    const column = levels[a]!;
    const s = strides[q]!;
    for (let i = 0; i < n; i++) cellOfRow[i] += column[i]! * s;
  });
  for (let i = 0; i < n; i++) counts[cellOfRow[i]!]++;
  return counts;
}

/**
 * Tables over sets of discrete attributes, stored as flat Float64Arrays. A clique lists its
 * attributes in ascending order; its cells are laid out mixed-radix with the last attribute varying
 * fastest, as in the rest of the mechanisms (`cellStrides`). Operations between a clique and a subset
 * of it either walk both tables together (`projection` and the *Projected functions: no map, the
 * engine's hot paths) or use an index map (for each cell of the clique, the cell of the subset it
 * projects to; built once per model structure, used by sampling).
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

/**
 * How the cells of a table over `superAttrs` walk the cells of its marginal on `subAttrs`, with
 * neighbouring attributes merged when they move the marginal's index together (both summed out, or
 * adjacent in the marginal too): the innermost merged dimension is then as long as possible and the
 * walk needs no index map. Merged dimensions are listed outermost first, each with its length and its
 * step in the marginal's cells (0 when summed out). Built once per pair of attribute lists.
 */
export interface Projection {
  radix: number[];
  stride: number[];
  cells: number;
  subCells: number;
}

/** The projection of the table over `superAttrs` onto `subAttrs` (ascending, a subset; throws otherwise). */
export function projection(
  superAttrs: readonly number[],
  subAttrs: readonly number[],
  sizes: readonly number[],
): Projection {
  const subStride = new Array<number>(superAttrs.length).fill(0);
  let stride = 1;
  for (let q = subAttrs.length - 1; q >= 0; q--) {
    const position = superAttrs.indexOf(subAttrs[q]!);
    if (position < 0)
      throw new Error(`attribute ${subAttrs[q]} is not in the clique [${superAttrs.join(', ')}]`);
    subStride[position] = stride;
    stride *= sizes[subAttrs[q]!]!;
  }
  const radices: number[] = [];
  const strides: number[] = [];
  superAttrs.forEach((a, p) => {
    const r = sizes[a]!;
    const s = subStride[p]!;
    const last = radices.length - 1;
    // An outer dimension of step s·r followed by one of step s and length r walk as one of length r·outer.
    if (last >= 0 && strides[last] === s * r) {
      radices[last]! *= r;
      strides[last] = s;
    } else {
      radices.push(r);
      strides.push(s);
    }
  });
  if (radices.length === 0) {
    radices.push(1);
    strides.push(0);
  }
  return { radix: radices, stride: strides, cells: cellCount(superAttrs, sizes), subCells: stride };
}

/**
 * Steps the odometer of the outer merged dimensions (all but the last) and returns the new offset in
 * the marginal's cells.
 */
function stepOuter(walk: Projection, counter: Int32Array, sub: number): number {
  const { radix, stride } = walk;
  for (let p = radix.length - 2; p >= 0; p--) {
    counter[p]!++;
    sub += stride[p]!;
    if (counter[p]! < radix[p]!) return sub;
    sub -= stride[p]! * radix[p]!;
    counter[p] = 0;
  }
  return sub;
}

/**
 * out[s] = Σ values[c] over the cells c projecting to s: sumOnto without an index map. Each out[s]
 * receives its terms in the order of c, as in sumOnto, so the sums are the same to the last bit.
 * out is overwritten. Cost O(cells).
 */
export function sumProjected(values: Float64Array, walk: Projection, out: Float64Array): Float64Array {
  out.fill(0);
  const k = walk.radix.length;
  const inner = walk.radix[k - 1]!;
  const step = walk.stride[k - 1]!;
  const counter = new Int32Array(k);
  let sub = 0;
  for (let cell = 0; cell < walk.cells; cell += inner) {
    if (step === 0) {
      let acc = out[sub]!;
      for (let v = 0; v < inner; v++) acc += values[cell + v]!;
      out[sub] = acc;
    } else {
      for (let v = 0; v < inner; v++) out[sub + v * step] += values[cell + v]!;
    }
    sub = stepOuter(walk, counter, sub);
  }
  return out;
}

/** values[c] += scale · small[s(c)]: addExpanded without an index map (the same values). Cost O(cells). */
export function addProjected(values: Float64Array, walk: Projection, small: Float64Array, scale = 1): void {
  const k = walk.radix.length;
  const inner = walk.radix[k - 1]!;
  const step = walk.stride[k - 1]!;
  const counter = new Int32Array(k);
  let sub = 0;
  for (let cell = 0; cell < walk.cells; cell += inner) {
    if (step === 0) {
      const add = scale * small[sub]!;
      for (let v = 0; v < inner; v++) values[cell + v] += add;
    } else {
      for (let v = 0; v < inner; v++) values[cell + v] += scale * small[sub + v * step]!;
    }
    sub = stepOuter(walk, counter, sub);
  }
}

/** out[s] = max values[c] over the cells c projecting to s (−∞ when none is larger). out is overwritten. */
export function maxProjected(values: Float64Array, walk: Projection, out: Float64Array): Float64Array {
  out.fill(-Infinity);
  const k = walk.radix.length;
  const inner = walk.radix[k - 1]!;
  const step = walk.stride[k - 1]!;
  const counter = new Int32Array(k);
  let sub = 0;
  for (let cell = 0; cell < walk.cells; cell += inner) {
    if (step === 0) {
      let top = out[sub]!;
      for (let v = 0; v < inner; v++) if (values[cell + v]! > top) top = values[cell + v]!;
      out[sub] = top;
    } else {
      for (let v = 0; v < inner; v++) {
        const s = sub + v * step;
        if (values[cell + v]! > out[s]!) out[s] = values[cell + v]!;
      }
    }
    sub = stepOuter(walk, counter, sub);
  }
  return out;
}

/**
 * In place, terms[c] = exp(terms[c] − top[s(c)]) (0 where top is −∞), and sum[s] = Σ of the new terms
 * projecting to s, added in the order of c. sum is overwritten.
 */
export function expShiftedProjected(
  terms: Float64Array,
  walk: Projection,
  top: Float64Array,
  sum: Float64Array,
): void {
  sum.fill(0);
  const k = walk.radix.length;
  const inner = walk.radix[k - 1]!;
  const step = walk.stride[k - 1]!;
  const counter = new Int32Array(k);
  let sub = 0;
  for (let cell = 0; cell < walk.cells; cell += inner) {
    for (let v = 0; v < inner; v++) {
      const s = sub + v * step;
      const t = top[s]!;
      const term = t === -Infinity ? 0 : Math.exp(terms[cell + v]! - t);
      terms[cell + v] = term;
      sum[s] += term;
    }
    sub = stepOuter(walk, counter, sub);
  }
}

/**
 * target[c] = values[c] / small[c restricted to the walk's attributes], or 0 where that divisor is
 * 0; the walk as in multiplyProjected. Dividing (rather than multiplying by a reciprocal) keeps a
 * conditional μ_C / μ_S at most 1 even where μ_S is subnormal, whose reciprocal overflows.
 */
export function divideProjected(
  values: Float64Array,
  walk: Projection,
  small: Float64Array,
  target: Float64Array,
): void {
  const k = walk.radix.length;
  const inner = walk.radix[k - 1]!;
  const step = walk.stride[k - 1]!;
  const counter = new Int32Array(k);
  let sub = 0;
  for (let cell = 0; cell < walk.cells; cell += inner) {
    for (let v = 0; v < inner; v++) {
      const divisor = small[sub + v * step]!;
      target[cell + v] = divisor > 0 ? values[cell + v]! / divisor : 0;
    }
    sub = stepOuter(walk, counter, sub);
  }
}

/** target[c] = values[c] · small[s(c)]. */
export function multiplyProjected(
  values: Float64Array,
  walk: Projection,
  small: Float64Array,
  target: Float64Array,
): void {
  const k = walk.radix.length;
  const inner = walk.radix[k - 1]!;
  const step = walk.stride[k - 1]!;
  const counter = new Int32Array(k);
  let sub = 0;
  for (let cell = 0; cell < walk.cells; cell += inner) {
    for (let v = 0; v < inner; v++) target[cell + v] = values[cell + v]! * small[sub + v * step]!;
    sub = stepOuter(walk, counter, sub);
  }
}

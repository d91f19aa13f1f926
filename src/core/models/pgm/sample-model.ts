import { sampleMultinomial } from '../../rng/multinomial';
import type { Rng } from '../../rng/types';
import { uniformInt } from '../../rng/uniform-int';
import { throwIfAborted, type AbortSignalLike } from '../../abort';
import { shuffleInPlace } from '../../rng/shuffle';
import type { CliqueTreeModel } from './clique-tree-model';
import { expectedCountFloors, RowOrder, spreadLevels, unbiasedCounts } from './balanced-levels';
import { cellCount, indexMap, sumOnto } from './factor-index';

export type SamplingRule = 'balanced' | 'round' | 'sample';

/**
 * `count` levels in proportion to `weights`, for the rows of one group in the order given:
 * - 'balanced': level l gets ⌊e_l⌋ or ⌊e_l⌋ + 1 rows with mean exactly e_l = count·w_l/Σw
 *   (`unbiasedCounts`), spread evenly over the rows in their order (`spreadLevels`);
 * - 'round' (private-pgm's `synthetic_data`): level l gets ⌊e_l⌋ rows, and the rows left over go one
 *   each to distinct levels chosen one after another without replacement with probability ∝ the
 *   fractional parts (which favours small fractions a little); the result is shuffled;
 * - 'sample': count independent draws (a multinomial, then shuffled).
 * All weights zero: uniform levels (a choice that does not depend on the data). Post-processing.
 */
export function levelsForGroup(
  rng: Rng,
  weights: Float64Array,
  count: number,
  rule: SamplingRule,
): Uint32Array {
  const k = weights.length;
  let total = 0;
  for (let l = 0; l < k; l++) total += weights[l]!;
  const out = new Uint32Array(count);
  if (!(total > 0)) {
    for (let r = 0; r < count; r++) out[r] = uniformInt(rng, k);
    return out;
  }
  if (rule === 'balanced') return spreadLevels(rng, unbiasedCounts(rng, weights, count), count);
  let rows: Float64Array;
  if (rule === 'sample') {
    rows = sampleMultinomial(rng, count, weights);
  } else {
    const floors = expectedCountFloors(weights, count, total);
    rows = floors.rows;
    const fractions = floors.fractions;
    for (let extra = count - floors.placed; extra > 0; extra--) {
      let mass = 0;
      for (let l = 0; l < k; l++) mass += fractions[l]!;
      let chosen = -1;
      if (mass > 0) {
        let u = rng.nextFloat() * mass;
        for (let l = 0; l < k; l++) {
          if (fractions[l]! <= 0) continue;
          chosen = l;
          u -= fractions[l]!;
          if (u < 0) break;
        }
      } else {
        chosen = uniformInt(rng, k); // rounding left no fractional mass: floating-point slack only
      }
      rows[chosen]!++;
      fractions[chosen] = 0;
    }
  }
  let r = 0;
  for (let l = 0; l < k; l++) for (let c = rows[l]!; c > 0; c--) out[r++] = l;
  shuffleInPlace(rng, out);
  return out;
}

/**
 * n synthetic rows from a calibrated model, ancestrally, as private-pgm's `synthetic_data`: the
 * attributes in reverse elimination order; each is drawn given the already drawn attributes that
 * share a maximal clique with it (in a perfect elimination order these and the attribute lie in one
 * clique, and they separate it from the rest of the drawn attributes), group by group of rows with
 * the same values of those attributes, with `levelsForGroup`. Returns each attribute's level per row.
 * Under 'balanced' the rows are visited in one order kept sorted by the attributes drawn so far (the
 * earliest drawn most significant, ties at random; `RowOrder`), so within a group the rows come sorted
 * by the other drawn attributes, and spreading the group's levels evenly along them gives every
 * nested stratum of those attributes (the first, the first two, …) its share to within a few rows
 * instead of by chance: the model's conditional independences hold in the drawn rows more closely,
 * and marginals outside the cliques drift less. The rows are then not independent draws (nor under
 * 'round'); 'sample' gives independent rows.
 * Cost O(n · d + Σ clique cells); 'balanced' adds two counting sorts of the rows per attribute.
 * Post-processing of the fitted model.
 */
export function sampleRows(
  rng: Rng,
  model: CliqueTreeModel,
  marginals: readonly Float64Array[],
  n: number,
  rule: SamplingRule,
  signal?: AbortSignalLike,
): Uint32Array[] {
  const d = model.sizes.length;
  const levels = Array.from({ length: d }, () => new Uint32Array(n));
  const drawn = new Set<number>();
  const order = [...model.eliminationOrder].reverse();
  const rowOrder = rule === 'balanced' ? new RowOrder(rng, n) : undefined;
  for (const attr of order) {
    throwIfAborted(signal);
    const conditioning = new Set<number>();
    for (const clique of model.cliques) {
      if (!clique.includes(attr)) continue;
      for (const a of clique) if (drawn.has(a)) conditioning.add(a);
    }
    const given = [...conditioning].sort((x, y) => x - y);
    const attrs = [...given, attr].sort((x, y) => x - y);
    const joint = model.marginalFromCliques(marginals, attrs);
    const groupAttrs = given;
    const groups = cellCount(groupAttrs, model.sizes);
    const k = model.sizes[attr]!;
    // conditional table laid out [group][level]
    const conditional = sumOnto(
      joint,
      permutationMap(attrs, groupAttrs, attr, model.sizes),
      new Float64Array(groups * k),
    );
    const groupOfRow = new Uint32Array(n);
    let stride = 1;
    for (let q = groupAttrs.length - 1; q >= 0; q--) {
      const column = levels[groupAttrs[q]!]!;
      for (let i = 0; i < n; i++) groupOfRow[i] += column[i]! * stride;
      stride *= model.sizes[groupAttrs[q]!]!;
    }
    // counting sort of rows by group
    const start = new Uint32Array(groups + 1);
    for (let i = 0; i < n; i++) start[groupOfRow[i]! + 1]!++;
    for (let g = 0; g < groups; g++) start[g + 1] += start[g]!;
    const rowsByGroup = new Uint32Array(n);
    const fill = start.slice(0, groups);
    if (rowOrder) for (const i of rowOrder.order) rowsByGroup[fill[groupOfRow[i]!]!++] = i;
    else for (let i = 0; i < n; i++) rowsByGroup[fill[groupOfRow[i]!]!++] = i;
    const target = levels[attr]!;
    for (let g = 0; g < groups; g++) {
      const size = start[g + 1]! - start[g]!;
      if (size === 0) continue;
      const drawnLevels = levelsForGroup(rng, conditional.subarray(g * k, (g + 1) * k), size, rule);
      for (let r = 0; r < size; r++) target[rowsByGroup[start[g]! + r]!] = drawnLevels[r]!;
    }
    rowOrder?.refine(target, k);
    drawn.add(attr);
  }
  return levels;
}

/** Map from cells over `attrs` (ascending) to cells of the layout [group over groupAttrs][level of attr]. */
function permutationMap(
  attrs: number[],
  groupAttrs: number[],
  attr: number,
  sizes: readonly number[],
): Uint32Array {
  // indexMap needs ascending sub-attributes; compose the group index and the level index by hand.
  const groupMap = indexMap(attrs, groupAttrs, sizes);
  const levelMap = indexMap(attrs, [attr], sizes);
  const k = sizes[attr]!;
  const map = new Uint32Array(groupMap.length);
  for (let c = 0; c < map.length; c++) map[c] = groupMap[c]! * k + levelMap[c]!;
  return map;
}

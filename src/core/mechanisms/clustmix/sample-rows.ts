import { makeNormalSampler } from '../../rng/continuous';
import type { Rng } from '../../rng/types';
import { throwIfAborted } from '../../abort';
import type { Column, Schema, Table } from '../../table/types';
import type { AbortSignalLike } from '../types';
import { ROWS_PER_ABORT_CHECK } from './cluster-statistics';
import { categoricalWidth, MISSING_NUMERIC_MARK, type ClustmixEncoding, type EncodedBlock } from './encoding';
import type { ClustmixMixture } from './mixture';
import type { ClustmixSpread } from './params';

/** Index i with cumulative[i − 1] ≤ u < cumulative[i] (binary search). */
function pickIndex(cumulative: Float64Array, u: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (u < cumulative[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function clampUnit(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/**
 * The fallback when no cluster is kept: one component per class, equal weights, at the centre of the
 * box with no spread (a data-independent table; the diagnostics say it happened).
 */
export function uniformBoxMixture(encoding: ClustmixEncoding): ClustmixMixture {
  const d = encoding.dimension;
  const components = encoding.classes;
  const means = new Float64Array(components * d);
  for (let c = 0; c < components; c++)
    for (let j = 0; j < d; j++) means[c * d + j] = encoding.boxUpper[j]! / 2;
  return {
    means,
    spreads: new Float64Array(components).fill(Math.sqrt(1 / 12)),
    weights: new Float64Array(components).fill(1 / components),
    classOf: Uint32Array.from({ length: components }, (_, c) => c),
    components,
  };
}

interface ColumnBuilder {
  block: EncodedBlock;
  values: Float64Array | Uint32Array;
  missing: Uint8Array;
}

/**
 * n synthetic rows from the mixture (post-processing): each row's component ~ weights; per numeric
 * column, missing with probability clamp(m̄_k·2/√3, 0, 1), else u = clamp(μ_k + s_k·z) (`gaussian`)
 * or μ_k (`centroid`), mapped to lo + u·(hi − lo) and rounded for integer columns; per categorical
 * column, a level drawn from the block's clamped, renormalised proportions (uniform when all are 0),
 * the last level being missing; the label is the component's class (the last one missing). A complete
 * column (or label) has no missing coordinate (or class), so none of its values is missing. Columns in
 * schema order. Cost O(n·d).
 */
export function sampleRows(
  mixture: ClustmixMixture,
  encoding: ClustmixEncoding,
  schema: Schema,
  n: number,
  spread: ClustmixSpread,
  rng: Rng,
  signal?: AbortSignalLike,
): Table {
  const d = encoding.dimension;
  const normal = makeNormalSampler(rng);
  const cumulative = new Float64Array(mixture.components);
  let running = 0;
  for (let c = 0; c < mixture.components; c++) cumulative[c] = running += mixture.weights[c]!;
  const builders: ColumnBuilder[] = encoding.blocks.map((block) => ({
    block,
    values: block.kind === 'numeric' ? new Float64Array(n) : new Uint32Array(n),
    missing: new Uint8Array(n),
  }));
  const labelCodes = new Uint32Array(n);
  const labelMissing = new Uint8Array(n);
  const classes = encoding.classes;
  for (let i = 0; i < n; i++) {
    if (i % ROWS_PER_ABORT_CHECK === 0) throwIfAborted(signal);
    const c = Math.min(mixture.components - 1, pickIndex(cumulative, rng.nextFloat() * running));
    const base = c * d;
    const s = mixture.spreads[c]!;
    if (encoding.label) {
      const cls = mixture.classOf[c]!;
      if (!encoding.label.complete && cls === classes - 1) labelMissing[i] = 1;
      else labelCodes[i] = cls;
    }
    for (const builder of builders) {
      const block = builder.block;
      if (block.kind === 'numeric') {
        const values = builder.values as Float64Array;
        const missingProbability = block.complete
          ? 0
          : clampUnit(mixture.means[base + block.offset + 1]! / MISSING_NUMERIC_MARK);
        if (missingProbability > 0 && rng.nextFloat() < missingProbability) {
          builder.missing[i] = 1;
          values[i] = NaN;
          continue;
        }
        const centre = mixture.means[base + block.offset]!;
        const u = spread === 'gaussian' ? clampUnit(normal(centre, s)) : clampUnit(centre);
        values[i] = numericValue(block.lo, block.hi, block.integer, u);
      } else {
        const levels = categoricalWidth(block);
        let total = 0;
        for (let j = 0; j < levels; j++) total += Math.max(0, mixture.means[base + block.offset + j]!);
        let level = levels - 1;
        if (total > 0) {
          let target = rng.nextFloat() * total;
          for (let j = 0; j < levels; j++) {
            const weight = Math.max(0, mixture.means[base + block.offset + j]!);
            if (target < weight) {
              level = j;
              break;
            }
            target -= weight;
          }
        } else {
          level = Math.floor(rng.nextFloat() * levels);
        }
        if (!block.complete && level === levels - 1) builder.missing[i] = 1;
        else (builder.values as Uint32Array)[i] = level;
      }
    }
  }
  const byName = new Map<string, Column>();
  for (const builder of builders) {
    const block = builder.block;
    byName.set(
      block.name,
      block.kind === 'numeric'
        ? {
            kind: 'numeric',
            name: block.name,
            values: builder.values as Float64Array,
            missing: builder.missing,
          }
        : {
            kind: 'categorical',
            name: block.name,
            codes: builder.values as Uint32Array,
            dictionary: [...block.categories],
            missing: builder.missing,
          },
    );
  }
  if (encoding.label) {
    byName.set(encoding.label.name, {
      kind: 'categorical',
      name: encoding.label.name,
      codes: labelCodes,
      dictionary: [...encoding.label.categories],
      missing: labelMissing,
    });
  }
  return { nRows: n, columns: schema.columns.map((column) => byName.get(column.name)!) };
}

/** lo + u·(hi − lo), rounded to a whole number inside the bounds for integer columns. */
export function numericValue(lo: number, hi: number, integer: boolean, u: number): number {
  const x = Math.min(hi, Math.max(lo, lo + u * (hi - lo)));
  if (!integer) return x;
  const first = Math.ceil(lo);
  const last = Math.floor(hi);
  if (first > last) return Math.round(x); // no whole number within the bounds: the nearest one
  return Math.min(last, Math.max(first, Math.round(x)));
}

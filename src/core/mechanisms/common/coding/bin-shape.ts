import type { Rng } from '../../../rng/types';
import { uniformBigInt, uniformInt } from '../../../rng/uniform-int';
import type { ColumnSchema } from '../../../table/types';
import type { IntegerBinCoding, PointCandidates, RealBinCoding, ShapedCoding } from './coding-types';

export type { PointCandidates, QuantileEdges, ShapedCoding } from './coding-types';

/**
 * The declared point masses of a column that a coding can use: those inside the bounds (whole for
 * an integer column), ascending and distinct. Empty for a categorical column or one without bounds.
 */
export function pointMassesOf(column: ColumnSchema): number[] {
  if (column.type !== 'numeric' || !column.bounds || !column.pointMasses) return [];
  const [lo, hi] = column.bounds;
  const usable = column.pointMasses.filter(
    (v) => Number.isFinite(v) && v >= lo && v <= hi && (!column.integer || Number.isInteger(v)),
  );
  return [...new Set(usable)].sort((a, b) => a - b);
}

/**
 * The public candidate point masses of a numeric column, from its bounds alone: 0 when inside them,
 * and both ends (for an integer column the first and last whole numbers inside them), ascending.
 */
export function candidatePointMasses(column: ColumnSchema): number[] {
  if (column.type !== 'numeric' || !column.bounds) return [];
  const [lo, hi] = column.integer
    ? [Math.ceil(column.bounds[0]), Math.floor(column.bounds[1])]
    : column.bounds;
  if (!(lo < hi)) return [];
  return [...new Set([lo, ...(lo < 0 && 0 < hi ? [0] : []), hi])].sort((a, b) => a - b);
}

/** True when the coding needs the code below instead of the plain equal-width formulas. */
export function isShaped(coding: RealBinCoding | IntegerBinCoding): boolean {
  return coding.points !== undefined || coding.quantile !== undefined || coding.candidates !== undefined;
}

/** The decisions on the candidates; throws when the detection step has not run. */
function acceptedOf(coding: ShapedCoding): boolean[] {
  const accepted = coding.candidates?.accepted;
  if (accepted === undefined) {
    throw new Error(
      `the candidate point masses of \`${coding.name}\` are used before the detection step decided on them.`,
    );
  }
  return accepted;
}

/** The values with a point-mass level in use: declared ones, then accepted candidates, ascending. */
export function activePoints(coding: ShapedCoding): number[] {
  const declared = coding.points ?? [];
  if (coding.candidates === undefined) return declared;
  const accepted = acceptedOf(coding);
  const chosen = coding.candidates.values.filter((_, k) => accepted[k]);
  return [...declared, ...chosen].sort((a, b) => a - b);
}

/** The number of point-mass levels (declared and candidates) after the bins. */
export function pointLevelCount(coding: { points?: number[]; candidates?: PointCandidates }): number {
  return (coding.points?.length ?? 0) + (coding.candidates?.values.length ?? 0);
}

/** The learned edges of a quantile coding; throws when the binning step has not run (nothing may code without it). */
export function learnedEdges(coding: ShapedCoding): number[] {
  const edges = coding.quantile?.edges;
  if (edges === undefined) {
    throw new Error(
      `the quantile bins of \`${coding.name}\` are used before the binning step learned their edges.`,
    );
  }
  return edges;
}

/** #{e ∈ edges : e <= x} for ascending edges: the quantile bin of x. */
function binByEdges(edges: readonly number[], x: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (edges[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The value a present number takes in a coding before it is binned: clamped into the bounds, and
 * for an integer column rounded to the nearest integer and clamped to first … first + count − 1.
 */
export function codedValue(value: number, coding: RealBinCoding | IntegerBinCoding): number {
  if (coding.kind === 'real') return Math.min(coding.hi, Math.max(coding.lo, value));
  return Math.min(coding.first + coding.count - 1, Math.max(coding.first, Math.round(value)));
}

/**
 * The level of a present value under a shaped coding: a value equal (after clamping and, for an
 * integer column, rounding) to a point mass p_k → level bins + k; any other value → its bin, by the
 * learned edges under quantile binning, else by the equal-width formulas of encode-rows.ts.
 */
export function shapedNumericLevel(value: number, coding: ShapedCoding): number {
  const x = codedValue(value, coding);
  const point = coding.points?.indexOf(x) ?? -1;
  if (point >= 0) return coding.bins + point;
  const candidate = coding.candidates?.values.indexOf(x) ?? -1;
  if (candidate >= 0 && acceptedOf(coding)[candidate]) {
    return coding.bins + (coding.points?.length ?? 0) + candidate;
  }
  return binOfCodedValue(x, coding);
}

/** The bin of a clamped (rounded) value, by the learned edges or the equal-width formulas. */
function binOfCodedValue(x: number, coding: ShapedCoding): number {
  if (coding.quantile) return binByEdges(learnedEdges(coding), x);
  if (coding.kind === 'real') {
    const position = ((x - coding.lo) / (coding.hi - coding.lo)) * coding.bins;
    return Math.min(coding.bins - 1, Math.max(0, Math.floor(position)));
  }
  return Math.floor(((x - coding.first) * coding.bins) / coding.count);
}

/**
 * A synthetic value of a non-missing level under a shaped coding (post-processing, a public rule):
 * - a point-mass level (declared, or a candidate accepted) → exactly that value; a closed candidate
 *   level → a value of the bin holding the candidate;
 * - a real bin [a, b) → a + U·(b − a), U uniform on [0, 1), kept <= hi (quantile edges or equal width);
 * - an integer bin → a uniform integer among the integers of the bin that are not point masses
 *   (those have their own levels); a bin holding nothing but point masses draws among all its integers.
 * Cost O(points) per value.
 */
export function shapedNumericValue(rng: Rng, level: number, coding: ShapedCoding): number {
  const declared = coding.points ?? [];
  if (level >= coding.bins && level < coding.bins + declared.length) return declared[level - coding.bins]!;
  if (level >= coding.bins) {
    const k = level - coding.bins - declared.length;
    const value = coding.candidates!.values[k]!;
    // A closed candidate level decodes as the bin that holds its value.
    return acceptedOf(coding)[k] ? value : shapedNumericValue(rng, binOfCodedValue(value, coding), coding);
  }
  const points = activePoints(coding);
  if (coding.kind === 'real') {
    const edges = coding.quantile ? learnedEdges(coding) : undefined;
    const width = (coding.hi - coding.lo) / coding.bins;
    const a = edges ? (level === 0 ? coding.lo : edges[level - 1]!) : coding.lo + level * width;
    const b = edges ? (level === coding.bins - 1 ? coding.hi : edges[level]!) : a + width;
    return Math.min(coding.hi, a + rng.nextFloat() * (b - a));
  }
  const [start, end] = integerBinRange(level, coding);
  const inside = points.filter((p) => p >= start && p < end);
  const free = end - start - inside.length;
  if (free <= 0) return start + drawBelow(rng, end - start);
  // The k-th integer of the bin that is not a point mass: step over each point mass at or below it.
  let value = start + drawBelow(rng, free);
  for (const p of inside) if (p <= value) value++;
  return value;
}

/** Uniform on 0 … size − 1; sizes above 2^32 (bounds far apart) are drawn as a bigint. */
function drawBelow(rng: Rng, size: number): number {
  return size <= 2 ** 32 ? uniformInt(rng, size) : Number(uniformBigInt(rng, BigInt(size)));
}

/** [start, end): the integers of bin j of an integer coding, by the learned edges or equal runs. */
export function integerBinRange(level: number, coding: IntegerBinCoding): [number, number] {
  if (coding.quantile) {
    const edges = learnedEdges(coding);
    const start = level === 0 ? coding.first : edges[level - 1]!;
    const end = level === coding.bins - 1 ? coding.first + coding.count : edges[level]!;
    return [start, end];
  }
  const run = (j: number) => Math.floor((j * coding.count + coding.bins - 1) / coding.bins);
  return [coding.first + run(level), coding.first + run(level + 1)];
}

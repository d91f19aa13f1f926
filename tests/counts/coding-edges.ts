import { numericThresholds } from '../../src/core/counts/coder-probe';
import type { ColumnCoding } from '../../src/core/mechanisms/common/coding/column-coding';
import type { ColumnSchema, Schema } from '../../src/core/table/types';

/** A 32-bit generator for test data (mulberry32): fixed seeds, no Math.random. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The next double above x (and below, with nextDown). */
export function nextUp(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x === 0 ? 0 : x);
  const bits = view.getBigInt64(0);
  view.setBigInt64(0, x >= 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}
export const nextDown = (x: number): number => -nextUp(-x);

/** Finite doubles at every edge of a numeric column's coding: thresholds ±1 ulp, bounds, halves, extremes, random. */
export function numericEdgeValues(
  schema: Schema,
  column: ColumnSchema,
  coding: ColumnCoding,
  random: () => number,
): number[] {
  const { thresholds } = numericThresholds(schema, column, coding);
  const values: number[] = [0, -0, 1e308, -1e308, 5e-324, -5e-324, 2 ** 53, -(2 ** 53)];
  for (const t of thresholds) values.push(t, nextUp(t), nextDown(t));
  if (column.type === 'numeric' && column.bounds) {
    for (const bound of column.bounds)
      values.push(bound, nextUp(bound), nextDown(bound), bound + 0.5, bound - 0.5);
  }
  for (let k = -40; k <= 40; k++) values.push(k / 2, k / 2 + 1e-9, k / 2 - 1e-9);
  const [lo, hi] = column.type === 'numeric' && column.bounds ? column.bounds : [-10, 10];
  for (let i = 0; i < 200; i++) values.push(lo - 2 + (hi - lo + 4) * random());
  return values;
}

/** Tokens that are not plain numbers, for a numeric column read as text. */
export const NUMERIC_ODD_TOKENS = [
  '',
  'NA',
  'abc',
  '1e5',
  '.5',
  '+3',
  '1.',
  '-0',
  '0x10',
  ' 1',
  '1,5',
  '1E-3',
  '-.25e1',
  'NaN',
  'null',
];

/** Category tokens at every edge: listed, blank, missing, unlisted, quotes, backslashes, case, spaces. */
export function categoricalEdgeTokens(column: ColumnSchema): string[] {
  const listed = column.type === 'categorical' ? (column.categories ?? []) : [];
  return [
    ...listed,
    ...listed,
    '',
    'NA',
    'unknown',
    'a"b',
    'back\\slash',
    "it's",
    'A',
    ' a',
    'null',
    'NaN',
    'tab\there',
  ];
}

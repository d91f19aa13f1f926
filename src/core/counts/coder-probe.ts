import { InputError } from '../table/errors';
import type { ColumnCoding } from '../mechanisms/common/coding/column-coding';
import { levelsOfColumn } from '../mechanisms/common/coding/encode-rows';
import { buildTable } from '../table/build-table';
import type { RawTable } from '../table/csv-read';
import type { ColumnSchema, Schema } from '../table/types';

/**
 * The in-memory coder asked about single values: the level each token of a column gets when a file
 * holding them is typed with the schema (buildTable: missing tokens, non-numbers, clamping, integer
 * rounding, undeclared categories, `other`) and coded (levelsOfColumn). The SQL coding is compiled
 * from these answers, never from a second copy of the rules, so the two agree by construction and a
 * change of the coder changes the SQL with it. O(tokens).
 */
export function levelsOfTokens(
  schema: Schema,
  column: ColumnSchema,
  coding: ColumnCoding,
  tokens: readonly string[],
): Uint32Array {
  const raw: RawTable = {
    fileName: 'coder probe',
    header: [column.name],
    columns: [[...tokens]],
    nRows: tokens.length,
    delimiter: ',',
  };
  const { table } = buildTable(raw, { ...schema, columns: [column] });
  return levelsOfColumn(table.columns[0]!, coding);
}

/**
 * The level of one token, or null when the coder refuses it (a missing value in a column the schema
 * says cannot be missing has no level: the in-memory run stops with an error, the SQL gives NULL and
 * the count source stops with the same reason).
 */
export function levelOfToken(
  schema: Schema,
  column: ColumnSchema,
  coding: ColumnCoding,
  token: string,
): number | null {
  try {
    return levelsOfTokens(schema, column, coding, [token])[0]!;
  } catch (error) {
    if ((error as Error).name === 'InputError') return null;
    throw error;
  }
}

/**
 * Doubles in order, as integers: ordinal(x) < ordinal(y) ⟺ x < y for finite doubles (−0 and 0 share
 * 0). Used to search the line of doubles for the first value of a level.
 */
export function ordinalOfDouble(x: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  return x < 0 ? -bits : bits;
}

/** The double with this ordinal (inverse of ordinalOfDouble). */
export function doubleOfOrdinal(ordinal: bigint): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, ordinal < 0n ? -ordinal : ordinal);
  const magnitude = view.getFloat64(0);
  return ordinal < 0n ? -magnitude : magnitude;
}

/**
 * A numeric column's coding as thresholds: level(x) = base + #{k : x ≥ thresholds[k]} for every
 * finite double x present in the column, and NaN/missing → missingLevel. The coder is monotone
 * (clamp, round, floor of an increasing affine map), so each threshold is the least double whose
 * level reaches base + k + 1; each is found by bisection over the ordered doubles (≤ 64 steps), all
 * levels at once, asking the coder through levelsOfTokens. String(x) is the shortest decimal that
 * reads back as x, so the probe tokens carry the doubles exactly.
 */
export interface NumericThresholds {
  base: number;
  thresholds: number[];
  /** The level of a missing value, null when the column cannot be missing. */
  missingLevel: number | null;
}

export function numericThresholds(
  schema: Schema,
  column: ColumnSchema,
  coding: ColumnCoding,
): NumericThresholds {
  // Point-mass levels are not monotone in the value, and quantile edges come from the rows.
  if (coding.kind !== 'categorical' && (coding.points !== undefined || coding.quantile !== undefined)) {
    throw new InputError(
      `numeric column \`${coding.name}\` has point masses or quantile bins, which a count source cannot code yet: ` +
        'run on the data in memory, or drop "pointMasses" from the schema and use equal-width bins.',
    );
  }
  const levelOf = (values: readonly number[]) =>
    levelsOfTokens(
      schema,
      column,
      coding,
      values.map((value) => String(value)),
    );
  const missingLevel = levelOfToken(schema, column, coding, schema.missing[0] ?? '');
  const [base, top] = levelOf([-Number.MAX_VALUE, Number.MAX_VALUE]);
  const steps = top! - base!;
  // For step k: the least ordinal whose level is ≥ base + k + 1 lies in (low, high].
  const low = new Array<bigint>(steps).fill(ordinalOfDouble(-Number.MAX_VALUE));
  const high = new Array<bigint>(steps).fill(ordinalOfDouble(Number.MAX_VALUE));
  for (;;) {
    const open: number[] = [];
    for (let k = 0; k < steps; k++) if (high[k]! - low[k]! > 1n) open.push(k);
    if (open.length === 0) break;
    const middles = open.map((k) => doubleOfOrdinal(low[k]! + (high[k]! - low[k]!) / 2n));
    const levels = levelOf(middles);
    open.forEach((k, i) => {
      const middle = ordinalOfDouble(middles[i]!);
      if (levels[i]! >= base! + k + 1) high[k] = middle;
      else low[k] = middle;
    });
  }
  return { base: base!, thresholds: high.map(doubleOfOrdinal), missingLevel };
}

/**
 * A categorical column's coding as a token map: the level of every listed category and missing token,
 * and the level of any other token (`other` when the schema names one, else the missing level).
 */
export interface CategoryLevels {
  levelOfToken: Map<string, number | null>;
  otherLevel: number | null;
}

export function categoryLevels(schema: Schema, column: ColumnSchema, coding: ColumnCoding): CategoryLevels {
  const listed = [
    ...new Set([...(column.type === 'categorical' ? (column.categories ?? []) : []), ...schema.missing]),
  ];
  let unlisted = '\uE000';
  while (listed.includes(unlisted)) unlisted += '\uE000';
  return {
    levelOfToken: new Map(listed.map((token) => [token, levelOfToken(schema, column, coding, token)])),
    otherLevel: levelOfToken(schema, column, coding, unlisted),
  };
}

import type { NumericColumn, NumericColumnSchema } from './types';
import type { StoredColumn } from './stored-column';
import type { ColumnValidation } from './validation-report';
import { isNumericToken, parseNumericToken } from './numeric-token';
import { PAGE_SIZE } from './paged-array';
import { roundHalfAwayFromZero } from './round-half-away-from-zero';

function emptyValidation(name: string): ColumnValidation {
  return {
    name,
    missing: 0,
    clampedBelow: 0,
    clampedAbove: 0,
    nonNumeric: 0,
    undeclared: [],
    roundedToInteger: 0,
  };
}

/** Clamps into [lower, upper], then rounds in an integer column; counts each change. */
class NumberTyping {
  private readonly lower: number;
  private readonly upper: number;
  private readonly integer: boolean;
  private readonly integerLower: number;
  private readonly integerUpper: number;

  constructor(
    schema: NumericColumnSchema,
    private readonly validation: ColumnValidation,
  ) {
    this.lower = schema.bounds?.[0] ?? -Infinity;
    this.upper = schema.bounds?.[1] ?? Infinity;
    this.integer = schema.integer === true;
    this.integerLower = Math.ceil(this.lower);
    this.integerUpper = Math.floor(this.upper);
  }

  /** The typed value of `value`, with its changes counted `count` times. */
  type(value: number, count: number): number {
    let typed = value;
    if (typed < this.lower) {
      typed = this.lower;
      this.validation.clampedBelow += count;
    } else if (typed > this.upper) {
      typed = this.upper;
      this.validation.clampedAbove += count;
    }
    if (this.integer && !Number.isInteger(typed)) {
      typed = Math.min(Math.max(roundHalfAwayFromZero(typed), this.integerLower), this.integerUpper);
      this.validation.roundedToInteger += count;
    }
    return typed;
  }
}

/**
 * Types one numeric column: missing tokens → missing; tokens that are not numbers (normative pattern)
 * → counted as nonNumeric and missing; values outside declared bounds → clamped to the bound and
 * counted; for integer columns, non-whole values → rounded half away from zero (then kept inside the
 * integers within the bounds) and counted. `checkpoint(rowsDone)` is called every page of rows.
 * A dictionary column is typed once per distinct token, then copied per row; in a `numbers` column
 * a numeric missing token ("-999") matches by value. O(rows).
 */
export function buildNumericColumn(
  stored: StoredColumn,
  schema: NumericColumnSchema,
  missingTokens: ReadonlySet<string>,
  checkpoint: (rowsDone: number) => void,
): { column: NumericColumn; validation: ColumnValidation } {
  const nRows = stored.length;
  const values = new Float64Array(nRows);
  const missing = new Uint8Array(nRows);
  const validation = emptyValidation(schema.name);
  const typing = new NumberTyping(schema, validation);
  if (stored.mode === 'dictionary') {
    const entryValue = new Float64Array(stored.tokens.length);
    const entryMissing = new Uint8Array(stored.tokens.length);
    stored.tokens.forEach((token, entry) => {
      const count = stored.counts[entry]!;
      if (missingTokens.has(token) || !isNumericToken(token)) {
        if (missingTokens.has(token)) validation.missing += count;
        else validation.nonNumeric += count;
        entryValue[entry] = NaN;
        entryMissing[entry] = 1;
      } else {
        entryValue[entry] = typing.type(parseNumericToken(token), count);
      }
    });
    stored.codes.pages.forEach((page, p) => {
      const offset = p * PAGE_SIZE;
      checkpoint(offset);
      const rows = Math.min(PAGE_SIZE, nRows - offset);
      for (let k = 0; k < rows; k++) {
        const entry = page[k]!;
        values[offset + k] = entryValue[entry]!;
        missing[offset + k] = entryMissing[entry]!;
      }
    });
    return { column: { kind: 'numeric', name: schema.name, values, missing }, validation };
  }
  const otherMissing = stored.otherTokens.map((token) => missingTokens.has(token));
  stored.otherTokens.forEach((_, k) => {
    if (otherMissing[k]) validation.missing += stored.otherCounts[k]!;
    else validation.nonNumeric += stored.otherCounts[k]!;
  });
  const missingValues = new Set<number>();
  for (const token of missingTokens) if (isNumericToken(token)) missingValues.add(parseNumericToken(token));
  stored.values.pages.forEach((page, p) => {
    const offset = p * PAGE_SIZE;
    checkpoint(offset);
    const codes = stored.otherCodes.pages[p]!;
    const rows = Math.min(PAGE_SIZE, nRows - offset);
    for (let k = 0; k < rows; k++) {
      const i = offset + k;
      if (codes[k] !== 0 || (missingValues.size > 0 && missingValues.has(page[k]!))) {
        if (codes[k] === 0) validation.missing++;
        values[i] = NaN;
        missing[i] = 1;
        continue;
      }
      values[i] = typing.type(page[k]!, 1);
    }
  });
  return { column: { kind: 'numeric', name: schema.name, values, missing }, validation };
}

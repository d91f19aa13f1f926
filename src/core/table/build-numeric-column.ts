import type { NumericColumn, NumericColumnSchema } from './types';
import type { ColumnValidation } from './validation-report';
import { isNumericToken, parseNumericToken } from './numeric-token';
import { roundHalfAwayFromZero } from './round-half-away-from-zero';
import { ROWS_PER_CHECKPOINT } from './row-checkpoints';

/**
 * Types one numeric column: missing tokens → missing; tokens that are not numbers (normative pattern)
 * → counted as nonNumeric and missing; values outside declared bounds → clamped to the bound and
 * counted; for integer columns, non-whole values → rounded half away from zero (then kept inside the
 * integers within the bounds) and counted. `checkpoint(rowsDone)` is called every ROWS_PER_CHECKPOINT
 * rows. O(rows).
 */
export function buildNumericColumn(
  tokens: string[],
  schema: NumericColumnSchema,
  missingTokens: ReadonlySet<string>,
  checkpoint: (rowsDone: number) => void,
): { column: NumericColumn; validation: ColumnValidation } {
  const nRows = tokens.length;
  const values = new Float64Array(nRows);
  const missing = new Uint8Array(nRows);
  const lower = schema.bounds?.[0] ?? -Infinity;
  const upper = schema.bounds?.[1] ?? Infinity;
  const integer = schema.integer === true;
  const integerLower = Math.ceil(lower);
  const integerUpper = Math.floor(upper);
  const validation: ColumnValidation = {
    name: schema.name,
    missing: 0,
    clampedBelow: 0,
    clampedAbove: 0,
    nonNumeric: 0,
    undeclared: [],
    roundedToInteger: 0,
  };
  for (let start = 0; start < nRows; start += ROWS_PER_CHECKPOINT) {
    checkpoint(start);
    const end = Math.min(nRows, start + ROWS_PER_CHECKPOINT);
    for (let i = start; i < end; i++) {
      const token = tokens[i]!;
      if (missingTokens.has(token) || !isNumericToken(token)) {
        if (missingTokens.has(token)) validation.missing++;
        else validation.nonNumeric++;
        values[i] = NaN;
        missing[i] = 1;
        continue;
      }
      let value = parseNumericToken(token);
      if (value < lower) {
        value = lower;
        validation.clampedBelow++;
      } else if (value > upper) {
        value = upper;
        validation.clampedAbove++;
      }
      if (integer && !Number.isInteger(value)) {
        value = Math.min(Math.max(roundHalfAwayFromZero(value), integerLower), integerUpper);
        validation.roundedToInteger++;
      }
      values[i] = value;
    }
  }
  return { column: { kind: 'numeric', name: schema.name, values, missing }, validation };
}

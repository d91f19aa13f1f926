import { integersInBounds, scottBinCountFromPublicRange } from '../mechanisms/common/coding/bin-count-rules';
import type { Schema } from '../table/types';

/**
 * One column as a recommendation sees it: its kind and its number of levels in the default coding
 * (categories or Scott's bins from the declared bounds, plus the missing-value level of every column
 * that can be missing), or null when the schema does not state enough to count them.
 */
export interface ColumnFacts {
  name: string;
  kind: 'numeric' | 'categorical';
  levels: number | null;
}

/**
 * The public facts a recommendation reads: n (public under replace-one), the columns, ε, δ and the
 * label column if one is named. Nothing here comes from the data's values.
 */
export interface TableFacts {
  rows: number;
  columns: ColumnFacts[];
  epsilon: number;
  delta: number;
  label: string | null;
}

/**
 * Levels of a column in the histogram mechanisms' default coding (mechanisms/common/coding/column-coding.ts):
 * categorical k categories + 1; numeric with bounds ceil(6·n^(1/3)/3.49) bins (Scott's rule with
 * σ = range/6; at most the whole numbers in the bounds for an integer column) + 1; otherwise null.
 */
function levelsOf(column: Schema['columns'][number], rows: number): number | null {
  // A column the schema declares complete (canBeMissing: false) gets no missing level.
  const missing = (column as { canBeMissing?: boolean }).canBeMissing === false ? 0 : 1;
  if (column.type === 'categorical') return column.categories ? column.categories.length + missing : null;
  if (!column.bounds) return null;
  const scott = scottBinCountFromPublicRange(rows);
  const bins = column.integer
    ? Math.max(1, Math.min(scott, integersInBounds(column.bounds[0], column.bounds[1])))
    : scott;
  return bins + missing;
}

/** The public facts of a schema with n rows, budget ε and δ, and an optional label column. */
export function tableFacts(
  schema: Schema,
  rows: number,
  epsilon: number,
  delta: number,
  label: string | null = null,
): TableFacts {
  return {
    rows,
    columns: schema.columns.map((column) => ({
      name: column.name,
      kind: column.type,
      levels: levelsOf(column, rows),
    })),
    epsilon,
    delta,
    label,
  };
}

/**
 * Cells of the full cross-tabulation, Π levels, or null when a column's levels are unknown. A
 * double: 10¹⁸ cells and more are not exact integers, which does not matter for a comparison.
 */
export function crossTabulationCells(facts: TableFacts): number | null {
  let cells = 1;
  for (const column of facts.columns) {
    if (column.levels === null) return null;
    cells *= column.levels;
  }
  return cells;
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** A cell count for a sentence: "1,083" below 10⁶, otherwise "1.2·10¹⁸". */
export function formatCells(cells: number): string {
  if (!Number.isFinite(cells)) return 'more than 10³⁰⁸';
  if (cells < 1e6) return Math.round(cells).toLocaleString('en-US');
  let exponent = Math.floor(Math.log10(cells));
  let mantissa = Number((cells / 10 ** exponent).toFixed(1));
  if (mantissa >= 10) {
    mantissa /= 10;
    exponent += 1;
  }
  const digits = String(exponent)
    .split('')
    .map((d) => SUPERSCRIPT[Number(d)])
    .join('');
  return `${mantissa.toFixed(1)}·10${digits}`;
}

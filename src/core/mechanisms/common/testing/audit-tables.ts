import type { Schema, Table } from '../../../table/types';
import { categoricalColumn } from './fixtures';

/**
 * The small fixed table of the noise audits and empirical privacy tests: two categorical columns,
 * x ∈ {a, b} and y ∈ {u, v}, n = 10 rows, one value of x missing. With a missing level per column
 * the cross-tabulation has 3 × 3 = 9 cells. Rows: (a,u)×4, (a,v)×2, (b,u)×1, (b,v)×2, (–,u)×1.
 */
export function auditTable(): { table: Table; schema: Schema } {
  const rows: [string | null, string][] = [
    ['a', 'u'],
    ['a', 'u'],
    ['a', 'u'],
    ['a', 'u'],
    ['a', 'v'],
    ['a', 'v'],
    ['b', 'u'],
    ['b', 'v'],
    ['b', 'v'],
    [null, 'u'],
  ];
  return {
    table: {
      nRows: rows.length,
      columns: [
        categoricalColumn(
          'x',
          rows.map((r) => r[0]),
        ),
        categoricalColumn(
          'y',
          rows.map((r) => r[1]),
        ),
      ],
    },
    schema: {
      version: 1,
      missing: [''],
      columns: [
        { name: 'x', type: 'categorical', categories: ['a', 'b'], source: 'declared' },
        { name: 'y', type: 'categorical', categories: ['u', 'v'], source: 'declared' },
      ],
    },
  };
}

/**
 * The 9 cell counts of auditTable(), the audited cell (x = a, y = u) first; the order of the
 * others does not matter to the distributions used.
 */
export const AUDIT_CELL_COUNTS: readonly number[] = [4, 2, 0, 1, 2, 0, 1, 0, 0];

/** The 3 level counts of column x in auditTable(), level a first: a, b, missing. */
export const AUDIT_X_MARGINAL: readonly number[] = [6, 3, 1];

/**
 * The index in AUDIT_CELL_COUNTS of an empty cell, (x = a, y missing): audits look at an empty cell too,
 * so that noise (or prior mass) skipped or shrunk where nothing was counted is seen.
 */
export const AUDIT_EMPTY_CELL = 2;

/** The 3 level counts of column y, the empty missing level first: missing, u, v. */
export const AUDIT_Y_MARGINAL_MISSING_FIRST: readonly number[] = [0, 6, 4];

/** Synthetic rows of a dataset whose column `name` has category `value`. */
export function rowsWithCategory(dataset: Table, name: string, value: string): number {
  const column = dataset.columns.find((c) => c.name === name);
  if (!column || column.kind !== 'categorical') throw new Error(`no categorical column ${name}`);
  const code = column.dictionary.indexOf(value);
  let count = 0;
  for (let i = 0; i < dataset.nRows; i++) if (!column.missing[i] && column.codes[i] === code) count++;
  return count;
}

/** Synthetic rows with x = a and y = u: the audited cell of the cross-tabulation. */
export function rowsInAuditedCell(dataset: Table): number {
  const x = dataset.columns.find((c) => c.name === 'x');
  const y = dataset.columns.find((c) => c.name === 'y');
  if (x?.kind !== 'categorical' || y?.kind !== 'categorical') throw new Error('audit columns missing');
  const a = x.dictionary.indexOf('a');
  const u = y.dictionary.indexOf('u');
  let count = 0;
  for (let i = 0; i < dataset.nRows; i++) {
    if (!x.missing[i] && !y.missing[i] && x.codes[i] === a && y.codes[i] === u) count++;
  }
  return count;
}

/** Synthetic rows with x = a and y missing: the empty cell AUDIT_EMPTY_CELL of the cross-tabulation. */
export function rowsInEmptyAuditedCell(dataset: Table): number {
  const x = dataset.columns.find((c) => c.name === 'x');
  const y = dataset.columns.find((c) => c.name === 'y');
  if (x?.kind !== 'categorical' || y?.kind !== 'categorical') throw new Error('audit columns missing');
  const a = x.dictionary.indexOf('a');
  let count = 0;
  for (let i = 0; i < dataset.nRows; i++) if (!x.missing[i] && x.codes[i] === a && y.missing[i]) count++;
  return count;
}

/** Synthetic rows whose column `name` is missing. */
export function rowsMissing(dataset: Table, name: string): number {
  const column = dataset.columns.find((c) => c.name === name);
  if (!column) throw new Error(`no column ${name}`);
  let count = 0;
  for (let i = 0; i < dataset.nRows; i++) count += column.missing[i]!;
  return count;
}

import type { CategoricalColumn, Column, NumericColumn, Table } from './types';
import { compareByCodePoint } from './code-point-order';

/** Plain values for one column; null (and NaN for numbers) means missing. */
export type ColumnValuesSpec =
  | { name: string; kind: 'numeric'; values: ArrayLike<number | null> }
  | { name: string; kind: 'categorical'; values: ArrayLike<string | null>; dictionary?: string[] };

function numericColumnFromValues(name: string, source: ArrayLike<number | null>): NumericColumn {
  const values = new Float64Array(source.length);
  const missing = new Uint8Array(source.length);
  for (let i = 0; i < source.length; i++) {
    const value = source[i];
    if (value === null || value === undefined || Number.isNaN(value)) {
      values[i] = NaN;
      missing[i] = 1;
    } else {
      values[i] = value;
    }
  }
  return { kind: 'numeric', name, values, missing };
}

function categoricalColumnFromValues(
  name: string,
  source: ArrayLike<string | null>,
  givenDictionary: string[] | undefined,
): CategoricalColumn {
  let dictionary = givenDictionary;
  if (dictionary === undefined) {
    const distinct = new Set<string>();
    for (let i = 0; i < source.length; i++) if (source[i] !== null) distinct.add(source[i]!);
    dictionary = Array.from(distinct).sort(compareByCodePoint);
  }
  const codeOf = new Map(dictionary.map((level, code) => [level, code]));
  const codes = new Uint32Array(source.length);
  const missing = new Uint8Array(source.length);
  for (let i = 0; i < source.length; i++) {
    const value = source[i];
    if (value === null || value === undefined) {
      missing[i] = 1;
      continue;
    }
    const code = codeOf.get(value);
    if (code === undefined)
      throw new Error(`tableFromColumns: "${value}" is not in the dictionary of column ${name}.`);
    codes[i] = code;
  }
  return { kind: 'categorical', name, codes, dictionary: [...dictionary], missing };
}

/**
 * Builds a Table from plain arrays, for tests and mechanisms:
 * `tableFromColumns([{ name: 'x', kind: 'numeric', values: [1, 2, NaN] },
 *                    { name: 'g', kind: 'categorical', values: ['a', null, 'b'] }])`.
 * Categorical dictionaries default to the sorted distinct values (code-point order). Throws an Error
 * (a programming error, not an InputError) on unequal lengths or a value outside a given dictionary.
 */
export function tableFromColumns(specs: ColumnValuesSpec[]): Table {
  const nRows = specs.length > 0 ? specs[0]!.values.length : 0;
  const columns: Column[] = specs.map((spec) => {
    if (spec.values.length !== nRows) {
      throw new Error(
        `tableFromColumns: column ${spec.name} has ${spec.values.length} values, expected ${nRows}.`,
      );
    }
    return spec.kind === 'numeric'
      ? numericColumnFromValues(spec.name, spec.values)
      : categoricalColumnFromValues(spec.name, spec.values, spec.dictionary);
  });
  return { nRows, columns };
}

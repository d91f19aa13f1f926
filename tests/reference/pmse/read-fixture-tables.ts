import { readFileSync } from 'node:fs';
import type { Column, Table } from '../../../src/core/table/types';

/** The numeric-token pattern of shared/reference/README.md "Common preprocessing" step 3. */
const NUMBER_PATTERN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function readTokens(path: string): { header: string[]; rows: (string | null)[][] } {
  // The fixture CSVs are written by make_pmse_data.py without quotes or embedded commas.
  const lines = readFileSync(path, 'utf8').replace(/\n$/, '').split('\n');
  const header = lines[0]!.split(',');
  const rows = lines
    .slice(1)
    .map((line) => line.split(',').map((token) => (token === '' || token === 'NA' ? null : token)));
  return { header, rows };
}

function toColumn(name: string, tokens: (string | null)[], numeric: boolean): Column {
  const missing = Uint8Array.from(tokens, (token) => (token === null ? 1 : 0));
  if (numeric) {
    return {
      kind: 'numeric',
      name,
      values: Float64Array.from(tokens, (token) => (token === null ? NaN : Number(token))),
      missing,
    };
  }
  const dictionary: string[] = [];
  const index = new Map<string, number>();
  const codes = Uint32Array.from(tokens, (token) => {
    if (token === null) return 0;
    let code = index.get(token);
    if (code === undefined) {
      code = dictionary.length;
      index.set(token, code);
      dictionary.push(token);
    }
    return code;
  });
  return { kind: 'categorical', name, codes, dictionary, missing };
}

/**
 * Reads a fixture CSV pair into two Tables with the normative typing: a column is numeric iff
 * every non-missing token in both files matches the numeric pattern; "" and "NA" are missing.
 * Dictionaries are in first-seen order (deliberately not sorted: the metric must sort levels).
 */
export function readFixtureTablePair(realPath: string, synthPath: string): { real: Table; synth: Table } {
  const real = readTokens(realPath);
  const synth = readTokens(synthPath);
  const numeric = real.header.map((name, j) => {
    const k = synth.header.indexOf(name);
    const tokens = [...real.rows.map((row) => row[j]), ...synth.rows.map((row) => row[k])];
    const present = tokens.filter((token): token is string => token !== null && token !== undefined);
    return present.length > 0 && present.every((token) => NUMBER_PATTERN.test(token));
  });
  const build = (file: { header: string[]; rows: (string | null)[][] }): Table => ({
    nRows: file.rows.length,
    columns: file.header.map((name, j) =>
      toColumn(
        name,
        file.rows.map((row) => row[j] ?? null),
        numeric[real.header.indexOf(name)]!,
      ),
    ),
  });
  return { real: build(real), synth: build(synth) };
}

// Reads the committed metric fixtures (tests/fixtures/metrics) into Tables with the reference
// typing rules of reference/README.md "Common preprocessing": missing = "" or "NA"; a column is
// numeric iff every non-missing token of the real AND synthetic files matches NUMERIC_TOKEN.
// The fixtures are written without quoting, so a plain comma split is enough here.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Column, Table } from '../../../src/core/table/types';

export const METRIC_FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/metrics');

const NUMERIC_TOKEN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const MISSING_TOKENS = new Set(['', 'NA']);

interface RawCsv {
  header: string[];
  rows: string[][];
}

function readRawCsv(fileName: string): RawCsv {
  const lines = readFileSync(join(METRIC_FIXTURE_DIR, fileName), 'utf8').split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const [headerLine, ...rowLines] = lines;
  if (headerLine === undefined) throw new Error(`${fileName} is empty`);
  if (lines.some((line) => line.includes('"')))
    throw new Error(`${fileName}: quoted fields are not supported`);
  return { header: headerLine.split(','), rows: rowLines.map((line) => line.split(',')) };
}

function buildColumn(name: string, tokens: string[], numeric: boolean): Column {
  const missing = new Uint8Array(tokens.map((t) => (MISSING_TOKENS.has(t) ? 1 : 0)));
  if (numeric) {
    const values = new Float64Array(tokens.map((t, i) => (missing[i] === 1 ? NaN : Number(t))));
    return { kind: 'numeric', name, values, missing };
  }
  const dictionary: string[] = [];
  const index = new Map<string, number>();
  const codes = new Uint32Array(tokens.length);
  tokens.forEach((t, i) => {
    if (missing[i] === 1) return;
    let code = index.get(t);
    if (code === undefined) {
      code = dictionary.length;
      index.set(t, code);
      dictionary.push(t);
    }
    codes[i] = code;
  });
  return { kind: 'categorical', name, codes, dictionary, missing };
}

/** Reads a real file and any number of synthetic files with pooled typing over all of them. */
export function readFixtureTables(
  realFile: string,
  ...synthFiles: string[]
): { real: Table; synths: Table[] } {
  const raws = [realFile, ...synthFiles].map(readRawCsv);
  const header = raws[0]!.header;
  const tokensOf = (raw: RawCsv, name: string) => {
    const j = raw.header.indexOf(name);
    if (j < 0) throw new Error(`column ${name} missing`);
    return raw.rows.map((row) => row[j] ?? '');
  };
  const numeric = new Map<string, boolean>();
  for (const name of header) {
    const present = raws.flatMap((raw) => tokensOf(raw, name)).filter((t) => !MISSING_TOKENS.has(t));
    numeric.set(name, present.length > 0 && present.every((t) => NUMERIC_TOKEN.test(t)));
  }
  const toTable = (raw: RawCsv): Table => ({
    nRows: raw.rows.length,
    columns: raw.header.map((name) => buildColumn(name, tokensOf(raw, name), numeric.get(name)!)),
  });
  const [real, ...synths] = raws.map(toTable);
  return { real: real!, synths };
}

/** Parses a fixture's expected-results JSON. */
export function readFixtureJson<T>(fileName: string): T {
  return JSON.parse(readFileSync(join(METRIC_FIXTURE_DIR, fileName), 'utf8')) as T;
}

/** Real/synthetic CSV pairs that have an expected-results JSON beside them. */
export const METRIC_FIXTURE_PAIRS: { real: string; synth: string; expected: string }[] = [
  'mixed_synth.1',
  'mixed_synth.2',
  'mixed_synth.3',
  'small_ties_synth',
  'edges_synth',
  'wide_synth',
].map((synth) => ({
  real: synth.replace(/_synth.*$/, '_real.csv'),
  synth: `${synth}.csv`,
  expected: `${synth}.expected.json`,
}));

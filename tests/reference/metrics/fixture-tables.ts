// Reads the committed metric fixtures (tests/fixtures/metrics) into Tables with the reference
// typing rules of reference/README.md "Common preprocessing": missing = "" or "NA"; a column is
// numeric iff every non-missing token of the real AND synthetic files is a number.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTable, inferSchema, parseCsv } from '../../../src/core/table';
import type { Table } from '../../../src/core/table/types';

export const METRIC_FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/metrics');

/** Missing tokens of the reference definitions (reference/README.md "Common preprocessing" 1). */
const REFERENCE_MISSING_TOKENS = ['', 'NA'];

/**
 * Reads a real file and any number of synthetic files with the table module, typing columns over
 * all of them together (pooled inference, as the reference scripts do).
 */
export function readFixtureTables(
  realFile: string,
  ...synthFiles: string[]
): { real: Table; synths: Table[] } {
  const raws = [realFile, ...synthFiles].map((file) =>
    parseCsv(readFileSync(join(METRIC_FIXTURE_DIR, file), 'utf8'), { fileName: file }),
  );
  const schema = inferSchema(raws, { missing: REFERENCE_MISSING_TOKENS });
  const [real, ...synths] = raws.map((raw) => buildTable(raw, schema).table);
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

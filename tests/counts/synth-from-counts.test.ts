import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDuckDb } from '../../src/cli/count-sources/duckdb';
import { runCli } from '../../src/cli/run-cli';
import type { CliIo } from '../../src/cli/io';
import { cli, tempFiles } from '../cli/cli-harness';
import { CENSUS_LIKE_SCHEMA, censusLikeCsv } from './census-like';

/**
 * A seeded release made from counts computed elsewhere (DuckDB over CSV or Parquet, or files of query
 * results from the printed SQL) equals, byte for byte, the release made from the table in memory.
 */
const common = [
  '--schema',
  'SCHEMA',
  '--mechanism',
  'laplace-histogram',
  '--epsilon',
  '1',
  '--seed',
  '5',
  '--param',
  'bins=6',
];

function args(file: (name: string) => string, extra: string[]): string[] {
  return [...common.map((a) => (a === 'SCHEMA' ? file('s.json') : a)), ...extra];
}

describe('synth from a count source', () => {
  it('gives the in-memory release through DuckDB (CSV and Parquet) and through --counts DIR', async () => {
    const file = tempFiles({ 'data.csv': censusLikeCsv(3000), 's.json': JSON.stringify(CENSUS_LIKE_SCHEMA) });
    const memory = await cli('synth', file('data.csv'), ...args(file, ['--out', file('memory.csv')]));
    expect(memory.stderr).not.toMatch(/error/i);
    expect(memory.code).toBe(0);
    const expected = readFileSync(file('memory.not-for-release.csv'));

    const viaCsv = await cli(
      'synth',
      file('data.csv'),
      ...args(file, ['--engine', 'duckdb', '--releases', '1', '--out', file('duck.csv')]),
    );
    expect(viaCsv.stderr).toMatch(/counts computed by DuckDB \(embedded\) on/);
    expect(viaCsv.code).toBe(0);
    expect(readFileSync(file('duck.not-for-release.csv')).equals(expected)).toBe(true);
    const report = JSON.parse(readFileSync(file('duck.not-for-release.report.json'), 'utf8'));
    expect(report.countsComputedBy).toMatch(/^DuckDB \(embedded\) on /);
    const memoryReport = JSON.parse(readFileSync(file('memory.not-for-release.report.json'), 'utf8'));
    expect(report.claim).toEqual(memoryReport.claim);

    // The same data as typed Parquet columns (numbers as DOUBLE), written by DuckDB.
    const connection = await openDuckDb({ threads: 1 });
    await connection.run(
      `COPY (SELECT TRY_CAST(NULLIF(NULLIF(age, ''), 'NA') AS DOUBLE) AS age, TRY_CAST(NULLIF(NULLIF(hours, ''), 'NA') AS DOUBLE) AS hours, sex, race, education, income ` +
        `FROM read_csv('${file('data.csv')}', header = true, all_varchar = true)) TO '${file('data.parquet')}' (FORMAT parquet)`,
    );
    connection.closeSync();
    const viaParquet = await cli(
      'synth',
      file('data.parquet'),
      ...args(file, ['--engine', 'duckdb', '--out', file('pq.csv')]),
    );
    expect(viaParquet.code).toBe(0);
    expect(readFileSync(file('pq.not-for-release.csv')).equals(expected)).toBe(true);

    // Parquet out: the same rows, read back through DuckDB.
    const toParquet = await cli(
      'synth',
      file('data.parquet'),
      ...args(file, ['--engine', 'duckdb', '--out', file('out.parquet')]),
    );
    expect(toParquet.code).toBe(0);
    const check = await openDuckDb({ threads: 1 });
    const typed = (from: string) =>
      `SELECT TRY_CAST(NULLIF(age, '') AS DOUBLE) AS age, TRY_CAST(NULLIF(hours, '') AS DOUBLE) AS hours, sex, race, education, income FROM ${from}`;
    const parquet = `read_parquet('${file('out.not-for-release.parquet')}')`;
    const csv = `read_csv('${file('memory.not-for-release.csv')}', header = true, all_varchar = true)`;
    const counted = await check.runAndReadAll(
      `SELECT (SELECT count(*) FROM ${parquet}), ` +
        `(SELECT count(*) FROM (SELECT * FROM ${parquet} EXCEPT ALL ${typed(csv)})), ` +
        `(SELECT count(*) FROM (${typed(csv)} EXCEPT ALL SELECT * FROM ${parquet}))`,
    );
    check.closeSync();
    // Every row of the Parquet file is a row of the in-memory CSV release and the reverse.
    expect(counted.getRowsJS()[0]!.map(Number)).toEqual([3000, 0, 0]);

    // Printed SQL (DuckDB dialect) run by "the user", results saved as CSV files.
    const printed = await cli(
      'counts',
      '--print-sql',
      '--dialect',
      'duckdb',
      '--schema',
      file('s.json'),
      '--mechanism',
      'laplace-histogram',
      '--param',
      'bins=6',
      '--rows',
      '3000',
      '--table',
      'census',
      '--out-dir',
      file('counts'),
    );
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/-- cells\.csv \(header cell,count\)/);
    const user = await openDuckDb({ threads: 1 });
    await user.run(`CREATE VIEW census AS SELECT * FROM read_parquet('${file('data.parquet')}')`);
    for (const sqlFile of readdirSync(file('counts')).filter((name) => name.endsWith('.sql'))) {
      const result = await user.runAndReadAll(readFileSync(join(file('counts'), sqlFile), 'utf8'));
      const header = result.columnNames().join(',');
      const body = result.getRowsJS().map((row) => row.map(String).join(','));
      writeFileSync(
        join(file('counts'), sqlFile.replace(/\.sql$/, '.csv')),
        [header, ...body].join('\n') + '\n',
      );
    }
    user.closeSync();
    const viaFiles = await cli(
      'synth',
      ...args(file, ['--counts', file('counts'), '--out', file('files.csv')]),
    );
    expect(viaFiles.stderr).toMatch(/counts computed by the user's SQL engine/);
    expect(viaFiles.code).toBe(0);
    expect(readFileSync(file('files.not-for-release.csv')).equals(expected)).toBe(true);
  });

  it('gives the in-memory MST release through DuckDB', async () => {
    const file = tempFiles({ 'data.csv': censusLikeCsv(3000), 's.json': JSON.stringify(CENSUS_LIKE_SCHEMA) });
    const mst = [
      '--schema',
      file('s.json'),
      '--mechanism',
      'mst',
      '--epsilon',
      '1',
      '--delta',
      '1e-9',
      '--seed',
      '3',
      '--param',
      'iterations=100',
      '--releases',
      '2',
    ];
    const memory = await cli('synth', file('data.csv'), ...mst, '--out', file('memory.csv'));
    expect(memory.code).toBe(0);
    const duck = await cli(
      'synth',
      file('data.csv'),
      ...mst,
      '--engine',
      'duckdb',
      '--out',
      file('duck.csv'),
    );
    expect(duck.stderr).toMatch(/counts computed by DuckDB/);
    expect(duck.code).toBe(0);
    for (const k of [1, 2]) {
      expect(
        readFileSync(file(`duck.not-for-release.${k}.csv`)).equals(
          readFileSync(file(`memory.not-for-release.${k}.csv`)),
        ),
      ).toBe(true);
    }
    const report = JSON.parse(readFileSync(file('duck.not-for-release.report.json'), 'utf8'));
    const memoryReport = JSON.parse(readFileSync(file('memory.not-for-release.report.json'), 'utf8'));
    expect(report.claim).toEqual(memoryReport.claim);
  });

  it('counts in the ledger a run that fails after drawing noise (exit 1, nothing written)', async () => {
    const file = tempFiles({ 'data.csv': censusLikeCsv(500), 's.json': JSON.stringify(CENSUS_LIKE_SCHEMA) });
    let stderr = '';
    // The progress report of the sampling comes after every MST draw: failing there fails after spending.
    const io: CliIo = {
      out: () => undefined,
      err: (text) => (stderr += text),
      progress: (_fraction, message) => {
        if (message?.startsWith('drawing release')) throw new Error('sampling failed');
      },
    };
    const code = await runCli(
      [
        'synth',
        file('data.csv'),
        ...['--schema', file('s.json'), '--mechanism', 'mst', '--epsilon', '1', '--delta', '1e-9'],
        ...['--seed', '3', '--engine', 'duckdb', '--out', file('out.csv'), '--ledger', file('ledger.json')],
        '--progress',
      ],
      io,
    );
    expect(code).toBe(1);
    expect(stderr).toContain('The run failed after drawing noise on the data');
    expect(stderr).toContain(`The ledger ${file('ledger.json')} counts this run`);
    const lines = readFileSync(file('ledger.json'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      kind: 'run',
      mechanism: 'mst',
      epsilon: 1,
      delta: 1e-9,
      runs: 1,
    });
    expect(JSON.parse(lines[0]!).what).toMatch(
      /^run on counts by DuckDB .* refused after its budget was spent/,
    );
    expect(readdirSync(dirname(file('out.csv'))).some((name) => name.includes('out'))).toBe(false);
  });

  it('refuses a mechanism that needs rows, with the reason, and a counts folder of another plan', async () => {
    const file = tempFiles({ 'data.csv': censusLikeCsv(200), 's.json': JSON.stringify(CENSUS_LIKE_SCHEMA) });
    const refused = await cli(
      'synth',
      file('data.csv'),
      '--schema',
      file('s.json'),
      '--mechanism',
      'pmse-mechanism',
      '--epsilon',
      '1',
      '--engine',
      'duckdb',
      '--out',
      file('x.csv'),
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /pmse-mechanism cannot take its data from a count source .*propensity trees/,
    );
    await cli(
      'counts',
      '--print-sql',
      '--schema',
      file('s.json'),
      '--mechanism',
      'laplace-histogram',
      '--param',
      'bins=6',
      '--rows',
      '200',
      '--table',
      't',
      '--out-dir',
      file('c'),
    );
    const other = await cli(
      'synth',
      '--schema',
      file('s.json'),
      '--mechanism',
      'laplace-histogram',
      '--epsilon',
      '1',
      '--param',
      'bins=5',
      '--counts',
      file('c'),
      '--out',
      file('y.csv'),
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/planned for laplace-histogram with parameters .*Print the queries again/);
  });
});

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cli, tempFiles } from '../cli/cli-harness';
import { CENSUS_LIKE_SCHEMA, censusLikeCsv } from '../counts/census-like';

/**
 * The two-shard cluster: a census-shaped table split over the shards' MergeTree tables behind a
 * Distributed table; a seeded release with its counts computed on the cluster equals, byte for byte,
 * the release from the same rows in memory, and its rows can be inserted back into the cluster.
 */
const ports = () => inject('clickhouseHttpPorts');
async function query(shard: number, sql: string, body?: string): Promise<string> {
  const url = `http://127.0.0.1:${ports()[shard]}`;
  const target = body === undefined ? `${url}/` : `${url}/?${new URLSearchParams({ query: sql })}`;
  const response = await fetch(target, { method: 'POST', body: body ?? sql });
  const text = await response.text();
  if (!response.ok) throw new Error(text);
  return text;
}

const COLUMNS =
  'age Nullable(Float64), hours Nullable(Float64), sex String, race String, education String, income String';
const ROWS = 4000;

beforeAll(async () => {
  for (const shard of [0, 1]) {
    await query(shard, 'CREATE DATABASE IF NOT EXISTS census');
    await query(shard, 'DROP TABLE IF EXISTS census.people');
    await query(shard, 'DROP TABLE IF EXISTS census.people_local');
    await query(shard, `CREATE TABLE census.people_local (${COLUMNS}) ENGINE = MergeTree() ORDER BY tuple()`);
    await query(
      shard,
      'CREATE TABLE census.people AS census.people_local ENGINE = Distributed(dpsynth_shards, census, people_local, rand())',
    );
  }
  // Half the rows on each shard: numbers as Float64 (NA and blanks as NULL), categories as text.
  const lines = censusLikeCsv(ROWS).trim().split('\n').slice(1);
  const tsv = lines.map((line) => {
    const [age, hours, ...rest] = line.split(',');
    const number = (token: string) => (token === '' || token === 'NA' ? '\\N' : token);
    return [number(age!), number(hours!), ...rest.map((field) => field.replace(/^"(.*)"$/, '$1'))].join('\t');
  });
  await query(
    0,
    'INSERT INTO census.people_local FORMAT TabSeparated',
    tsv.slice(0, ROWS / 2).join('\n') + '\n',
  );
  await query(
    1,
    'INSERT INTO census.people_local FORMAT TabSeparated',
    tsv.slice(ROWS / 2).join('\n') + '\n',
  );
});

/** The rows as the cluster holds them, as a CSV for the in-memory run (NULL as the empty token). */
async function exportedCsv(): Promise<string> {
  const text = await query(0, 'SELECT * FROM census.people FORMAT TabSeparated');
  const rows = text
    .trim()
    .split('\n')
    .map((line) => line.split('\t').map((field) => (field === '\\N' ? '' : field)));
  return (
    ['age,hours,sex,race,education,income', ...rows.map((row) => row.map((f) => `"${f}"`).join(','))].join(
      '\n',
    ) + '\n'
  );
}

describe('counts on a two-shard ClickHouse cluster', () => {
  it('give the in-memory release byte for byte, and the rows go back into the cluster', async () => {
    const file = tempFiles({ 'data.csv': await exportedCsv(), 's.json': JSON.stringify(CENSUS_LIKE_SCHEMA) });
    const run = [
      '--schema',
      file('s.json'),
      '--mechanism',
      'laplace-histogram',
      '--epsilon',
      '1',
      '--seed',
      '9',
      '--param',
      'bins=6',
    ];
    const memory = await cli('synth', file('data.csv'), ...run, '--out', file('memory.csv'));
    expect(memory.code).toBe(0);
    const source = `clickhouse://127.0.0.1:${ports()[0]}/census.people`;
    const cluster = await cli('synth', ...run, '--source', source, '--out', file('cluster.csv'));
    expect(cluster.stderr).toMatch(
      /counts computed by ClickHouse at clickhouse:\/\/127\.0\.0\.1:\d+\/census\.people/,
    );
    expect(cluster.code).toBe(0);
    const expected = readFileSync(file('memory.not-for-release.csv'));
    expect(readFileSync(file('cluster.not-for-release.csv')).equals(expected)).toBe(true);

    const inserted = await cli(
      'synth',
      ...run,
      '--source',
      source,
      '--out',
      `clickhouse://127.0.0.1:${ports()[0]}/census.synthetic`,
      '--report',
      file('inserted.report.json'),
    );
    expect(inserted.code).toBe(0);
    const report = JSON.parse(readFileSync(file('inserted.report.json'), 'utf8'));
    expect(report.countsComputedBy).toMatch(/^ClickHouse at /);
    const back = await query(0, 'SELECT * FROM census.synthetic FORMAT TabSeparated');
    // A missing value: NULL in the cluster, an empty cell in the CSV.
    const key = (fields: string[]) =>
      JSON.stringify(fields.map((f, j) => (f === '' || f === '\\N' ? null : j < 2 ? Number(f) : f)));
    const fromCluster = back
      .trim()
      .split('\n')
      .map((line) => key(line.split('\t')))
      .sort();
    const fromCsv = expected
      .toString()
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => key(line.split(',')))
      .sort();
    expect(fromCluster.length).toBe(ROWS);
    expect(fromCluster).toEqual(fromCsv);
  });

  it('give the in-memory MST release byte for byte', async () => {
    const file = tempFiles({ 'data.csv': await exportedCsv(), 's.json': JSON.stringify(CENSUS_LIKE_SCHEMA) });
    const run = [
      '--schema',
      file('s.json'),
      '--mechanism',
      'mst',
      '--epsilon',
      '1',
      '--delta',
      '1e-9',
      '--seed',
      '4',
      '--param',
      'iterations=100',
    ];
    const memory = await cli('synth', file('data.csv'), ...run, '--out', file('memory.csv'));
    expect(memory.code).toBe(0);
    const cluster = await cli(
      'synth',
      ...run,
      '--source',
      `clickhouse://127.0.0.1:${ports()[1]}/census.people`,
      '--out',
      file('cluster.csv'),
    );
    expect(cluster.code).toBe(0);
    expect(
      readFileSync(file('cluster.not-for-release.csv')).equals(
        readFileSync(file('memory.not-for-release.csv')),
      ),
    ).toBe(true);
  });

  it('refuses a mechanism that reads rows, and an unreachable server, with clear messages', async () => {
    const file = tempFiles({ 's.json': JSON.stringify(CENSUS_LIKE_SCHEMA) });
    const refused = await cli(
      'synth',
      '--schema',
      file('s.json'),
      '--mechanism',
      'clustmix',
      '--epsilon',
      '1',
      '--source',
      `clickhouse://127.0.0.1:${ports()[0]}/census.people`,
      '--out',
      file('x.csv'),
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/clustmix cannot take its data from a count source .*k-means/);
    const missingTable = await cli(
      'synth',
      '--schema',
      file('s.json'),
      '--mechanism',
      'laplace-histogram',
      '--epsilon',
      '1',
      '--source',
      `clickhouse://127.0.0.1:${ports()[0]}/census.nothing`,
      '--out',
      file('y.csv'),
    );
    expect(missingTable.code).toBe(1);
    expect(missingTable.stderr).toMatch(
      /ClickHouse at http:\/\/127\.0\.0\.1:\d+ refused a query: .*census\.nothing/,
    );
  });
});

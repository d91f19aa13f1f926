import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCsvFile } from '../../src/cli/io';
import { resolveParams } from '../../src/core/mechanisms/params';
import { getMechanism } from '../../src/core/mechanisms/registry';
import { makeRng } from '../../src/core/rng/make-rng';
import { buildTable } from '../../src/core/table/build-table';
import { csvChunks } from '../../src/core/table/csv-write';
import { parseSchemaJson } from '../../src/core/table/schema-json';
import { cliWith, MIXED_SCHEMA, mixedCsv, tempFiles } from './cli-harness';

// `dpsynth synth` writes each synthetic CSV block by block (65,536 rows a block). On a small file in
// blocks of 7 rows the CSVs must be, byte for byte, what the whole-table run (`run`) of the same seed
// gives written at once (csvChunks): for a mechanism that hands out its rows in blocks (runInBlocks,
// whose seeded blocks replay the whole run's draws) and for one whose whole tables the command cuts.

const ROWS = 60; // 8 blocks of 7 rows and one of 4
const BLOCK_ROWS = 7;
const SEED = 'blocks';

/** The synthetic CSVs of `run` with the CLI's inputs and seed, each written whole. */
async function wholeRunCsvs(
  mechanismId: string,
  dataPath: string,
  schemaPath: string,
  releases: number,
): Promise<string[]> {
  const mechanism = getMechanism(mechanismId)!;
  const schema = parseSchemaJson(readFileSync(schemaPath, 'utf8'), schemaPath);
  const { table } = buildTable(await readCsvFile(dataPath), schema);
  const release = await mechanism.run(table, schema, resolveParams(mechanism, {}), {
    n: table.nRows,
    schema,
    epsilon: '1',
    delta: 0,
    releases,
    seeded: true,
    rng: makeRng(SEED),
    progress: () => {},
    signal: { aborted: false },
  });
  return release.datasets.map((dataset) => [...csvChunks(dataset)].join(''));
}

describe.each([
  ['laplace-histogram', true],
  ['dp-sequential-regression', false],
] as const)('dpsynth synth --seed in blocks of 7 rows: %s', (mechanismId, inBlocks) => {
  it('writes the CSVs of the whole-table run of the same seed, byte for byte', async () => {
    expect(getMechanism(mechanismId)!.runInBlocks !== undefined).toBe(inBlocks);
    const path = tempFiles({ 'data.csv': mixedCsv(ROWS), 's.json': JSON.stringify(MIXED_SCHEMA) });
    const result = await cliWith(
      { releaseBlockRows: BLOCK_ROWS },
      ...['synth', path('data.csv'), '--schema', path('s.json'), '--mechanism', mechanismId],
      ...['--epsilon', '1', '--releases', '2', '--seed', SEED, '--progress'],
      ...['--out', path('synth.csv'), '--report', path('report.json')],
    );
    expect(result.stderr).not.toMatch(/error/);
    expect(result.code).toBe(0);
    // The CSVs were written in blocks of 7: per CSV the header, then one piece per block (9 blocks).
    // With the default block size each would be two pieces (header and rows), 4 in all.
    expect(result.progress.filter((message) => message === 'writing')).toHaveLength(2 * (1 + 9));
    const expected = await wholeRunCsvs(mechanismId, path('data.csv'), path('s.json'), 2);
    expect(expected[0]!.split('\n')).toHaveLength(1 + ROWS + 1);
    for (const [r, csv] of expected.entries()) {
      const written = readFileSync(path(`synth.not-for-release.${r + 1}.csv`));
      expect(written.equals(Buffer.from(csv, 'utf8')), `release ${r + 1}`).toBe(true);
    }
  });
});

// A block size that is not a whole number ≥ 1 is refused before the data is read or any budget is
// reserved, whether or not the mechanism hands out its rows in blocks: NaN would write a CSV of only
// its header, and 0 would never finish.
describe.each([
  ['laplace-histogram', true],
  ['dp-sequential-regression', false],
] as const)('dpsynth synth with a bad internal block size: %s', (mechanismId, inBlocks) => {
  it.each([Number.NaN, 0, -7, 2.5])('refuses blocks of %s rows and writes nothing', async (blockRows) => {
    expect(getMechanism(mechanismId)!.runInBlocks !== undefined).toBe(inBlocks);
    const path = tempFiles({ 'data.csv': mixedCsv(ROWS), 's.json': JSON.stringify(MIXED_SCHEMA) });
    const result = await cliWith(
      { releaseBlockRows: blockRows },
      ...['synth', path('data.csv'), '--schema', path('s.json'), '--mechanism', mechanismId],
      ...['--epsilon', '1', '--seed', SEED, '--progress'],
      ...['--out', path('synth.csv'), '--report', path('report.json')],
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`blockRows must be a whole number ≥ 1; got ${blockRows}.`);
    // Nothing was read (no progress at all), so nothing was run or reserved, and no file was written.
    expect(result.progress).toEqual([]);
    expect(existsSync(path('synth.not-for-release.csv'))).toBe(false);
    expect(existsSync(path('report.json'))).toBe(false);
  });
});

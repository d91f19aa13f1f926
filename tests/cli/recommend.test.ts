import { describe, expect, it } from 'vitest';
import { cli, tempFiles } from './cli-harness';

/** The census shape of bench/census-shape.bench.ts: 14 categorical columns with 2–100 levels. */
const CENSUS_LEVELS = [85, 9, 100, 16, 7, 15, 6, 5, 2, 100, 100, 99, 42, 2];
const censusSchema = JSON.stringify({
  version: 1,
  columns: CENSUS_LEVELS.map((k, i) => ({
    name: `c${i}`,
    type: 'categorical',
    categories: Array.from({ length: k }, (_, j) => String(j)),
    source: 'declared',
  })),
  missing: [''],
});
const labelledSchema = JSON.stringify({
  version: 1,
  columns: [
    { name: 'x', type: 'numeric', bounds: [0, 1], source: 'declared' },
    { name: 'y', type: 'numeric', bounds: [0, 1], source: 'declared' },
    { name: 'class', type: 'categorical', categories: ['a', 'b'], source: 'declared' },
  ],
  missing: [''],
});

const files = tempFiles({ 'census.json': censusSchema, 'labelled.json': labelledSchema });

describe('dpsynth recommend', () => {
  it('ranks MST and AIM first for the census shape, marks them and quotes the measured figure', async () => {
    const result = await cli(
      'recommend',
      '--schema',
      files('census.json'),
      '--rows',
      '48842',
      '--epsilon',
      '1',
      '--delta',
      '1e-9',
      '--goal',
      'relationships',
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('1. mst — MST (maximum spanning tree of marginals)  [recommended]');
    expect(lines).toContain('2. aim — AIM (adaptive marginals)  [recommended]');
    expect(result.stdout).toContain('mean 2-way TVD 0.059');
    expect(result.stdout).toContain('No data was read.');
    expect(result.stdout.match(/\[recommended\]/g)).toHaveLength(2);
  });

  it('prints the ranking as JSON with --json, the same order as the text', async () => {
    const args = ['--schema', files('census.json'), '--rows', '48842', '--epsilon', '1', '--delta', '1e-9'];
    const json = await cli('recommend', ...args, '--goal', 'distributions', '--json');
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      ranking: { id: string; recommended: boolean }[];
      goal: string;
    };
    expect(parsed.goal).toBe('distributions');
    expect(parsed.ranking).toHaveLength(12);
    const text = await cli('recommend', ...args, '--goal', 'distributions');
    const textOrder = [...text.stdout.matchAll(/^\d+\. (\S+) —/gm)].map((m) => m[1]);
    expect(textOrder).toEqual(parsed.ranking.map((r) => r.id));
  });

  it('without --delta ranks the mechanisms that need δ > 0 at the default δ that synth would use', async () => {
    const result = await cli(
      'recommend',
      '--schema',
      files('census.json'),
      '--rows',
      '48842',
      '--epsilon',
      '1',
      '--goal',
      'relationships',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^1\. mst — .*\[recommended\]$/m);
    expect(result.stdout).toContain('δ is not set, so it runs at the default δ = 4e-10.');
    expect(result.stdout).toMatch(/laplace-histogram — .*\[cannot run\]/);
  });

  it('passes the label to ClustMix for --goal train-model', async () => {
    const result = await cli(
      'recommend',
      '--schema',
      files('labelled.json'),
      '--rows',
      '5000',
      '--epsilon',
      '1',
      '--delta',
      '1e-6',
      '--goal',
      'train-model',
      '--label',
      'class',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^1\. clustmix — .*\[recommended\]$/m);
    expect(result.stdout).toContain('Settings: --param label=class');
  });

  const base = ['--schema', files('labelled.json'), '--epsilon', '1'];
  it.each([
    [['recommend', ...base, '--goal', 'relationships'], '--rows N'],
    [
      ['recommend', ...base, '--rows', '2.5', '--goal', 'relationships'],
      '--rows must be a whole number of rows, at least 1',
    ],
    [['recommend', ...base, '--rows', '0', '--goal', 'relationships'], 'got "0"'],
    [
      ['recommend', ...base, '--rows', '10'],
      '--goal relationships|train-model|distributions|regression-inference',
    ],
    [['recommend', ...base, '--rows', '10', '--goal', 'analysis'], '--goal must be one of'],
    [
      ['recommend', '--schema', files('labelled.json'), '--rows', '10', '--goal', 'relationships'],
      '--epsilon E',
    ],
    [
      [
        'recommend',
        '--schema',
        files('labelled.json'),
        '--rows',
        '10',
        '--epsilon',
        '-1',
        '--goal',
        'relationships',
      ],
      'ε',
    ],
    [
      ['recommend', ...base, '--rows', '10', '--goal', 'train-model', '--label', 'z'],
      'is not a column of the schema',
    ],
    [['recommend', ...base, '--rows', '10', '--goal', 'train-model', '--label', 'x'], 'must be categorical'],
    [
      ['recommend', ...base, '--rows', '10', '--goal', 'relationships', '--label', 'class'],
      '--label goes with --goal train-model',
    ],
    [['recommend', 'data.csv', ...base, '--rows', '10', '--goal', 'relationships'], 'reads no data file'],
    [
      [
        'recommend',
        '--schema',
        files('missing.json'),
        '--rows',
        '10',
        '--epsilon',
        '1',
        '--goal',
        'relationships',
      ],
      'missing.json',
    ],
  ])('exits 2 with a specific message on bad input (%#)', async (argv, message) => {
    const result = await cli(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('says when the schema still has facts inferred from the data', async () => {
    const inferred = tempFiles({
      'inferred.json': JSON.stringify({
        version: 1,
        columns: [{ name: 'g', type: 'categorical', categories: ['a', 'b'], source: 'inferred' }],
        missing: [''],
      }),
    });
    const result = await cli(
      'recommend',
      '--schema',
      inferred('inferred.json'),
      '--rows',
      '50',
      '--epsilon',
      '1',
      '--goal',
      'distributions',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'The schema\'s facts of g are marked "inferred": read from the data, not private.',
    );
  });

  it('is listed in help', async () => {
    const result = await cli('help');
    expect(result.stdout).toContain('dpsynth recommend --schema s.json --rows N --epsilon E');
    const own = await cli('help', 'recommend');
    expect(own.code).toBe(0);
    expect(own.stdout).toContain('Reads no data');
  });
});

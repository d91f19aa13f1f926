import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, mixedCsv, MIXED_SCHEMA, tempFiles } from './cli-harness';

describe('synth --neighbouring', () => {
  it('add-remove: the claim names the relation and its conversion, the report leaves n out', async () => {
    const path = tempFiles({ 'data.csv': mixedCsv(240), 's.json': JSON.stringify(MIXED_SCHEMA) });
    const run = await cli(
      'synth',
      path('data.csv'),
      '--schema',
      path('s.json'),
      '--mechanism',
      'dp-marginals',
      '--epsilon',
      '1',
      '--neighbouring',
      'add-remove',
      '--seed',
      'n',
      '--out',
      path('synth.csv'),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('neighbouring datasets: add-remove');
    expect(run.stderr).toContain(
      'Under replace-one neighbours (one row replaced, n public) the same run is ε = 2-DP',
    );
    const report = JSON.parse(readFileSync(path('synth.not-for-release.report.json'), 'utf8')) as {
      rows?: number;
      claim: { neighbouring: string; otherRelation: string };
      notes: string[];
    };
    expect(report.rows).toBeUndefined();
    expect(report.claim.neighbouring).toBe('add-remove');
    expect(report.notes.some((note) => note.includes('not written'))).toBe(true);
    // Nothing in the report states n = 240.
    expect(JSON.stringify(report)).not.toMatch(/\b240\b/);
  });

  it('the default is replace-one, stated with what it does not protect; the rows are written', async () => {
    const path = tempFiles({ 'data.csv': mixedCsv(240), 's.json': JSON.stringify(MIXED_SCHEMA) });
    const run = await cli(
      ...['synth', path('data.csv'), '--schema', path('s.json'), '--mechanism', 'dp-marginals'],
      ...['--epsilon', '1', '--seed', 'n', '--out', path('synth.csv')],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('neighbouring datasets: replace-one');
    const report = JSON.parse(readFileSync(path('synth.not-for-release.report.json'), 'utf8')) as {
      rows: number;
    };
    expect(report.rows).toBe(240);
  });

  it('refuses an unknown relation and a mechanism without add/remove (exit 2, with the reason)', async () => {
    const path = tempFiles({ 'data.csv': mixedCsv(40), 's.json': JSON.stringify(MIXED_SCHEMA) });
    const common = ['synth', path('data.csv'), '--schema', path('s.json'), '--epsilon', '1'];
    const bad = await cli(...common, '--mechanism', 'mst', '--neighbouring', 'swap', '--out', path('a.csv'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--neighbouring must be replace-one or add-remove');
    const unsupported = await cli(
      ...common,
      ...['--mechanism', 'smoothed-histogram', '--neighbouring', 'add-remove', '--out', path('b.csv')],
    );
    expect(unsupported.code).toBe(2);
    expect(unsupported.stderr).toContain('runs only with replace-one neighbours');
  });
});

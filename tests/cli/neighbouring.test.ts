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

  it('--ledger records an add/remove release with its relation and states a mixed total under replace-one', async () => {
    const path = tempFiles({ 'data.csv': mixedCsv(60), 's.json': JSON.stringify(MIXED_SCHEMA) });
    const synth = (out: string, ...relation: string[]) =>
      cli(
        ...['synth', path('data.csv'), '--schema', path('s.json'), '--mechanism', 'dp-marginals'],
        ...['--epsilon', '1', '--seed', 'n', ...relation, '--ledger', path('l.jsonl'), '--out', path(out)],
      );
    const first = await synth('a.csv', '--neighbouring', 'add-remove');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('records 1 release of this dataset: ε = 1 (add/remove) in total');
    const second = await synth('b.csv');
    expect(second.code, second.stderr).toBe(0);
    // The add/remove release counts as ε = 2 under replace-one (a replacement is a removal and an
    // addition, Dwork & Roth 2014, Theorem 2.2): 2 + 1 = 3.
    expect(second.stderr).toContain(
      'records 2 releases of this dataset: ε = 3 (replace-one, add/remove entries converted) in total',
    );
    const lines = readFileSync(path('l.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { neighbouring?: string }).neighbouring)).toEqual([
      'add-remove',
      'replace-one',
    ]);
    const report = JSON.parse(readFileSync(path('b.not-for-release.report.json'), 'utf8')) as {
      cumulative: { epsilon: number; neighbouring: string; converted?: number };
    };
    expect(report.cumulative).toMatchObject({ epsilon: 3, neighbouring: 'replace-one', converted: 1 });
  });
});

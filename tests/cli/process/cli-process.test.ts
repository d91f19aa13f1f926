/**
 * The dpsynth command as a separate process: exit codes (0 success, 2 bad input or usage,
 * 1 internal error; DESIGN.md §2), the files it writes and what it says on stderr. The in-process
 * tests beside this folder cover the commands' details; these check what only a real process
 * shows: the entry point's exit code, stdout/stderr separation and files on disk.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/core/table/csv-read';
import { MIXED_SCHEMA, mixedCsv, tempFiles } from '../cli-harness';
import { FAILING_CSV_WRITES, spawnCli } from './spawn-cli';

// Each spawn starts Node and tsx (about a second, several on a busy machine).
const TIMEOUT = 120_000;
const DATA = mixedCsv(300);
const SCHEMA = JSON.stringify(MIXED_SCHEMA);

function synthArgs(path: (name: string) => string, ...extra: string[]): string[] {
  return [
    'synth',
    path('data.csv'),
    '--schema',
    path('s.json'),
    '--mechanism',
    'dp-marginals',
    '--epsilon',
    '1',
    '--seed',
    '5',
    ...extra,
  ];
}

describe('dpsynth as a process', { timeout: TIMEOUT }, () => {
  it('mechanisms --json: exit 0 and the catalogue as JSON on stdout, nothing on stderr', async () => {
    const result = await spawnCli(['mechanisms', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const catalogue = JSON.parse(result.stdout) as { id: string }[];
    expect(catalogue.map((m) => m.id)).toEqual(
      expect.arrayContaining(['laplace-histogram', 'smoothed-histogram', 'dp-marginals', 'pmse-mechanism']),
    );
  });

  it('no command: exit 2 with the usage; an unknown command: exit 2 naming it', async () => {
    const none = await spawnCli([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('Usage:');
    const unknown = await spawnCli(['synthesize']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "dpsynth: unknown command 'synthesize'. Commands: mechanisms, schema, synth, metrics, infer, counts, recommend.",
    );
    expect(unknown.stdout).toBe('');
  });

  it('schema: exit 0 with inferred JSON; a malformed file: exit 2 naming file and line, nothing on stdout', async () => {
    const path = tempFiles({ 'data.csv': DATA, 'bad.csv': 'a,b\n1,2\n3,4,5\n' });
    const good = await spawnCli(['schema', path('data.csv')]);
    expect(good.code, good.stderr).toBe(0);
    const schema = JSON.parse(good.stdout) as { columns: { name: string; source: string }[] };
    expect(schema.columns.map((c) => c.name)).toEqual(MIXED_SCHEMA.columns.map((c) => c.name));
    expect(schema.columns.every((c) => c.source === 'inferred')).toBe(true);
    const bad = await spawnCli(['schema', path('bad.csv')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^dpsynth: .*bad\.csv.*line 3/m);
    expect(bad.stdout).toBe('');
  });

  it('synth: exit 0, one CSV per release and the report, the claim on stderr', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const result = await spawnCli(
      synthArgs(path, '--releases', '2', '--out', path('synth.csv'), '--report', path('report.json')),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Privacy claim: pure-dp');
    // Seeded (synthArgs sets --seed): the names say the outputs are not for release.
    for (const file of ['synth.not-for-release.1.csv', 'synth.not-for-release.2.csv']) {
      const table = parseCsv(readFileSync(path(file), 'utf8'), { fileName: file });
      expect(table.nRows).toBe(300);
      expect(table.header).toEqual(MIXED_SCHEMA.columns.map((c) => c.name));
    }
    const report = JSON.parse(readFileSync(path('report.json'), 'utf8')) as Record<string, unknown>;
    expect(report).toMatchObject({ releases: 2, rows: 300, claim: { notion: 'pure-dp', epsilon: 1 } });
  });

  it('schema --private learns every fact with DP; synth on it claims the domain steps and a total that includes them', async () => {
    // 2,000 rows and ε = 1 per column: bounds aim at a few percent of the rows, lists keep every
    // category held by more than about 45 rows.
    const path = tempFiles({ 'data.csv': mixedCsv(2000) });
    const learned = await spawnCli([
      'schema',
      path('data.csv'),
      '--private',
      '--epsilon',
      '8',
      '--delta',
      '1e-6',
      '--seed',
      '3',
      '--ledger',
      path('ledger.json'),
    ]);
    expect(learned.code, learned.stderr).toBe(0);
    expect(learned.stderr).toContain('24 facts of');
    expect(learned.stderr).toContain('ε = 8, δ = 0.000001 spent');
    const schema = JSON.parse(learned.stdout) as {
      columns: { name: string; source: string; sources?: unknown }[];
      domainBudget: { epsilon: string; delta: string; steps: unknown[] };
    };
    expect(schema.columns.map((c) => [c.name, c.source, c.sources])).toEqual(
      MIXED_SCHEMA.columns.map((c) => [c.name, 'dp', undefined]),
    );
    // The plan rounds each fact's share down: the learning spends at most ε = 8, within rounding of it.
    expect(schema.domainBudget).toMatchObject({ delta: '0.000001' });
    expect(Number(schema.domainBudget.epsilon)).toBeLessThanOrEqual(8);
    expect(Number(schema.domainBudget.epsilon)).toBeGreaterThan(8 - 1e-9);
    writeFileSync(path('s.json'), learned.stdout);

    const run = await spawnCli([
      ...synthArgs(path, '--out', path('synth.csv'), '--report', path('report.json')),
      '--ledger',
      path('ledger.json'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Privacy claim: approx-dp, ε = 9, δ = 0.000001');
    expect(run.stderr).toContain('  - learning the domain: lower bound of `age`');
    const report = JSON.parse(readFileSync(path('report.json'), 'utf8')) as {
      claim: { epsilon: number; delta: number; steps: { what: string }[]; composedOf: unknown };
      schema: {
        columns: { source: string; bounds?: unknown; categories?: unknown }[];
        domainBudget: unknown;
      };
      cumulative: { epsilon: number; delta: number };
    };
    expect(report.claim).toMatchObject({
      epsilon: 9,
      delta: 0.000001,
      composedOf: { domain: { epsilon: 8, delta: 0.000001 }, mechanism: { notion: 'pure-dp', epsilon: 1 } },
    });
    expect(report.claim.steps.filter((s) => s.what.startsWith('learning the domain: '))).toHaveLength(24);
    // DP facts are DP outputs: the report publishes them, with the budget that paid for them.
    for (const column of report.schema.columns) {
      expect(column.source).toBe('dp');
      expect(JSON.stringify(column)).not.toContain('withheld');
    }
    expect(report.schema.domainBudget).toEqual(schema.domainBudget);
    // The ledger counts the learning once and the run's own ε: 8 + 1.
    expect(report.cumulative).toMatchObject({ epsilon: 9, delta: 0.000001 });
    const lines = readFileSync(path('ledger.json'), 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { kind: string }).kind)).toEqual(['domain', 'export']);
  });

  it('schema --private with an explicit δ = 0 and category lists to learn: exit 2 saying why, nothing on stdout', async () => {
    const path = tempFiles({ 'data.csv': DATA });
    const result = await spawnCli([
      'schema',
      path('data.csv'),
      '--private',
      '--epsilon',
      '1',
      '--delta',
      '0',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('with δ = 0 only declared lists are possible');
    expect(result.stdout).toBe('');
  });

  it('synth with a bad ε: exit 2, the reason on stderr, no file written', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const before = readdirSync(path('.')).sort();
    const args = synthArgs(path, '--out', path('synth.csv'));
    args[args.indexOf('--epsilon') + 1] = '0';
    const result = await spawnCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("ε must be a positive number; got '0'");
    expect(readdirSync(path('.')).sort()).toEqual(before);
  });

  it('metrics --json: exit 0 and one JSON object with pMSE and TVD', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const synth = await spawnCli(synthArgs(path, '--out', path('synth.csv')));
    expect(synth.code, synth.stderr).toBe(0);
    const result = await spawnCli([
      'metrics',
      path('data.csv'),
      path('synth.not-for-release.csv'),
      '--schema',
      path('s.json'),
      '--json',
      '--permutations',
      '5',
      '--skip',
      'game,disclosure',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const metrics = JSON.parse(result.stdout) as { pmse: { value: number }; tvd: Record<string, number> };
    expect(metrics.pmse.value).toBeGreaterThan(0);
    expect(metrics.tvd['1']).toBeGreaterThan(0);
    expect(metrics.tvd['1']).toBeLessThan(1);
  });

  it('an internal error (a write that fails): exit 1, "internal error" on stderr', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const result = await spawnCli(synthArgs(path, '--out', path('synth.csv')), FAILING_CSV_WRITES);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('dpsynth: internal error: Error: simulated write failure');
    expect(existsSync(path('synth.csv'))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { cli, tempFiles, mixedCsv, MIXED_SCHEMA } from './cli-harness';
import { parseCsv } from '../../src/core/table/csv-read';
import { COMMAND_USAGE } from '../../src/cli/usage';

const DATA = mixedCsv(300);
const SCHEMA = JSON.stringify(MIXED_SCHEMA);

/** A quick synth run on data.csv and s.json in the folder of `path`, with extra flags. */
function synth(path: (name: string) => string, ...extra: string[]): Promise<Awaited<ReturnType<typeof cli>>> {
  return cli(
    'synth',
    path('data.csv'),
    ...['--schema', path('s.json'), '--mechanism', 'laplace-histogram', '--epsilon', '1'],
    ...['--param', 'bins=4'],
    ...extra,
  );
}

describe('dpsynth never loses a file', () => {
  it('refuses --out naming the input data file, and leaves it untouched', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const result = await synth(path, '--out', path('data.csv'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'is the data file given on the same command line; dpsynth never writes over',
    );
    expect(readFileSync(path('data.csv'), 'utf8')).toBe(DATA);
  });

  it('refuses an input reached through another spelling or a symbolic link, even with --force', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    mkdirSync(path('sub'));
    const roundabout = `${path('sub')}/../data.csv`;
    expect((await synth(path, '--out', roundabout, '--force')).code).toBe(2);
    symlinkSync(path('data.csv'), path('link.csv'));
    const linked = await synth(path, '--out', path('link.csv'), '--force');
    expect(linked.code).toBe(2);
    expect(readFileSync(path('data.csv'), 'utf8')).toBe(DATA);
  });

  it('refuses a report or a kept-back file written over the schema or the data', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const report = await synth(path, '--out', path('out.csv'), '--report', path('s.json'), '--force');
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('is the schema given on the same command line');
    const holdout = await synth(
      path,
      ...['--out', path('out.csv'), '--holdout-share', '0.2', '--holdout-out', path('data.csv')],
    );
    expect(holdout.code).toBe(2);
    expect(readFileSync(path('s.json'), 'utf8')).toBe(SCHEMA);
    expect(readFileSync(path('data.csv'), 'utf8')).toBe(DATA);
    expect(existsSync(path('out.csv'))).toBe(false);
  });

  it('refuses two outputs in one file', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const result = await synth(path, '--out', path('out.csv'), '--report', path('out.csv'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('would receive both the synthetic CSV and the release report');
  });

  it('does not replace an existing output without --force, and does with it', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA, 'out.csv': 'precious\n' });
    const refused = await synth(path, '--out', path('out.csv'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('out.csv already exists; dpsynth does not replace files unless --force');
    expect(readFileSync(path('out.csv'), 'utf8')).toBe('precious\n');
    expect(existsSync(path('out.report.json'))).toBe(false);
    const forced = await synth(path, '--out', path('out.csv'), '--force');
    expect(forced.code).toBe(0);
    expect(parseCsv(readFileSync(path('out.csv'), 'utf8')).nRows).toBe(300);
  });

  it('ends with exit 2 and a sentence when the output folder does not exist, before reading the data', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const result = await synth(path, '--out', path('no-such-folder/out.csv'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /the folder .*no-such-folder for the synthetic CSV .* does not exist; create it/,
    );
    expect(result.stderr).not.toContain('internal error');
  });

  it('writes through temporary files: only the finished outputs remain in the folder', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const result = await synth(path, '--out', path('out.csv'), '--releases', '2');
    expect(result.code).toBe(0);
    expect(readdirSync(dirname(path('out.csv'))).sort()).toEqual([
      'data.csv',
      'out.1.csv',
      'out.2.csv',
      'out.report.json',
      's.json',
    ]);
  });
});

describe('dpsynth synth always writes a release report', () => {
  it('beside the CSV when --report is absent, with inferred values withheld', async () => {
    const inferredIncome = {
      ...MIXED_SCHEMA,
      columns: MIXED_SCHEMA.columns.map((c) =>
        c.name === 'income' ? { ...c, bounds: [0, 187_654.5], source: 'inferred' } : c,
      ),
    };
    const path = tempFiles({ 'data.csv': DATA, 's.json': JSON.stringify(inferredIncome) });
    const result = await synth(path, '--out', path('out.csv'));
    expect(result.code).toBe(0);
    const text = readFileSync(path('out.report.json'), 'utf8');
    expect(text).not.toContain('187654.5');
    const report = JSON.parse(text);
    const income = report.schema.columns.find((c: { name: string }) => c.name === 'income');
    expect(income.bounds).toBe('withheld: inferred from the data');
    expect(report.inferredValuesPublished).toBe(false);

    const published = await synth(path, '--out', path('pub.csv'), '--publish-inferred');
    expect(published.code).toBe(0);
    const open = JSON.parse(readFileSync(path('pub.report.json'), 'utf8'));
    expect(open.schema.columns.find((c: { name: string }) => c.name === 'income').bounds).toEqual([
      0, 187654.5,
    ]);
    expect(open.inferredValuesPublished).toBe(true);
  });

  it('marks a seeded run "not for release" in the CSV names and the report', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const result = await synth(path, '--out', path('demo.csv'), '--seed', '3');
    expect(result.code).toBe(0);
    expect(existsSync(path('demo.csv'))).toBe(false);
    expect(existsSync(path('demo.not-for-release.csv'))).toBe(true);
    const report = JSON.parse(readFileSync(path('demo.not-for-release.report.json'), 'utf8'));
    expect(report.seeded).toBe(true);
    expect(report.seedNote).toMatch(/not for release/);
    expect(result.stderr).toContain('not for release');
  });
});

describe('dpsynth synth --ledger', () => {
  it('appends a line per release and reports the cumulative budget: two runs at ε = 1 give ε = 2', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const first = await synth(path, '--out', path('a.csv'), '--ledger', path('ledger.json'));
    expect(first.code).toBe(0);
    expect(JSON.parse(readFileSync(path('a.report.json'), 'utf8')).cumulative).toMatchObject({
      epsilon: 1,
      delta: 0,
      releases: 1,
    });
    const second = await synth(path, '--out', path('b.csv'), '--ledger', path('ledger.json'));
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('records 2 releases of this dataset: ε = 2 in total');
    const report = JSON.parse(readFileSync(path('b.report.json'), 'utf8'));
    expect(report.cumulative).toMatchObject({ epsilon: 2, delta: 0, releases: 2 });
    const lines = readFileSync(path('ledger.json'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({
      kind: 'export',
      mechanism: 'laplace-histogram',
      epsilon: 1,
    });
  });

  it('records a run refused after its budget was spent (values that overflow), releasing nothing', async () => {
    // Two unbounded numeric columns and ε = 0.001 over 10 releases: the exponential mechanism is almost
    // flat (its scale ε/(2·releases·Δu) is 0.003), so the chain roams the N(0, 10⁵) prior and some log σ
    // reaches exp(345) > 10¹⁵⁰; the pMSE mechanism then refuses the release after the budget was spent
    // (the seeds 1, 2 and 3 all do; each release has a good chance to).
    const rows = Array.from({ length: 30 }, (_, i) => `${(i % 9) - 2},${0.5 * ((i % 9) - 2) - 2}`);
    const unbounded = {
      version: 1,
      columns: [
        { name: 'x1', type: 'numeric', source: 'declared' },
        { name: 'x2', type: 'numeric', source: 'declared' },
      ],
      missing: [],
    };
    const path = tempFiles({
      'data.csv': DATA,
      's.json': SCHEMA,
      'wide.csv': ['x1,x2', ...rows].join('\n') + '\n',
      'wide.json': JSON.stringify(unbounded),
    });
    expect((await synth(path, '--out', path('a.csv'), '--ledger', path('ledger.json'))).code).toBe(0);
    const refused = await cli(
      'synth',
      path('wide.csv'),
      ...['--schema', path('wide.json'), '--mechanism', 'pmse-mechanism', '--epsilon', '0.001'],
      ...['--releases', '10', '--param', 'burnIn=0', '--param', 'steps=1000', '--param', 'thinning=100'],
      ...['--param', 'chains=1', '--param', 'proposalScale=100', '--seed', '1'],
      ...['--out', path('wide-synth.csv'), '--ledger', path('ledger.json')],
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('nothing was released. The budget of this run (ε = 0.001) is spent');
    expect(refused.stderr).toContain(
      `The ledger ${path('ledger.json')} counts this run: it records ε = 1.001 in total (2 entries).`,
    );
    expect(readdirSync(path('.')).filter((name) => name.startsWith('wide-synth'))).toEqual([]);
    const lines = readFileSync(path('ledger.json'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({
      kind: 'run',
      mechanism: 'pmse-mechanism',
      epsilon: 0.001,
      delta: 0,
      runs: 1,
      what: 'run on wide.csv refused after its budget was spent, nothing released (seeded, not for release)',
    });
  });

  it('refuses a damaged ledger before running, and never writes over it', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA, 'ledger.json': '{"kind":"export"}\n' });
    const damaged = await synth(path, '--out', path('a.csv'), '--ledger', path('ledger.json'));
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toContain('ledger.json, line 1:');
    expect(existsSync(path('a.csv'))).toBe(false);
    const over = await synth(path, '--out', path('ledger.json'), '--ledger', path('ledger.json'), '--force');
    expect(over.code).toBe(2);
    expect(readFileSync(path('ledger.json'), 'utf8')).toBe('{"kind":"export"}\n');
  });
});

describe('dpsynth reads unusual input or refuses it with a sentence', () => {
  it('refuses a number beyond the largest double at parse time, naming line and column', async () => {
    const lines = DATA.split('\n');
    const header = lines[0]!.split(',');
    const row = lines[3]!.split(',');
    row[header.indexOf('income')] = '1e999';
    lines[3] = row.join(',');
    const path = tempFiles({ 'data.csv': lines.join('\n'), 's.json': SCHEMA });
    const result = await synth(path, '--out', path('out.csv'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('data.csv, line 4: column "income" holds "1e999"');
    expect(existsSync(path('out.csv'))).toBe(false);
  });
});

describe('dpsynth --help', () => {
  it.each(Object.keys(COMMAND_USAGE))('prints the usage of %s three ways and exits 0', async (command) => {
    for (const argv of [
      [command, '--help'],
      [command, '-h'],
      ['help', command],
      ['--help', command],
    ]) {
      const result = await cli(...argv);
      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stdout).toContain(`dpsynth ${command} —`);
      expect(result.stdout).toContain('Options:');
      expect(result.stderr).toBe('');
    }
  });

  it('prints the overview for dpsynth --help and dpsynth help, and refuses an unknown topic', async () => {
    for (const argv of [['--help'], ['help'], ['-h']]) {
      const result = await cli(...argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('dpsynth help COMMAND');
    }
    const unknown = await cli('help', 'frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });

  it('says in the synth help that --drop-incomplete-rows publishes an exact count', async () => {
    const { stdout } = await cli('synth', '--help');
    expect(stdout).toMatch(/--drop-incomplete-rows[^-]*publishes an\s+exact count/);
    for (const flag of ['--force', '--ledger', '--publish-inferred', '--report'])
      expect(stdout).toContain(flag);
  });

  it('takes --help as a value where an option expects one, not as a request for help', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const result = await cli('synth', path('data.csv'), '--schema', path('s.json'), '--mechanism', '--help');
    expect(result.stdout).toBe('');
    expect(result.code).toBe(2);
    // Node's argument parser refuses a value that looks like an option: a usage error, not help.
    expect(result.stderr).toContain("Option '--mechanism");
  });
});

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { cli, tempFiles, mixedCsv, MIXED_SCHEMA } from './cli-harness';
import { parseCsv } from '../../src/core/table/csv-read';
import { runCli } from '../../src/cli/run-cli';

const DATA = mixedCsv(10_000);
const SCHEMA = JSON.stringify(MIXED_SCHEMA);

describe('dpsynth synth', () => {
  it('with --progress reports reading, running and writing on stderr; without it (not a terminal) nothing', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const run = async (flag: string[], out: string) => {
      const steps: string[] = [];
      const code = await runCli(
        [
          'synth',
          path('data.csv'),
          ...flag,
          '--schema',
          path('s.json'),
          '--mechanism',
          'laplace-histogram',
          '--param',
          'bins=4',
          '--epsilon',
          '1',
          '--out',
          path(out),
        ],
        { out: () => undefined, err: () => undefined, progress: (_f, message) => steps.push(message ?? '') },
      );
      return { code, steps };
    };
    const shown = await run(['--progress'], 'a.csv');
    expect(shown.code).toBe(0);
    expect(shown.steps).toContain('reading');
    expect(shown.steps).toContain('writing');
    expect(shown.steps.at(-1)).toBe('done');
    expect(shown.steps.some((s) => s !== 'reading' && s !== 'writing' && s !== 'done')).toBe(true);
    expect((await run([], 'b.csv')).steps).toEqual([]);
    expect((await run(['--progress', '--no-progress'], 'c.csv')).steps).toEqual([]);
  });

  it('writes M synthetic CSVs and a release report with the full claim', async () => {
    const path = tempFiles({ 'data.csv': DATA, 's.json': SCHEMA });
    const result = await cli(
      'synth',
      path('data.csv'),
      '--schema',
      path('s.json'),
      '--mechanism',
      'laplace-histogram',
      '--epsilon',
      '1',
      '--releases',
      '2',
      '--param',
      'bins=4',
      '--seed',
      '7',
      '--out',
      path('synth.csv'),
      '--report',
      path('report.json'),
    );
    expect(result.stderr).toContain('Privacy claim: pure-dp');
    expect(result.code).toBe(0);
    // Seeded: the file names say the outputs are not for release.
    for (const file of ['synth.not-for-release.1.csv', 'synth.not-for-release.2.csv']) {
      const raw = parseCsv(readFileSync(path(file), 'utf8'), { fileName: file });
      expect(raw.nRows).toBe(10_000);
      expect(raw.header).toEqual(MIXED_SCHEMA.columns.map((c) => c.name));
      const ages = raw.columns[0]!.filter((t) => t !== '').map(Number);
      expect(ages.every((a) => Number.isInteger(a) && a >= 18 && a <= 90)).toBe(true);
    }
    const report = JSON.parse(readFileSync(path('report.json'), 'utf8'));
    expect(report.claim.notion).toBe('pure-dp');
    expect(report.claim.epsilon).toBe(1);
    expect(report.claim.neighbouring).toBe('replace-one');
    expect(report.claim.steps.length).toBeGreaterThanOrEqual(2);
    expect(report.claim.assumptions.join(' ')).toMatch(/seed/i);
    expect(report.seeded).toBe(true);
    expect(report.mechanism.id).toBe('laplace-histogram');
    expect(JSON.stringify(report)).not.toMatch(/tvd|pmse/i);
  });

  it('with --drop-incomplete-rows, tells the data holder how many rows were dropped, and the report only what the claim covers', async () => {
    const header = MIXED_SCHEMA.columns.map((c) => c.name).join(',');
    const rows = DATA.trimEnd().split('\n').slice(1, 201);
    const missing = (row: string) => row.split(',').some((cell) => cell === '' || cell === 'NA'); // MIXED_SCHEMA.missing tokens present in the file
    const incomplete = rows.filter(missing).length;
    expect(incomplete).toBeGreaterThan(0); // the generator leaves some income empty and some education NA
    const path = tempFiles({ 'data.csv': [header, ...rows].join('\n') + '\n', 's.json': SCHEMA });
    const result = await cli(
      'synth',
      path('data.csv'),
      '--schema',
      path('s.json'),
      '--mechanism',
      'laplace-histogram',
      '--epsilon',
      '1',
      '--drop-incomplete-rows',
      '--out',
      path('synth.csv'),
      '--report',
      path('report.json'),
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(path('report.json'), 'utf8'));
    expect(report.rows).toBe(200 - incomplete);
    // The dropped count goes to stderr (the data holder), never into the release report.
    expect(result.stderr).toContain(`${incomplete} rows with a missing value removed, as requested.`);
    const words = [...report.notes, ...report.claim.assumptions].join(' ');
    expect(words).toMatch(
      /their number \(the rows of this report\) treated as public.*like an inferred fact/,
    );
    // The complete rows are published: with the file's row count they give the number dropped.
    expect(words).toMatch(/with the file’s row count it gives the number of rows dropped/);
    expect(words).not.toMatch(/dropped is (withheld|not released)/);
    expect(words).not.toMatch(new RegExp(`\\b(${incomplete}|200)\\b`));
    // Under add/remove the filter keeps neighbours neighbours: the run goes ahead and writes no count.
    const addRemove = await cli(
      'synth',
      path('data.csv'),
      '--schema',
      path('s.json'),
      '--mechanism',
      'laplace-histogram',
      '--epsilon',
      '1',
      '--neighbouring',
      'add-remove',
      '--drop-incomplete-rows',
      '--out',
      path('ar.csv'),
      '--report',
      path('ar.report.json'),
    );
    expect(addRemove.code).toBe(0);
    const arReport = JSON.parse(readFileSync(path('ar.report.json'), 'utf8'));
    expect(arReport.rows).toBeUndefined();
    const arWords = [...(arReport.notes ?? []), ...arReport.claim.assumptions].join(' ');
    expect(arWords).toMatch(/a filter on each row alone.*the guarantee holds for the rows of the file/);
    expect(arWords).not.toMatch(new RegExp(`\\b(${incomplete}|${200 - incomplete}|200)\\b`));
  });

  it('prints the inferred schema, marked inferred', async () => {
    const path = tempFiles({ 'data.csv': DATA });
    const result = await cli('schema', path('data.csv'));
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout);
    expect(schema.version).toBe(1);
    expect(schema.columns.map((c: { type: string }) => c.type)).toEqual([
      'numeric',
      'numeric',
      'numeric',
      'numeric',
      'categorical',
      'categorical',
      'categorical',
      'categorical',
    ]);
    expect(schema.columns.every((c: { source: string }) => c.source === 'inferred')).toBe(true);
  });

  it('schema --private spends δ = 1e-6 on category lists unless told otherwise; an explicit --delta 0 is refused, saying why', async () => {
    const path = tempFiles({ 'data.csv': mixedCsv(500) });
    // Forced: 8 columns on 500 rows need more than ε = 8 for every fact to meet its floor.
    const learned = await cli(
      'schema',
      path('data.csv'),
      '--private',
      '--epsilon',
      '8',
      '--seed',
      '1',
      '--force',
    );
    expect(learned.code, learned.stderr).toBe(0);
    const schema = JSON.parse(learned.stdout) as { domainBudget: { epsilon: string; delta: string } };
    expect(schema.domainBudget).toMatchObject({ delta: '0.000001' });
    expect(Number(schema.domainBudget.epsilon)).toBeCloseTo(8, 9);
    const refused = await cli('schema', path('data.csv'), '--private', '--epsilon', '8', '--delta', '0');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('with δ = 0 only declared lists are possible');
    expect(refused.stdout).toBe('');
  });

  it('schema --private --split reads column names as plain keys (`__proto__`, `constructor`)', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `${i % 7},${i % 5},${i % 3}`);
    const path = tempFiles({ 'data.csv': ['__proto__,constructor,x', ...rows].join('\n') + '\n' });
    const result = await cli(
      'schema',
      path('data.csv'),
      '--private',
      '--epsilon',
      '4',
      '--split',
      '__proto__=2',
      '--seed',
      '1',
      '--force',
    );
    expect(result.code, result.stderr).toBe(0);
    const { domainBudget } = JSON.parse(result.stdout) as {
      domainBudget: { steps: { fact: string; epsilon: string }[] };
    };
    // Shares 2, 1, 1 times the same need: what follows each column's type stands 2 : 1 : 1.
    const after = (name: string) =>
      domainBudget.steps
        .filter((s) => s.fact.startsWith(`${name}.`) && !s.fact.endsWith('.type'))
        .reduce((t, s) => t + Number(s.epsilon), 0);
    expect(after('__proto__') / after('constructor')).toBeCloseTo(2, 9);
    expect(after('constructor') / after('x')).toBeCloseTo(1, 9);
  });

  it('lists the mechanisms with their parameters', async () => {
    const result = await cli('mechanisms', '--json');
    expect(result.code).toBe(0);
    const ids = JSON.parse(result.stdout).map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['laplace-histogram', 'smoothed-histogram', 'dp-marginals']));
  });
});

describe('dpsynth synth --holdout-share', () => {
  const header = MIXED_SCHEMA.columns.map((c) => c.name).join(',');
  const rows = DATA.trimEnd().split('\n').slice(1, 401);
  const data = [header, ...rows].join('\n') + '\n';
  const linesOf = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n');
  const synthArgs = (path: (n: string) => string, ...extra: string[]) => [
    'synth',
    path('data.csv'),
    ...['--schema', path('s.json'), '--mechanism', 'laplace-histogram', '--epsilon', '1'],
    ...['--param', 'bins=4', '--out', path('synth.csv'), '--report', path('report.json')],
    ...extra,
  ];

  it('keeps back a random test set, copied verbatim, that the mechanism never sees', async () => {
    const path = tempFiles({ 'data.csv': data, 's.json': SCHEMA });
    const split = [
      '--holdout-share',
      '0.2',
      '--holdout-out',
      path('test.csv'),
      '--train-out',
      path('train.csv'),
    ];
    const result = await cli(...synthArgs(path, ...split, '--seed', '5'));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'the mechanism saw 320 of 400 rows; 80 were kept back as a test set and never reached it',
    );
    const [testHeader, ...testRows] = linesOf(path('test.csv'));
    const [trainHeader, ...trainRows] = linesOf(path('train.csv'));
    expect(testHeader).toBe(header);
    expect(trainHeader).toBe(header);
    expect(testRows).toHaveLength(80);
    expect(trainRows).toHaveLength(320);
    expect([...testRows, ...trainRows].sort()).toEqual([...rows].sort());
    expect(linesOf(path('synth.not-for-release.csv'))).toHaveLength(1 + 320);
    const report = JSON.parse(readFileSync(path('report.json'), 'utf8'));
    expect(report.rows).toBe(320);
    expect(report.notes.join(' ')).toMatch(
      /the mechanism saw 320 of 400 rows; 80 were kept back as a test set and never reached it/i,
    );

    // The same seed keeps back the same rows; then the test set serves ML efficacy.
    const again = tempFiles({ 'data.csv': data, 's.json': SCHEMA });
    const split2 = ['--holdout-share', '0.2', '--holdout-out', again('test.csv')];
    expect((await cli(...synthArgs(again, ...split2, '--seed', '5'))).code).toBe(0);
    expect(readFileSync(again('test.csv'), 'utf8')).toBe(readFileSync(path('test.csv'), 'utf8'));
    const metrics = await cli(
      'metrics',
      ...[path('train.csv'), path('synth.not-for-release.csv'), '--holdout', path('test.csv')],
      ...['--ml-target', 'smoker'],
      ...['--json', '--seed', '1', '--skip', 'game,disclosure', '--permutations', '2'],
    );
    expect(metrics.code).toBe(0);
    const parsed = JSON.parse(metrics.stdout);
    expect(parsed.real.rows).toBe(320);
    expect(parsed.holdout.rows).toBe(80);
    expect(parsed.mlEfficacy.task.holdoutRowsScored).toBe(80);
  });

  it('splits only the complete rows with --drop-incomplete-rows', async () => {
    const path = tempFiles({ 'data.csv': data, 's.json': SCHEMA });
    const split = [
      '--holdout-share',
      '0.5',
      '--holdout-out',
      path('test.csv'),
      '--train-out',
      path('train.csv'),
    ];
    const result = await cli(...synthArgs(path, '--drop-incomplete-rows', ...split));
    expect(result.code).toBe(0);
    const complete = rows.filter((row) => !row.split(',').some((cell) => cell === '' || cell === 'NA'));
    const kept = [...linesOf(path('test.csv')).slice(1), ...linesOf(path('train.csv')).slice(1)];
    expect(kept.sort()).toEqual([...complete].sort());
    const report = JSON.parse(readFileSync(path('report.json'), 'utf8'));
    expect(report.rows).toBe(complete.length - Math.round(0.5 * complete.length));
  });

  it.each([
    [['--holdout-share', '0.2'], /--holdout-share F and --holdout-out test\.csv go together/],
    [['--holdout-out', 'test.csv'], /--holdout-share F and --holdout-out test\.csv go together/],
    [['--train-out', 'train.csv'], /--train-out needs --holdout-share/],
    [['--holdout-share', '0', '--holdout-out', 'test.csv'], /strictly between 0 and 1.*got '0'/],
    [['--holdout-share', '1', '--holdout-out', 'test.csv'], /strictly between 0 and 1.*got '1'/],
    [['--holdout-share=-0.2', '--holdout-out', 'test.csv'], /strictly between 0 and 1.*got '-0.2'/],
    [['--holdout-share', 'a fifth', '--holdout-out', 'test.csv'], /strictly between 0 and 1/],
    [['--holdout-share', '0.001', '--holdout-out', 'test.csv'], /keeps back 0, which leaves no test set/],
  ])('rejects %j with exit code 2', async (extra, message) => {
    const path = tempFiles({ 'data.csv': data, 's.json': SCHEMA });
    const result = await cli(...synthArgs(path, ...extra.map((a) => (a.endsWith('.csv') ? path(a) : a))));
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(2);
  });
});

describe("dpsynth synth prints the mechanism's warnings", () => {
  it('warns when ε·n/releases is below 100 for the pMSE mechanism', async () => {
    const lines = ['x,g'];
    // Two x values are missing in a column not declared able to be missing: a warning from the real data.
    for (let i = 0; i < 40; i++) lines.push(`${i < 2 ? '' : (i % 10) / 2},${i % 3 === 0 ? 'a' : 'b'}`);
    const schema = {
      version: 1,
      columns: [
        { name: 'x', type: 'numeric', bounds: [0, 5], source: 'declared' },
        { name: 'g', type: 'categorical', categories: ['a', 'b'], source: 'declared' },
      ],
      missing: [''],
    };
    const path = tempFiles({ 'data.csv': lines.join('\n') + '\n', 's.json': JSON.stringify(schema) });
    const result = await cli(
      'synth',
      path('data.csv'),
      ...['--schema', path('s.json'), '--mechanism', 'pmse-mechanism', '--epsilon', '1', '--releases', '2'],
      ...['--param', 'burnIn=0', '--param', 'steps=4', '--param', 'thinning=1', '--param', 'chains=2'],
      ...['--seed', '3', '--out', path('synth.csv')],
    );
    expect(result.code).toBe(0);
    // x: mean and log σ (2); g given x: a logit intercept and slope (2).
    expect(result.stderr).toMatch(
      /^pmse-mechanism: Synthesis model: 4 parameters \(θ\), in column order: x 2, g 2\.$/m,
    );
    // ε/releases = 0.5 and n = 40 with the proven Δu = 1/(2n): ε·n/releases = 20; said once, before the run.
    expect(result.stderr.match(/Each release gets/g)).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^pmse-mechanism: Each release gets ε = 0\.5 with n = 40: .*ε·n\/releases is 20\.0; aim for 100/m,
    );
    expect(result.stderr).toMatch(
      /^warning \(from the real data, for you only\): Column `x` has 2 missing values but is not declared/m,
    );
  });
});

describe('dpsynth synth states whether ε is a proven bound', () => {
  it('says on the first claim line and in the report why the pMSE mechanism’s ε is not a proven bound', async () => {
    const lines = ['x,g'];
    for (let i = 0; i < 40; i++) lines.push(`${(i % 10) / 2},${i % 3 === 0 ? 'a' : 'b'}`);
    const schema = {
      version: 1,
      columns: [
        { name: 'x', type: 'numeric', bounds: [0, 5], source: 'declared' },
        { name: 'g', type: 'categorical', categories: ['a', 'b'], source: 'declared' },
      ],
      missing: [''],
    };
    const path = tempFiles({ 'data.csv': lines.join('\n') + '\n', 's.json': JSON.stringify(schema) });
    const run = (depth: string) =>
      cli(
        'synth',
        path('data.csv'),
        ...['--schema', path('s.json'), '--mechanism', 'pmse-mechanism', '--epsilon', '1'],
        ...['--param', `treeDepth=${depth}`, '--param', 'burnIn=0', '--param', 'steps=4'],
        ...['--param', 'thinning=1', '--param', 'chains=1', '--seed', '3'],
        ...['--out', path(`synth${depth}.csv`), '--report', path(`report${depth}.json`)],
      );
    const greedy = await run('5');
    expect(greedy.code).toBe(0);
    const greedyReason =
      'greedy trees, depth 5: Δu not proven; MCMC draws approximate the exponential mechanism';
    expect(greedy.stderr.split('\n')).toContain(
      `Privacy claim: pure-dp, ε = 1 — not a proven bound (${greedyReason}); neighbouring datasets: replace-one`,
    );
    const greedyReport = JSON.parse(readFileSync(path('report5.json'), 'utf8'));
    expect(greedyReport.claim.bound).toBe('unproven');
    expect(greedyReport.claim.unprovenBecause).toBe(greedyReason);
    expect(greedyReport.claim.assumptions.join(' ')).toMatch(/not a proven upper bound/);
    // The exhaustive stump has a proven Δu, but its draws come from MCMC too.
    const exact = await run('1');
    expect(exact.code).toBe(0);
    const exactReason =
      'MCMC draws approximate the exponential mechanism; ε holds for exact draws, Δu = 1/(2n) proven';
    expect(exact.stderr.split('\n')).toContain(
      `Privacy claim: pure-dp, ε = 1 — not a proven bound (${exactReason}); neighbouring datasets: replace-one`,
    );
    const exactReport = JSON.parse(readFileSync(path('report1.json'), 'utf8'));
    expect([exactReport.claim.bound, exactReport.claim.unprovenBecause]).toEqual(['unproven', exactReason]);
  });
});

describe('bad input exits 2 with a message naming the problem', () => {
  const base = (path: (n: string) => string, data = 'data.csv', schema = 's.json') => [
    'synth',
    path(data),
    '--schema',
    path(schema),
    '--mechanism',
    'laplace-histogram',
    '--epsilon',
    '1',
    '--param',
    'bins=4',
    '--out',
    path('out.csv'),
  ];
  const cases: {
    name: string;
    files?: Record<string, string | Uint8Array>;
    args?: (p: (n: string) => string) => string[];
    message: RegExp;
  }[] = [
    { name: 'missing file', files: { 's.json': SCHEMA }, message: /data\.csv: no such CSV file/ },
    { name: 'empty file', files: { 'data.csv': '', 's.json': SCHEMA }, message: /data\.csv.*empty/ },
    {
      name: 'header only',
      files: { 'data.csv': 'age,income,hours,score,sex,region,education,smoker\n', 's.json': SCHEMA },
      message: /data\.csv.*(no data rows|header)/i,
    },
    {
      name: 'ragged row',
      files: { 'data.csv': DATA.split('\n').slice(0, 5).join('\n') + '\n1,2,3\n', 's.json': SCHEMA },
      message: /data\.csv, line 6/,
    },
    {
      name: 'not text',
      files: {
        'data.csv': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0, 1, 2, 3]),
        's.json': SCHEMA,
      },
      message: /data\.csv.*text/i,
    },
    {
      name: 'unknown mechanism',
      files: { 'data.csv': DATA, 's.json': SCHEMA },
      args: (p) => [
        'synth',
        p('data.csv'),
        '--schema',
        p('s.json'),
        '--mechanism',
        'magic',
        '--epsilon',
        '1',
        '--out',
        p('o.csv'),
      ],
      message: /unknown mechanism 'magic'/,
    },
    {
      name: 'unknown parameter',
      files: { 'data.csv': DATA, 's.json': SCHEMA },
      args: (p) => [...base(p), '--param', 'colour=blue'],
      message: /colour/,
    },
    {
      name: 'ε = 0',
      files: { 'data.csv': DATA, 's.json': SCHEMA },
      args: (p) => withEpsilon(base(p), '0'),
      message: /ε.*'0'|'0'.*ε/,
    },
    {
      name: 'ε negative',
      files: { 'data.csv': DATA, 's.json': SCHEMA },
      args: (p) => [...withoutEpsilon(base(p)), '--epsilon=-1'],
      message: /ε.*'-1'/,
    },
    {
      name: 'ε not a number',
      files: { 'data.csv': DATA, 's.json': SCHEMA },
      args: (p) => withEpsilon(base(p), 'abc'),
      message: /abc/,
    },
    {
      name: 'δ = 1',
      files: { 'data.csv': DATA, 's.json': SCHEMA },
      args: (p) => [...base(p), '--delta', '1'],
      message: /δ/,
    },
    {
      name: 'δ negative',
      files: { 'data.csv': DATA, 's.json': SCHEMA },
      args: (p) => [...base(p), '--delta=-0.1'],
      message: /δ.*'-0.1'/,
    },
    {
      name: 'bounds missing',
      files: {
        'data.csv': DATA,
        's.json': JSON.stringify({
          ...MIXED_SCHEMA,
          columns: MIXED_SCHEMA.columns.map((c) =>
            c.name === 'age' ? { name: 'age', type: 'numeric', source: 'declared' } : c,
          ),
        }),
      },
      message: /bounds.*age|age.*bounds/,
    },
    {
      name: 'schema column missing from the CSV',
      files: {
        'data.csv': DATA,
        's.json': JSON.stringify({
          ...MIXED_SCHEMA,
          columns: [
            ...MIXED_SCHEMA.columns,
            { name: 'weight', type: 'numeric', bounds: [0, 200], source: 'declared' },
          ],
        }),
      },
      message: /weight/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const path = tempFiles(c.files ?? {});
      const result = await cli(...(c.args ? c.args(path) : base(path)));
      expect(result.stderr).toMatch(c.message);
      expect(result.code).toBe(2);
    });
  }
});

function withEpsilon(args: string[], epsilon: string): string[] {
  const copy = [...args];
  copy[copy.indexOf('--epsilon') + 1] = epsilon;
  return copy;
}

function withoutEpsilon(args: string[]): string[] {
  const i = args.indexOf('--epsilon');
  return [...args.slice(0, i), ...args.slice(i + 2)];
}

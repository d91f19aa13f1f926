import { readFileSync } from 'node:fs';
import { cli, tempFiles, mixedCsv, MIXED_SCHEMA } from './cli-harness';

/** What one seeded CLI call printed and wrote, with the temporary folder and the report's time masked. */
export interface SeededRunOutput {
  code: number;
  stdout: string;
  stderr: string;
  files: Record<string, string>;
}

interface SeededCase {
  name: string;
  args: string[];
  /** Files the call writes, read back after it. */
  writes: string[];
}

const COMMON = ['--schema', 's.json', '--epsilon', '1', '--seed', 'golden'];

/** Seeded calls covering every mechanism, several releases, reports, a hold-out and dropped rows. */
const CASES: SeededCase[] = [
  { name: 'mechanisms', args: ['mechanisms'], writes: [] },
  {
    name: 'laplace-histogram',
    args: ['synth', 'data.csv', ...COMMON, '--mechanism', 'laplace-histogram', '--releases', '2'],
    writes: ['synth.not-for-release.1.csv', 'synth.not-for-release.2.csv', 'report.json'],
  },
  {
    name: 'laplace-histogram boundary-inflated, hold-out, dropped rows',
    args: [
      ...['synth', 'data.csv', ...COMMON, '--mechanism', 'laplace-histogram'],
      ...['--param', 'negatives=boundary-inflated', '--param', 'bins=4', '--drop-incomplete-rows'],
      ...['--holdout-share', '0.25', '--holdout-out', 'holdout.csv', '--train-out', 'train.csv'],
    ],
    writes: ['synth.not-for-release.csv', 'report.json', 'holdout.csv', 'train.csv'],
  },
  {
    name: 'smoothed-histogram',
    args: [
      ...['synth', 'data.csv', ...COMMON, '--mechanism', 'smoothed-histogram', '--releases', '3'],
      ...['--param', 'columnBins=age=5, income=3'],
    ],
    writes: [
      'synth.not-for-release.1.csv',
      'synth.not-for-release.2.csv',
      'synth.not-for-release.3.csv',
      'report.json',
    ],
  },
  {
    name: 'dp-marginals',
    args: ['synth', 'data.csv', ...COMMON, '--mechanism', 'dp-marginals', '--releases', '2'],
    writes: ['synth.not-for-release.1.csv', 'synth.not-for-release.2.csv', 'report.json'],
  },
  {
    name: 'pmse-mechanism',
    args: [
      ...['synth', 'data.csv', ...COMMON, '--mechanism', 'pmse-mechanism', '--releases', '2'],
      ...['--param', 'burnIn=10', '--param', 'steps=20', '--param', 'thinning=5', '--param', 'chains=2'],
    ],
    writes: ['synth.not-for-release.1.csv', 'synth.not-for-release.2.csv', 'report.json'],
  },
];

/** The case's arguments with its file names inside the folder, and the outputs added to a synth call. */
function argumentsIn(args: string[], path: (name: string) => string): string[] {
  const inFolder = args.map((a) => (/\.(csv|json)$/.test(a) ? path(a) : a));
  if (args[0] !== 'synth') return inFolder;
  return [...inFolder, '--out', path('synth.not-for-release.csv'), '--report', path('report.json')];
}

/** Runs every case in a fresh temporary folder and returns what it printed and wrote. */
export async function seededRuns(): Promise<Record<string, SeededRunOutput>> {
  const out: Record<string, SeededRunOutput> = {};
  for (const c of CASES) {
    const path = tempFiles({ 'data.csv': mixedCsv(240), 's.json': JSON.stringify(MIXED_SCHEMA) });
    const dir = path('');
    const result = await cli(...argumentsIn(c.args, path));
    const mask = (text: string) =>
      text
        .split(dir)
        .join('<dir>')
        .replace(/"createdAt": "[^"]*"/, '"createdAt": "<time>"');
    out[c.name] = {
      code: result.code,
      stdout: mask(result.stdout),
      stderr: mask(result.stderr),
      files: Object.fromEntries(c.writes.map((name) => [name, mask(readFileSync(path(name), 'utf8'))])),
    };
  }
  return out;
}

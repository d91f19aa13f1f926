import { describe, expect, it } from 'vitest';
import { SeededRng } from '../rng/seeded-rng';
import { evaluateUtility } from './evaluate';
import {
  EVALUATION_FORMAT,
  EVALUATION_FORMAT_VERSION,
  evaluationJson,
  pmseWarnings,
} from './evaluation-json';
import { testTable } from './testing/test-table';
import { EVALUATION_NOTE, type PmseSection } from './utility-report';
import type { PrivacyClaim } from '../privacy/types';

const real = testTable({
  x: Array.from({ length: 30 }, (_, i) => i % 7),
  g: Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 'a' : 'b')),
});
const synths = [1, 2].map((shift) =>
  testTable({
    x: Array.from({ length: 30 }, (_, i) => (i * shift) % 5),
    g: Array.from({ length: 30 }, (_, i) => (i % (2 + shift) === 0 ? 'a' : 'b')),
  }),
);
// k = 3 exceeds the two columns: skipped, with the reason.
const report = evaluateUtility(
  real,
  synths,
  { tvdK: [1, 2, 3], pmse: { permutations: 3 }, disclosure: false },
  new SeededRng(11),
);

/** The keys of the evaluation JSON in order, as README's command-line section documents them. */
const KEYS = [
  'format',
  'formatVersion',
  'appVersion',
  'real',
  'synthetic',
  'columns',
  'pmse',
  'tvd',
  'tvdSkipped',
  'tvdSubsets',
  'tvdPerRelease',
  'tvdFullTable',
  'kMarginalScore',
  'perColumn',
  'correlation',
  'regression',
  'mlEfficacy',
  'distinguishingGame',
  'disclosure',
  'note',
];

const claim: PrivacyClaim = {
  notion: 'pure-dp',
  epsilon: 1,
  delta: 0,
  bound: 'proven',
  neighbouring: 'replace-one',
  steps: [{ what: 'noisy histogram', epsilon: 1 }],
  assumptions: [],
};

describe('evaluationJson', () => {
  it('writes the CLI form: files by path, no time, no run, every metric section', () => {
    const json = evaluationJson(report, {
      appVersion: '9.9.9',
      realFile: 'real.csv',
      syntheticFiles: ['s.1.csv', 's.2.csv'],
    });
    expect(Object.keys(json)).toEqual(KEYS);
    expect(json).toMatchObject({
      format: EVALUATION_FORMAT,
      formatVersion: EVALUATION_FORMAT_VERSION,
      appVersion: '9.9.9',
      real: { file: 'real.csv', rows: 30 },
      synthetic: [
        { file: 's.1.csv', rows: 30 },
        { file: 's.2.csv', rows: 30 },
      ],
      columns: [
        { name: 'x', type: 'numeric' },
        { name: 'g', type: 'categorical' },
      ],
      note: EVALUATION_NOTE,
    });
    // The sections are the report's own, not copies that could drift.
    expect(json.perColumn).toBe(report.perColumn);
    expect(json.tvdPerRelease).toBe(report.tvd.byK);
    expect(json.tvdFullTable).toBe(report.tvd.fullTable);
    expect(json.distinguishingGame).toBe(report.distinguishingGame);
    expect(json.disclosure).toBeNull();
  });

  it('summarises pMSE and TVD over releases', () => {
    const json = evaluationJson(report, { appVersion: '1' });
    const [first, second] = report.pmse.perRelease;
    expect(json.pmse.value).toBe(report.pmse.mean.value);
    expect(json.pmse.ratio).toBe(report.pmse.mean.ratio);
    expect(json.pmse.nullMean).toBeCloseTo((first!.nullMean! + second!.nullMean!) / 2, 15);
    expect(json.pmse.k).toBeNull(); // CART has no k
    expect(json.pmse.cart).toEqual({ cp: 0.001, minBucket: 5, minSplit: 15, maxDepth: 30 });
    expect(json.pmse.permutations).toBe(3);
    expect(json.tvd).toEqual({ '1': report.tvd.byK['1']!.mean, '2': report.tvd.byK['2']!.mean, '3': null });
    expect(json.tvdSkipped).toEqual({ '3': 'k must be between 1 and 2.' });
    expect(Object.keys(json.tvdSubsets)).toEqual(['1', '2']);
    const subsets = report.tvd.byK['1']!.perRelease!.map((r) => r.subsets);
    expect(json.tvdSubsets['1']!.map((s) => s.columns)).toEqual([['x'], ['g']]);
    expect(json.tvdSubsets['1']![1]!.tvd).toBeCloseTo((subsets[0]![1]!.tvd + subsets[1]![1]!.tvd) / 2, 15);
    expect(json.kMarginalScore).toBe(report.tvd.kMarginalScore!.mean);
    // Files not named: rows only.
    expect(json.real).toEqual({ rows: 30 });
    expect(json.synthetic).toEqual([{ rows: 30 }, { rows: 30 }]);
  });

  it('writes the studio form: time, run, kept-back rows, all before the metrics', () => {
    const mechanism = {
      id: 'laplace-histogram',
      label: 'Laplace histogram',
      reference: 'Dwork',
      params: { bins: 4 },
    };
    const json = evaluationJson(report, {
      appVersion: '1',
      createdAt: '2026-01-02T03:04:05.000Z',
      realFile: 'people.csv',
      syntheticFiles: ['a.csv', 'b.csv'],
      holdout: { rows: 10 },
      run: { mechanism, claim },
    });
    expect(Object.keys(json).slice(0, 10)).toEqual([
      'format',
      'formatVersion',
      'appVersion',
      'createdAt',
      'mechanism',
      'claim',
      'real',
      'synthetic',
      'holdout',
      'columns',
    ]);
    expect(json.mechanism).toEqual(mechanism);
    expect(json.claim).toBe(claim);
    expect(json.holdout).toEqual({ rows: 10 });
    // The same metric keys as the CLI form, in the same order.
    expect(Object.keys(json).filter((key) => KEYS.includes(key))).toEqual(KEYS);
  });

  it('is plain JSON and refuses file names that do not match the releases', () => {
    const json = evaluationJson(report, { appVersion: '1' });
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(JSON.stringify(json)).not.toContain('timingsMs');
    expect(() => evaluationJson(report, { appVersion: '1', syntheticFiles: ['only-one.csv'] })).toThrow(
      /2 releases but 1 file names/,
    );
  });

  it('warns, per release, when a logistic model separates real from synthetic rows', () => {
    const release = report.pmse.perRelease[0]!;
    const logit: PmseSection = {
      ...report.pmse,
      model: 'logit',
      settings: { maxOrder: 1 },
      perRelease: [
        { ...release, extremePropensities: 0 },
        { ...release, extremePropensities: 7 },
      ],
    };
    expect(pmseWarnings(logit)).toEqual([
      'release 2: the logistic model separates real from synthetic rows (7 fitted propensities within ' +
        '1e-8 of 0 or 1): the maximum-likelihood fit does not exist and pMSE/S_pMSE depend on the optimiser; ' +
        'use --pmse-model cart',
    ]);
    const json = evaluationJson({ ...report, pmse: logit }, { appVersion: '1' });
    expect(json.pmse.warnings).toHaveLength(1);
    expect(json.pmse.cart).toBeUndefined();
    expect(Object.keys(json.pmse)).not.toContain('permutations');
    expect(pmseWarnings(report.pmse)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { evaluateUtility } from '../../core/metrics/evaluate';
import { evaluationJson } from '../../core/metrics/evaluation-json';
import { testTable } from '../../core/metrics/testing/test-table';
import { getMechanismMeta } from '../../core/mechanisms/catalogue';
import { Accountant } from '../../core/privacy/accountant';
import { parseBudget } from '../../core/privacy/budget';
import { SeededRng } from '../../core/rng/seeded-rng';
import { APP_VERSION } from '../../core/version';
import type { FinishedRun } from '../state/results-store';
import { evaluationReportOf } from './export-files';

const real = testTable({ age: Array.from({ length: 24 }, (_, i) => 20 + (i % 9)) });
const releases = [3, 5].map((step) =>
  testTable({ age: Array.from({ length: 24 }, (_, i) => 20 + ((i * step) % 9)) }),
);
const evaluation = evaluateUtility(real, releases, { pmse: { permutations: 2 } }, new SeededRng(3));

/** A finished laplace-histogram run of two releases at ε = 1, with 6 of 30 rows kept back. */
function finishedRun(): FinishedRun {
  const accountant = new Accountant(parseBudget('1'));
  accountant.reserve('noisy histogram', parseBudget('1').epsilon);
  return {
    summary: {
      jobId: 'job-1',
      trainRows: 24,
      holdoutRows: 6,
      claim: accountant.claim([]),
      diagnostics: {},
      dataHolderDiagnostics: {},
      rows: 24,
      columns: 1,
      releases: 2,
      runMillis: 1,
      comparison: { tvdOneWay: [0, 0], tvdTwoWay: [0, 0], overlays: [] },
    },
    configuration: {
      datasetId: 'd1',
      fileName: 'people.csv',
      schema: {
        version: 1,
        columns: [{ name: 'age', type: 'numeric', bounds: [0, 120], integer: true, source: 'declared' }],
        missing: [''],
      },
      mechanismId: 'laplace-histogram',
      params: { bins: 4 },
      epsilon: '1',
      delta: '0',
      releases: 2,
      seeded: false,
      holdoutShare: 0.2,
      tuningNotes: [],
    },
  };
}

describe("the studio's evaluation report", () => {
  it('is the core evaluation JSON with the time, the files, the kept-back rows and the run', () => {
    const run = finishedRun();
    const createdAt = new Date('2026-03-04T05:06:07.000Z');
    const mechanism = getMechanismMeta('laplace-histogram')!;
    expect(evaluationReportOf(run, evaluation, createdAt)).toEqual(
      evaluationJson(evaluation, {
        appVersion: APP_VERSION,
        createdAt: '2026-03-04T05:06:07.000Z',
        realFile: 'people.csv',
        syntheticFiles: [
          'synth_laplace-histogram_eps1_1-of-2.csv',
          'synth_laplace-histogram_eps1_2-of-2.csv',
        ],
        holdout: { rows: 6 },
        run: {
          mechanism: {
            id: mechanism.id,
            label: mechanism.label,
            reference: mechanism.reference,
            params: { bins: 4 },
          },
          claim: run.summary.claim,
        },
      }),
    );
    const json = evaluationReportOf(run, evaluation, createdAt);
    expect(json.mechanism?.params).toEqual({ bins: 4 });
    expect(json.mechanism?.params).not.toBe(run.configuration.params);
    expect(json.pmse.value).toBe(evaluation.pmse.mean.value);
  });

  it('has no holdout without kept-back rows, and refuses an evaluation of another number of releases', () => {
    const run = finishedRun();
    const whole = { ...run, summary: { ...run.summary, holdoutRows: 0 } };
    expect(evaluationReportOf(whole, evaluation).holdout).toBeUndefined();
    const three = { ...run, summary: { ...run.summary, releases: 3 } };
    expect(() => evaluationReportOf(three, evaluation)).toThrow(/2 releases but 3 file names/);
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { Accountant } from '../../core/privacy/accountant';
import { parseBudget } from '../../core/privacy/budget';
import type { Schema } from '../../core/table/types';
import type { FinishedRun } from '../state/results-store';
import {
  describeLooks,
  earlierRunNotes,
  exportsOtherThan,
  recordLook,
  resetLedger,
  selectSpent,
  useLedgerStore,
} from '../state/ledger-store';
import { recordRunExport, releaseReportOf } from './export-files';

const schema: Schema = {
  version: 1,
  columns: [{ name: 'age', type: 'numeric', bounds: [0, 120], integer: true, source: 'declared' }],
  missing: [''],
};

/** A finished laplace-histogram run at ε (its claim as the accountant states it). */
function finishedRun(jobId: string, epsilon: string): FinishedRun {
  const accountant = new Accountant(parseBudget(epsilon));
  accountant.reserve('noisy histogram', parseBudget(epsilon).epsilon);
  const claim = accountant.claim([]);
  return {
    summary: {
      jobId,
      trainRows: 100,
      holdoutRows: 0,
      claim,
      diagnostics: {},
      dataHolderDiagnostics: {},
      rows: 100,
      columns: 1,
      releases: 1,
      runMillis: 1,
      comparison: { tvdOneWay: [0], tvdTwoWay: [0], overlays: [] },
    },
    configuration: {
      datasetId: 'd1',
      fileName: 'people.csv',
      schema,
      mechanismId: 'laplace-histogram',
      params: { bins: 4 },
      epsilon,
      delta: '0',
      releases: 1,
      seeded: false,
      holdoutShare: 0,
      tuningNotes: [],
    },
  };
}

describe('the studio ledger', () => {
  beforeEach(() => resetLedger());

  it('gives two exports of two runs at ε = 1 a cumulative ε of 2 in the second report', () => {
    const first = finishedRun('run-1', '1');
    const second = finishedRun('run-2', '1');
    const firstReport = releaseReportOf(first, { cumulative: recordRunExport(first) });
    expect(firstReport.cumulative).toMatchObject({ epsilon: 1, delta: 0, releases: 1 });
    const secondReport = releaseReportOf(second, { cumulative: recordRunExport(second) });
    expect(secondReport.cumulative).toMatchObject({ epsilon: 2, delta: 0, releases: 2 });
    expect(secondReport.cumulative!.counted).toMatch(/every export of this dataset/);
  });

  it('counts a run saved twice (its CSV, then its report) once: the same output spends nothing more', () => {
    const run = finishedRun('run-1', '0.5');
    recordRunExport(run);
    expect(recordRunExport(run)).toMatchObject({ epsilon: 0.5, releases: 1 });
    expect(exportsOtherThan(useLedgerStore.getState(), 'run-1')).toEqual([]);
    expect(exportsOtherThan(useLedgerStore.getState(), 'run-2')).toHaveLength(1);
  });

  it('counts each look once by its key, sums what was spent, and forgets it with the data', () => {
    const look = {
      kind: 'sweep' as const,
      mechanism: 'dp-marginals',
      epsilon: 0.1,
      delta: 0,
      runs: 1,
      what: 'x',
    };
    recordLook('sweep:a/0.1/0', look);
    recordLook('sweep:a/0.1/0', look); // shown again from the cache
    recordLook('sweep:a/0.2/0', { ...look, epsilon: 0.2 });
    expect(selectSpent(useLedgerStore.getState())).toEqual({ epsilon: 0.3, delta: 0, entries: 2 });
    resetLedger();
    expect(selectSpent(useLedgerStore.getState()).entries).toBe(0);
  });

  it('does not call a learning of schema facts a run in the ledger summary', () => {
    expect(describeLooks([])).toBe('0 runs');
    expect(describeLooks([{ kind: 'run' }])).toBe('1 run');
    expect(describeLooks([{ kind: 'domain' }])).toBe('1 domain learning');
    expect(describeLooks([{ kind: 'domain' }, { kind: 'run' }])).toBe('1 run and 1 domain learning');
    expect(describeLooks([{ kind: 'run' }, { kind: 'sweep' }, { kind: 'domain' }, { kind: 'domain' }])).toBe(
      '2 runs and 2 domain learnings',
    );
  });

  it('lists the runs whose results were shown before a run as notes for its report', () => {
    expect(earlierRunNotes([])).toEqual([]);
    recordLook('run-1', {
      kind: 'run',
      mechanism: 'laplace-histogram',
      epsilon: 1,
      delta: 0,
      runs: 1,
      what: 'r',
    });
    recordLook('sweep:k', {
      kind: 'sweep',
      mechanism: 'laplace-histogram',
      epsilon: 4,
      delta: 0,
      runs: 1,
      what: 's',
    });
    expect(earlierRunNotes(useLedgerStore.getState().looks)).toEqual([
      'Before this run, the results of 1 other run on the same data were shown: laplace-histogram (ε = 1); ' +
        'ε = 1 in total. If they informed this choice, that budget was spent on the data too.',
    ]);
  });
});

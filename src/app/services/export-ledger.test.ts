import { beforeEach, describe, expect, it } from 'vitest';
import { Accountant } from '../../core/privacy/accountant';
import { parseBudget } from '../../core/privacy/budget';
import type { Neighbouring } from '../../core/privacy/neighbouring-relation';
import { convertedLedgerNote } from '../../core/privacy/report';
import type { Schema } from '../../core/table/types';
import type { FinishedRun } from '../state/results-store';
import {
  cumulativeBudget,
  describeLooks,
  earlierRunNotes,
  ledgerSummaryParts,
  recordDomainLearning,
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

/** A finished laplace-histogram run at ε (its claim as the accountant states it, under `neighbouring`). */
function finishedRun(
  jobId: string,
  epsilon: string,
  neighbouring: Neighbouring = 'replace-one',
): FinishedRun {
  const accountant = new Accountant(parseBudget(epsilon));
  accountant.reserve('noisy histogram', parseBudget(epsilon).epsilon);
  const claim = { ...accountant.claim([]), neighbouring };
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
    expect(secondReport.cumulative!.counted).toMatch(/every export, this one included/);
    expect(secondReport.cumulative!.exported).toEqual({ epsilon: 2, delta: 0, releases: 2 });
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
      neighbouring: 'replace-one' as const,
    };
    recordLook('sweep:a/0.1/0', look);
    recordLook('sweep:a/0.1/0', look); // shown again from the cache
    recordLook('sweep:a/0.2/0', { ...look, epsilon: 0.2 });
    expect(selectSpent(useLedgerStore.getState())).toEqual({
      epsilon: 0.3,
      delta: 0,
      entries: 2,
      neighbouring: 'replace-one',
      converted: 0,
    });
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

  it('lists the runs and learnings shown before a run as notes for its report, metrics not counted', () => {
    expect(earlierRunNotes([])).toEqual([]);
    recordLook('run-1', {
      kind: 'run',
      mechanism: 'laplace-histogram',
      epsilon: 1,
      delta: 0,
      runs: 1,
      what: 'r',
      neighbouring: 'replace-one' as const,
    });
    recordLook('sweep:k', {
      kind: 'sweep',
      mechanism: 'laplace-histogram',
      epsilon: 4,
      delta: 0,
      runs: 1,
      what: 's',
      neighbouring: 'replace-one' as const,
    });
    expect(earlierRunNotes(useLedgerStore.getState().looks)).toEqual([
      'Before this run, the results of 1 other run on the real data were shown: laplace-histogram (ε = 1). ' +
        'Their synthetic data are differentially private and counted in the cumulative budget (ε = 1); if ' +
        'they informed this choice, the utility metrics (and any MCMC traces) shown with them compare the ' +
        'synthetic data with the real data, are not differentially private, and are not counted in this ' +
        'claim or in the cumulative budget; the guarantee holds only if the choice is treated as public.',
    ]);
  });

  it('states one ledger total in the report: four runs shown, a discarded learning, a fifth run exported', () => {
    for (const id of ['run-1', 'run-2', 'run-3', 'run-4'])
      recordLook(id, {
        kind: 'run',
        mechanism: 'laplace-histogram',
        epsilon: 1,
        delta: 0,
        runs: 1,
        what: 'r',
        neighbouring: 'replace-one' as const,
      });
    // Learned with DP and shown, then thrown away with "Reset to inferred": still spent.
    recordDomainLearning('domain:2026-01-01T00:00:00.000Z', { epsilon: 0.5, delta: 1e-6 }, 3);
    const fifth = finishedRun('run-5', '1');
    fifth.configuration.tuningNotes = earlierRunNotes(useLedgerStore.getState().looks);
    recordLook('run-5', {
      kind: 'run',
      mechanism: 'laplace-histogram',
      epsilon: 1,
      delta: 0,
      runs: 1,
      what: 'r',
      neighbouring: 'replace-one' as const,
    });
    // The Mechanism step's total.
    expect(selectSpent(useLedgerStore.getState())).toMatchObject({ epsilon: 5.5, delta: 1e-6 });
    const report = releaseReportOf(fifth, { cumulative: recordRunExport(fifth) });
    expect(report.cumulative).toMatchObject({ epsilon: 5.5, delta: 1e-6, releases: 1 });
    expect(report.cumulative!.exported).toEqual({ epsilon: 1, delta: 0, releases: 1 });
    expect(report.cumulative!.lookedAt).toEqual({
      epsilon: 5.5,
      delta: 1e-6,
      looks: [
        { what: 'runs whose results were shown', count: 5, epsilon: 5, delta: 0 },
        {
          what: 'learnings of schema facts with DP (kept or discarded)',
          count: 1,
          epsilon: 0.5,
          delta: 1e-6,
        },
      ],
    });
    const notes = report.notes.join(' ');
    expect(notes).toContain('the results of 4 other runs on the real data were shown');
    expect(notes).toContain('are not differentially private, and are not counted in this claim');
    expect(notes).toContain(
      'schema facts were learned from the real data with DP 1 time (ε = 0.5, δ = 0.000001',
    );
    expect(notes).not.toContain('that budget was spent on the data too');
  });

  it('counts sweep points and comparison runs in the total beside the exports', () => {
    recordLook('sweep:a/0.1/0', {
      kind: 'sweep',
      mechanism: 'mst',
      epsilon: 0.1,
      delta: 0,
      runs: 1,
      what: 's',
      neighbouring: 'replace-one' as const,
    });
    recordLook('compare:b/0', {
      kind: 'compare',
      mechanism: 'aim',
      epsilon: 2,
      delta: 0,
      runs: 1,
      what: 'c',
      neighbouring: 'replace-one' as const,
    });
    const run = finishedRun('run-1', '1');
    recordLook('run-1', {
      kind: 'run',
      mechanism: 'laplace-histogram',
      epsilon: 1,
      delta: 0,
      runs: 1,
      what: 'r',
      neighbouring: 'replace-one' as const,
    });
    recordRunExport(run);
    const total = cumulativeBudget(useLedgerStore.getState());
    expect(total).toMatchObject({
      epsilon: 3.1,
      releases: 1,
      exported: { epsilon: 1, delta: 0, releases: 1 },
    });
    expect(total.lookedAt!.looks.map((look) => [look.what, look.count, look.epsilon])).toEqual([
      ['runs whose results were shown', 1, 1],
      ['ε-sweep points shown', 1, 0.1],
      ['comparison runs shown', 1, 2],
    ]);
  });

  it('states the summary and the report under replace-one once runs under add/remove and replace-one mix', () => {
    const look = (key: string, epsilon: number, delta: number, neighbouring: Neighbouring) =>
      recordLook(key, {
        kind: 'run',
        mechanism: 'laplace-histogram',
        epsilon,
        delta,
        runs: 1,
        what: 'r',
        neighbouring,
      });
    // Under add/remove alone the summary states its relation and sums unconverted.
    look('run-1', 1, 0, 'add-remove');
    const first = finishedRun('run-1', '1', 'add-remove');
    recordRunExport(first);
    expect(ledgerSummaryParts(useLedgerStore.getState())).toEqual({
      spent: 'ε = 1 (add/remove)',
      looks: '1 run',
      exported: 'ε = 1 (add/remove) in 1 export',
    });
    expect(cumulativeBudget(useLedgerStore.getState())).toMatchObject({
      epsilon: 1,
      neighbouring: 'add-remove',
    });
    // The relation switched to replace-one: the add/remove run counts as ε = 2 under replace-one
    // (a replacement is a removal and an addition, Dwork & Roth 2014, Theorem 2.2), so 2 + 1 = 3, not 2.
    look('run-2', 1, 0, 'replace-one');
    expect(ledgerSummaryParts(useLedgerStore.getState())).toEqual({
      spent: 'ε = 3 (replace-one, add/remove entries converted)',
      looks: '2 runs',
      exported: 'ε = 1 (add/remove) in 1 export',
    });
    const second = finishedRun('run-2', '1');
    const report = releaseReportOf(second, { cumulative: recordRunExport(second) });
    expect(report.cumulative).toMatchObject({
      epsilon: 3,
      delta: 0,
      releases: 2,
      neighbouring: 'replace-one',
      converted: 1,
      exported: { epsilon: 3, delta: 0, releases: 2 },
      lookedAt: {
        epsilon: 3,
        delta: 0,
        looks: [{ what: 'runs whose results were shown', count: 2, epsilon: 3 }],
      },
    });
    expect(report.notes).toContain(convertedLedgerNote(1));
    // Back to add/remove with δ: (1, 1e-6) under add/remove is (2, (1 + e)·1e-6) under replace-one
    // (Dwork & Roth 2014, §2.3); e = 2.718281828…, so δ = 3.718281…e-6, rounded up 3.71829e-6.
    look('run-3', 1, 1e-6, 'add-remove');
    expect(ledgerSummaryParts(useLedgerStore.getState())!.spent).toBe(
      'ε = 5, δ = 0.00000371829 (replace-one, add/remove entries converted)',
    );
    expect(earlierRunNotes(useLedgerStore.getState().looks)[0]).toContain(
      'laplace-histogram (ε = 1, add/remove); laplace-histogram (ε = 1); laplace-histogram (ε = 1, δ = 0.000001, add/remove)',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { forgetPreviousDataset, onDatasetReplaced } from './dataset-resets';
import { LEDGER_RESET, recordLook, useLedgerStore } from './ledger-store';

describe('forgetting the previous dataset', () => {
  it('runs every reset but those kept: a file read again in another encoding keeps its ledger', () => {
    const ran: string[] = [];
    onDatasetReplaced('test results', () => ran.push('test results'));
    recordLook('run-1', {
      kind: 'run',
      mechanism: 'mst',
      epsilon: 1,
      delta: 1e-9,
      runs: 1,
      what: 'a run',
      neighbouring: 'replace-one',
    });
    forgetPreviousDataset([LEDGER_RESET]);
    expect(ran).toEqual(['test results']);
    expect(useLedgerStore.getState().looks.map((look) => look.key)).toEqual(['run-1']);

    forgetPreviousDataset();
    expect(ran).toEqual(['test results', 'test results']);
    expect(useLedgerStore.getState().looks).toEqual([]);
  });
});

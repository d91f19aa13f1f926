import { describe, expect, it, vi } from 'vitest';
import type { Schema } from '../core/table/types';
import { isSpentBudgetError } from '../core/privacy/spent-budget-error';
import { dataWorker } from './data-worker';
import { poolWorker } from './pool-worker';
import { handTableOver } from './testing/worker-routes';

// Scoring fails here as it does on a release of 0 rows (pMSE needs a synthetic row), which an
// add/remove release can be: the mechanism has run, so its budget is spent.
vi.mock('../core/metrics/pmse', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../core/metrics/pmse')>()),
  computePmse: () => {
    throw new Error('pMSE needs at least one real and one synthetic row');
  },
}));

const SCHEMA: Schema = {
  version: 1,
  columns: [{ name: 'g', type: 'categorical', categories: ['a', 'b'], source: 'declared' }],
  missing: [''],
};

describe('a sweep point whose scoring fails after the run', () => {
  it('fails as spent, so the page counts the look (isSpentBudgetError)', async () => {
    await dataWorker.loadCsvText(['g', 'a', 'b', 'a', 'b'].join('\n'), 'g.csv', () => {});
    await handTableOver(SCHEMA, 'key-scoring');
    const job = {
      jobId: 'scoring-1',
      tableKey: 'key-scoring',
      schema: SCHEMA,
      mechanismId: 'laplace-histogram',
      params: {},
      epsilon: '1',
      delta: '0',
      releases: 1,
      seed: 'scoring',
    };
    const failure = await poolWorker.sweepPoint(job, 1, 0).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe('FailedAfterSpendingError');
    expect(isSpentBudgetError(failure)).toBe(true);
    expect((failure as Error).message).toContain('pMSE needs at least one real and one synthetic row');
  });
});

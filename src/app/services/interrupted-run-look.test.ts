import { beforeEach, describe, expect, it } from 'vitest';
import { Accountant } from '../../core/privacy/accountant';
import { parseBudget } from '../../core/privacy/budget';
import { withDomainSteps } from '../../core/privacy/domain-claim';
import type { Schema } from '../../core/table/types';
import { resetLedger, selectSpent, useLedgerStore } from '../state/ledger-store';
import { addLiveMcmcPoint, beginLiveMcmc, clearLiveMcmc } from '../state/live-mcmc-store';
import { SpentBudgetError } from '../../core/privacy/spent-budget-error';
import { recordInterruptedRunLook, recordRefusedRunLook } from './interrupted-run-look';

/** A schema whose facts were learned with DP for ε = 2, δ = 1e-6. */
const LEARNED: Schema = {
  version: 1,
  columns: [{ name: 'x', type: 'numeric', bounds: [0, 10], source: 'dp' }],
  missing: [''],
  domainBudget: {
    epsilon: '2',
    delta: '0.000001',
    learnedAt: '2026-01-01T00:00:00Z',
    steps: [{ fact: 'x.lower', what: 'lower bound of `x`', epsilon: '2', delta: '0.000001' }],
  },
};

/** A claim spending ε as the accountant states it. */
function claimAt(epsilon: string) {
  const accountant = new Accountant(parseBudget(epsilon));
  accountant.reserve('chains', parseBudget(epsilon).epsilon);
  return accountant.claim([]);
}

describe('recordInterruptedRunLook', () => {
  beforeEach(() => {
    resetLedger();
    clearLiveMcmc();
  });

  it('counts a stopped run whose live traces were shown', () => {
    beginLiveMcmc('run-1', 2, 10, 100);
    addLiveMcmcPoint('run-1', 0, 1, -0.25, 0.3);
    expect(recordInterruptedRunLook('run-1', 'pmse-mechanism', claimAt('1.5'))).toBe(true);
    expect(selectSpent(useLedgerStore.getState())).toEqual({
      epsilon: 1.5,
      delta: 0,
      entries: 1,
      neighbouring: 'replace-one',
      converted: 0,
    });
  });

  it('counts nothing when no trace point of that run was shown', () => {
    beginLiveMcmc('run-1', 2, 10, 100);
    expect(recordInterruptedRunLook('run-1', 'pmse-mechanism', claimAt('1.5'))).toBe(false);
    addLiveMcmcPoint('run-1', 0, 1, -0.25, 0.3);
    // Traces of another run say nothing about this one.
    expect(recordInterruptedRunLook('run-2', 'pmse-mechanism', claimAt('1.5'))).toBe(false);
    expect(selectSpent(useLedgerStore.getState()).entries).toBe(0);
  });
});

describe('recordRefusedRunLook', () => {
  beforeEach(() => {
    resetLedger();
    clearLiveMcmc();
  });

  it('counts a run refused after its budget was spent, with or without live traces', () => {
    expect(
      recordRefusedRunLook('run-1', 'pmse-mechanism', claimAt('0.5'), new SpentBudgetError('Refused.')),
    ).toBe(true);
    // From a worker the error arrives as a plain Error carrying the name and message (Comlink).
    const fromWorker = Object.assign(new Error('Refused.'), { name: 'SpentBudgetError' });
    expect(recordRefusedRunLook('run-2', 'pmse-mechanism', claimAt('0.25'), fromWorker)).toBe(true);
    expect(selectSpent(useLedgerStore.getState())).toEqual({
      epsilon: 0.75,
      delta: 0,
      entries: 2,
      neighbouring: 'replace-one',
      converted: 0,
    });
    expect(useLedgerStore.getState().looks[0]!.what).toBe(
      'run of pmse-mechanism refused after its budget was spent (nothing released)',
    );
  });

  it("counts only the mechanism's part of a claim on a learned schema (the learning is counted once, on its own)", () => {
    const claim = withDomainSteps(claimAt('0.5'), LEARNED);
    expect(claim.epsilon).toBe(2.5);
    expect(recordRefusedRunLook('run-1', 'pmse-mechanism', claim, new SpentBudgetError('Refused.'))).toBe(
      true,
    );
    beginLiveMcmc('run-2', 2, 10, 100);
    addLiveMcmcPoint('run-2', 0, 1, -0.25, 0.3);
    expect(
      recordInterruptedRunLook('run-2', 'pmse-mechanism', withDomainSteps(claimAt('0.25'), LEARNED)),
    ).toBe(true);
    expect(selectSpent(useLedgerStore.getState())).toEqual({
      epsilon: 0.75,
      delta: 0,
      entries: 2,
      neighbouring: 'replace-one',
      converted: 0,
    });
  });

  it('leaves other failures to the live-trace rule', () => {
    expect(
      recordRefusedRunLook('run-1', 'pmse-mechanism', claimAt('0.5'), new Error('Worker crashed.')),
    ).toBe(false);
    expect(recordRefusedRunLook('run-1', 'pmse-mechanism', claimAt('0.5'), 'text')).toBe(false);
    expect(selectSpent(useLedgerStore.getState()).entries).toBe(0);
  });
});

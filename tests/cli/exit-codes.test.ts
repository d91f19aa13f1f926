import { describe, expect, it } from 'vitest';
import { isUserError, UsageError } from '../../src/cli/errors';
import { MeterMismatchError } from '../../src/core/privacy/meter';
import {
  FailedAfterSpendingError,
  isSpentBudgetError,
  SpentBudgetError,
} from '../../src/core/privacy/spent-budget-error';
import { InputError } from '../../src/core/table/errors';

/** What a worker boundary leaves of an error: a plain Error with its name and message (Comlink). */
function acrossWorker(error: Error): Error {
  const plain = new Error(error.message);
  plain.name = error.name;
  return plain;
}

describe('CLI exit codes of refused runs', () => {
  it('a run whose charges differ from its claim is an internal error (exit 1) whose budget still counts', () => {
    const mismatch = new MeterMismatchError('Privacy meter: step 1 ("noisy counts") charged ε = 0 of 1.');
    const failed = new FailedAfterSpendingError(
      'The run failed after drawing noise on the data: out of memory',
    );
    for (const error of [mismatch, acrossWorker(mismatch), failed, acrossWorker(failed)]) {
      expect(isUserError(error)).toBe(false);
      expect(isSpentBudgetError(error)).toBe(true);
    }
  });

  it('a refusal decided from DP outputs and bad input stay user errors (exit 2)', () => {
    const refused = new SpentBudgetError('a synthetic value overflows; nothing released.');
    for (const error of [refused, acrossWorker(refused)]) {
      expect(isUserError(error)).toBe(true);
      expect(isSpentBudgetError(error)).toBe(true);
    }
    expect(isUserError(new InputError('bad file'))).toBe(true);
    expect(isUserError(new UsageError('no such flag'))).toBe(true);
    expect(isUserError(new Error('internal'))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { InputError } from '../table/errors';
import { isSpentBudgetError, SPENT_BUDGET_ERROR_NAME, SpentBudgetError } from './spent-budget-error';

describe('SpentBudgetError', () => {
  it('is an input error named so that it is recognised after a worker boundary', () => {
    const error = new SpentBudgetError('values overflow');
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe('values overflow');
    expect(error.name).toBe('SpentBudgetError');
    expect(isSpentBudgetError(error)).toBe(true);
    // What structured cloning leaves of it: a plain Error with its name and message.
    const cloned = Object.assign(new Error('values overflow'), { name: SPENT_BUDGET_ERROR_NAME });
    expect(isSpentBudgetError(cloned)).toBe(true);
  });

  it('is not any other error, nor an object that only carries the name', () => {
    expect(isSpentBudgetError(new InputError('bad column'))).toBe(false);
    expect(isSpentBudgetError(new Error('x'))).toBe(false);
    expect(isSpentBudgetError({ name: SPENT_BUDGET_ERROR_NAME, message: 'x' })).toBe(false);
    expect(isSpentBudgetError(null)).toBe(false);
  });
});

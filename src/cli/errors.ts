import { InputError } from '../core/table/errors';
import { BudgetError } from '../core/privacy/budget';
import { isInternalSpentBudgetError } from '../core/privacy/spent-budget-error';

/** Wrong command-line usage (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Errors caused by the user's input, reported with exit code 2 rather than as internal failures. */
export function isUserError(error: unknown): boolean {
  // A run whose noise differs from its claim, or that failed after drawing, is a fault of the code
  // (exit 1), though its budget counts.
  if (isInternalSpentBudgetError(error)) return false;
  if (error instanceof UsageError || error instanceof InputError || error instanceof BudgetError) return true;
  const name = (error as Error | undefined)?.name;
  return (
    name === 'ParamError' || name === 'InputError' || name === 'BudgetError' || name === 'SpentBudgetError'
  );
}

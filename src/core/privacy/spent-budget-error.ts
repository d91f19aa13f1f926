import { InputError } from '../table/errors';

/** The `name` of a SpentBudgetError; kept when the error crosses a worker boundary (Comlink keeps name and message). */
export const SPENT_BUDGET_ERROR_NAME = 'SpentBudgetError';

/**
 * The `name` of a MeterMismatchError (privacy/meter.ts): a run whose charges differ from its claim. It
 * is a SpentBudgetError (the budget counts) but an internal failure, not the user's input (CLI exit 1).
 */
export const METER_MISMATCH_ERROR_NAME = 'MeterMismatchError';

/**
 * A run that stops after its budget was reserved and used, releasing nothing: for example the pMSE
 * mechanism refusing synthetic values that overflow, a decision made from its DP outputs. The budget
 * counts as spent, so a ledger (the CLI's --ledger file, the studio's privacy ledger) records the run.
 */
export class SpentBudgetError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = SPENT_BUDGET_ERROR_NAME;
  }
}

/** Whether `error` is a SpentBudgetError, also after a worker boundary turned it into a plain Error. */
export function isSpentBudgetError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === SPENT_BUDGET_ERROR_NAME || error.name === METER_MISMATCH_ERROR_NAME)
  );
}

/** Whether `error` is a MeterMismatchError, also after a worker boundary turned it into a plain Error. */
export function isMeterMismatchError(error: unknown): boolean {
  return error instanceof Error && error.name === METER_MISMATCH_ERROR_NAME;
}

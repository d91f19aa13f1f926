import { InputError } from '../table/errors';

/** The `name` of a SpentBudgetError; kept when the error crosses a worker boundary (Comlink keeps name and message). */
export const SPENT_BUDGET_ERROR_NAME = 'SpentBudgetError';

/**
 * The `name` of a MeterMismatchError (privacy/meter.ts): a run whose charges differ from its claim. It
 * is a SpentBudgetError (the budget counts) but an internal failure, not the user's input (CLI exit 1).
 */
export const METER_MISMATCH_ERROR_NAME = 'MeterMismatchError';

/**
 * The `name` of a FailedAfterSpendingError: a run that failed for any other reason after its first
 * metered draw. Nothing is released, but noise was drawn on the data, so the budget counts; an
 * internal error (CLI exit 1).
 */
export const FAILED_AFTER_SPENDING_ERROR_NAME = 'FailedAfterSpendingError';

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
    (error.name === SPENT_BUDGET_ERROR_NAME ||
      error.name === METER_MISMATCH_ERROR_NAME ||
      error.name === FAILED_AFTER_SPENDING_ERROR_NAME)
  );
}

/** Whether `error` is a MeterMismatchError, also after a worker boundary turned it into a plain Error. */
export function isMeterMismatchError(error: unknown): boolean {
  return error instanceof Error && error.name === METER_MISMATCH_ERROR_NAME;
}

/**
 * Whether `error` says the run spent budget and then failed through a fault of the code (a meter
 * mismatch, or any other failure after the first draw): the budget counts, the CLI exits 1.
 */
export function isInternalSpentBudgetError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === METER_MISMATCH_ERROR_NAME || error.name === FAILED_AFTER_SPENDING_ERROR_NAME)
  );
}

/** A run that failed after its first metered draw, for a reason other than a refusal or a cancel. */
export class FailedAfterSpendingError extends SpentBudgetError {
  constructor(message: string) {
    super(message);
    this.name = FAILED_AFTER_SPENDING_ERROR_NAME;
  }
}

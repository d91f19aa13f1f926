import { parseBudget, type PrivacyBudget } from '../privacy/budget';
import { roundUpRational } from '../privacy/round-up';
import { parseRational } from '../rng/rational';

/** δ as typed in a form: trimmed, and "0" when the field is empty (no δ: pure ε-DP unless a default applies). */
export function deltaAsTyped(delta: string): string {
  return delta.trim() || '0';
}

/**
 * A job's total budget as exact rationals (privacy rule 7), parsed once from the decimal text the
 * job carries (the text goes into the mechanism's context unchanged, for its claim).
 * Throws BudgetError naming the value at fault.
 */
export function parseJobBudget(job: { epsilon: string; delta: string }): PrivacyBudget {
  return parseBudget(job.epsilon, job.delta);
}

/**
 * A budget figure as typed ("0.5", "1/2", "1e-6"; empty: 0) as the number a ledger entry records:
 * parsed exactly and rounded up (privacy rule 7), so a fraction is never recorded as NaN and a
 * decimal never below its value. Throws RangeError for text that is not a number.
 */
export function budgetFigureUp(text: string): number {
  return roundUpRational(parseRational(text.trim() || '0'));
}

import { parseBudget, type PrivacyBudget } from '../privacy/budget';

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

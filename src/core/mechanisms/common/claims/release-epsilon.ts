import { Accountant } from '../../../privacy/accountant';
import { parseBudget } from '../../../privacy/budget';
import type { PublicContext } from '../../types';

/**
 * ε per release as a run reserves it when M releases split the budget (Accountant.split, then
 * rounded down), for public warnings in `describe`. Null when ε or δ cannot be parsed: the budget
 * fields report that themselves. Example: ε = "1", M = 10 → 0.1.
 */
export function releaseEpsilonForDescription(context: PublicContext): number | null {
  try {
    const budget = parseBudget(context.epsilon, context.delta);
    return Accountant.split(budget.epsilon, context.releases).toNumberDown();
  } catch {
    return null;
  }
}

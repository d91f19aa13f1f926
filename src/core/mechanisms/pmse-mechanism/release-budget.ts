import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import type { PublicContext } from '../types';

/** Text of the accountant step for release `index` (0-based) of `releases`. */
export function releaseStepText(index: number, releases: number): string {
  return (
    `release ${index + 1} of ${releases}: parameters θ̃ from the exponential mechanism with the CART pMSE ` +
    `quality (sensitivity 1/n), then n rows from the synthesis model g(θ̃)`
  );
}

/** Reserves ε/l for each of the l releases (Algorithm 2: l draws, each (ε/l)-DP; sequential composition). */
export function reserveReleaseBudget(accountant: BudgetReserver, context: PublicContext): number {
  const budget = parseBudget(context.epsilon, context.delta);
  const share = Accountant.split(budget.epsilon, context.releases);
  for (let release = 0; release < context.releases; release++) {
    accountant.reserve(releaseStepText(release, context.releases), share);
  }
  return share.toNumberDown();
}

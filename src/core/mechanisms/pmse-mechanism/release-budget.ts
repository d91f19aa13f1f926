import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import type { MeterStep } from '../../privacy/meter';
import type { QueryKind } from '../../privacy/query-sensitivity';
import type { Rational } from '../../rng/rational';
import type { PublicContext } from '../types';
import { isProvenQuality, UNLIMITED_TREE_DEPTH, type PmseQuality } from './pmse-params';

/** The quality function and its Δu as the claim's steps name them, e.g. "grid-tree pMSE, Δu = 1/(2n)". */
export function qualityStepName(quality: PmseQuality): string {
  switch (quality.kind) {
    case 'grid-tree':
      return 'grid-tree pMSE, Δu = 1/(2n)';
    case 'exhaustive-stump':
      return 'exhaustive-stump pMSE, Δu = 1/(2n)';
    case 'greedy-tree':
      return (
        `greedy-tree pMSE (depth ${quality.tree.maxDepth === UNLIMITED_TREE_DEPTH ? 'unlimited' : quality.tree.maxDepth}), ` +
        'Δu = 1/n not proven'
      );
  }
}

/** Text of the accountant step for release `index` (0-based) of `releases`. */
export function releaseStepText(index: number, releases: number, quality: PmseQuality): string {
  return (
    `release ${index + 1} of ${releases}: parameters θ̃ from the exponential mechanism with the ` +
    `${qualityStepName(quality)}, then n rows from the synthesis model g(θ̃)`
  );
}

/**
 * Reserves ε/l for each of the l releases (Algorithm 2: l draws, each (ε/l)-DP; sequential composition)
 * and returns ε/l exactly with the step of each release, in release order.
 */
export function reserveReleaseBudget(
  accountant: BudgetReserver,
  context: PublicContext,
  quality: PmseQuality,
): { epsilon: Rational; steps: MeterStep[] } {
  const budget = parseBudget(context.epsilon, context.delta);
  const share = Accountant.split(budget.epsilon, context.releases);
  const steps = Array.from({ length: context.releases }, (_, release) =>
    accountant.reserve(releaseStepText(release, context.releases, quality), share),
  );
  return { epsilon: share, steps };
}

/**
 * The query each chain's draws answer: the pMSE score of n synthetic rows against the n real ones, over
 * partitions fixed before the data are read (grid tree, exhaustive stump: Δu = 1/(2n) proven) or greedy
 * trees (the paper's 1/n, not proven); privacy/query-sensitivity.ts.
 */
export function pmseScoreQuery(quality: PmseQuality, n: number): Extract<QueryKind, { kind: 'pmse-score' }> {
  return {
    kind: 'pmse-score',
    rows: n,
    partitions: isProvenQuality(quality) ? 'fixed-before-data' : 'greedy-tree',
  };
}

import { regularizedIncompleteBeta } from '../../src/core/stats/regularized-incomplete-beta';

const BISECTION_STEPS = 200;

/** The p in [0, 1] where the continuous, monotone `f` crosses `target`, by bisection. */
function solveMonotone(f: (p: number) => number, target: number, increasing: boolean): number {
  let lo = 0;
  let hi = 1;
  for (let step = 0; step < BISECTION_STEPS && lo < hi; step++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (f(mid) < target === increasing) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * One-sided Clopper–Pearson lower confidence bound for a binomial proportion: the p with
 * P(X ≥ k | N, p) = α, where P(X ≥ k | N, p) = I_p(k, N − k + 1) (Clopper & Pearson 1934; the
 * beta–binomial identity, Abramowitz & Stegun 26.5.24). 0 when k = 0.
 * Example: k = N gives α^(1/N) exactly.
 */
export function clopperPearsonLower(successes: number, trials: number, alpha: number): number {
  if (successes === 0) return 0;
  return solveMonotone((p) => regularizedIncompleteBeta(p, successes, trials - successes + 1), alpha, true);
}

/**
 * One-sided Clopper–Pearson upper confidence bound: the p with P(X ≤ k | N, p) = α, where
 * P(X ≤ k | N, p) = I_(1−p)(N − k, k + 1). 1 when k = N.
 * Example: k = 0 gives 1 − α^(1/N) exactly.
 */
export function clopperPearsonUpper(successes: number, trials: number, alpha: number): number {
  if (successes === trials) return 1;
  return solveMonotone(
    (p) => regularizedIncompleteBeta(1 - p, trials - successes, successes + 1),
    alpha,
    false,
  );
}

/**
 * A lower confidence bound on the privacy loss an event reveals between two neighbouring inputs:
 * log(lower(P[E | a]) / upper(P[E | b])), each bound one-sided at level α, so the bound holds with
 * probability ≥ 1 − 2α. −Infinity when the event was never seen under a.
 */
export function epsilonLowerBound(hitsA: number, hitsB: number, trials: number, alpha: number): number {
  const lower = clopperPearsonLower(hitsA, trials, alpha);
  return lower === 0 ? -Infinity : Math.log(lower / clopperPearsonUpper(hitsB, trials, alpha));
}

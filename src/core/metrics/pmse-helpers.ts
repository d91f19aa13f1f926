import type { CartWorkspace } from '../models/cart/cart-workspace';
import { rpartClassProbability } from '../models/cart/fit-cart';

/**
 * pMSE = (1/N) Σ_i (p̂_i − c)² (Snoke & Slavković 2018, Algorithm 1 step 5, with c = n_synth/N
 * as in synthpop instead of 1/2). Summed with Neumaier's compensated summation, so the result is
 * within a few ulp of the exact sum (R sums in long double). O(N).
 * Example: propensities [0.5, 0.5] with c = 0.5 give 0.
 */
export function pmseOfPropensities(propensities: Float64Array, share: number): number {
  let sum = 0;
  let compensation = 0;
  for (let i = 0; i < propensities.length; i++) {
    const deviation = propensities[i]! - share;
    const term = deviation * deviation;
    const next = sum + term;
    compensation += Math.abs(sum) >= term ? sum - next + term : term - next + sum;
    sum = next;
  }
  return (sum + compensation) / propensities.length;
}

/**
 * pMSE of the tree last grown in `workspace`, from its leaves: every row of leaf t has
 * p̂ = n1_t/n_t (in rpart's floating-point steps, fit-cart.ts nodeClass1Proportion), so (1/N) Σ_i (p̂_i − c)² = (1/N) Σ_t n_t (n1_t/n_t − c)². O(leaves).
 */
export function cartPmseFromLeaves(workspace: CartWorkspace, share: number): number {
  // rpart's class weights fl(c_j/n)/c_j (fit-cart.ts rpartClassWeights), inline: no allocation.
  const n = workspace.n;
  const rootClass1 = workspace.nodeClass1[0]!;
  const weight0 = (n - rootClass1) / n / Math.max(1, n - rootClass1);
  const weight1 = rootClass1 / n / Math.max(1, rootClass1);
  let sum = 0;
  let compensation = 0;
  for (let t = 0; t < workspace.nodeCount; t++) {
    if (workspace.nodeSplitColumn[t]! >= 0) continue;
    const size = workspace.nodeEnd[t]! - workspace.nodeStart[t]!;
    if (size === 0) continue; // rpart can make empty leaves (see fit-cart.test.ts); no row is in them
    const deviation = rpartClassProbability(workspace.nodeClass1[t]!, size, weight0, weight1) - share;
    const term = size * (deviation * deviation);
    const next = sum + term;
    compensation += Math.abs(sum) >= term ? sum - next + term : term - next + sum;
    sum = next;
  }
  return (sum + compensation) / n;
}

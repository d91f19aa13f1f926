import { splitRhat } from '../../core/mcmc/rhat';
import type { LiveChainTrace } from '../state/live-mcmc-store';

/** Fewest post-burn-in points per chain before a live R̂ is shown (split-R̂ needs halves of ≥ 2). */
const LIVE_RHAT_MIN_POINTS = 8;

/**
 * Split-R̂ of u over the post-burn-in points of the live traces (about one point per 1 % of the
 * run): a rough early view of the R̂ the run reports at the end from every iteration. Null until
 * every chain has LIVE_RHAT_MIN_POINTS points after burn-in.
 */
export function liveRhat(chains: LiveChainTrace[], burnIn: number): number | null {
  if (chains.length < 2) return null;
  const kept = chains.map((chain) => chain.u.filter((_, i) => chain.iterations[i]! > burnIn));
  const common = Math.min(...kept.map((values) => values.length));
  if (common < LIVE_RHAT_MIN_POINTS) return null;
  // Chains run at different speeds: compare the same iterations of each (the first `common` points).
  const value = splitRhat(kept.map((values) => values.slice(0, common)));
  return Number.isFinite(value) ? value : null;
}

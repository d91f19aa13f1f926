import { keptBackCount } from '../metrics/kept-back-count';

// Kept apart from job-rows.ts (which splits tables with a generator) so the page can count the
// claim's rows without pulling samplers into its bundle.

/**
 * Rows kept back and rows the mechanism sees when a job keeps back `share` of `n` rows:
 * kept = round(share · n) as splitHoldout keeps, seen = n − kept; nothing kept when share is 0 or
 * absent. The claim's n is `seen`, in the studio before the run as in the worker that runs it.
 * Example: 1,001 rows with share 0.2 → 200 kept, 801 seen.
 */
export function jobRowCounts(n: number, share = 0): { kept: number; seen: number } {
  const kept = share > 0 ? keptBackCount(n, share) : 0;
  return { kept, seen: n - kept };
}

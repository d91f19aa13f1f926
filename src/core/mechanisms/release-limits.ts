/**
 * The most synthetic releases M one job may ask for, in the studio and in the CLI. Every release
 * is a whole table held in memory at once (a mechanism returns them together), so the limit is
 * what the place the job runs in can hold, not a privacy matter: releases drawn from one DP output
 * cost no extra budget, and those that do are composed by the accountant whatever M is.
 */
export const RELEASE_LIMITS = {
  /**
   * A browser tab: the data worker keeps every release of a run for charts, evaluation and
   * export, and the evaluation scores each one against the real table.
   */
  studio: 100,
  /**
   * A Node process with the machine's memory: it writes each release to its own file and
   * computes no metrics, so many more fit (and a typo such as 100000 still fails fast).
   */
  cli: 1000,
} as const;

/** True when `releases` is a whole number from 1 to `limit`. */
export function releasesWithin(releases: number, limit: number): boolean {
  return Number.isInteger(releases) && releases >= 1 && releases <= limit;
}

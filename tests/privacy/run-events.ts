import type { Mechanism, Release } from '../../src/core/mechanisms/types';
import { SeededRng } from '../../src/core/rng/seeded-rng';
import type { Schema, Table } from '../../src/core/table/types';
import { epsilonLowerBound } from './clopper-pearson';

/**
 * Support for the empirical privacy tests that go through a mechanism's `run`: count how often
 * pre-registered events on the released datasets occur over many seeded runs, on each of two
 * replace-one neighbours, and turn the counts into Clopper–Pearson lower bounds on ε.
 */

/** A pre-registered event on what a run releases. */
export type ReleaseEvent = (release: Release) => boolean;

export interface RunConfiguration {
  mechanism: Mechanism;
  schema: Schema;
  epsilon: number;
  releases: number;
}

/** How many of `runs` seeded runs on `table` release a dataset for which each event holds. */
export async function countReleaseEvents(
  config: RunConfiguration,
  table: Table,
  events: readonly ReleaseEvent[],
  runs: number,
  seed: number,
): Promise<number[]> {
  const rng = new SeededRng(seed);
  const hits = events.map(() => 0);
  for (let run = 0; run < runs; run++) {
    const release = await config.mechanism.run(
      table,
      config.schema,
      {},
      {
        n: table.nRows,
        schema: config.schema,
        epsilon: String(config.epsilon),
        delta: 0,
        releases: config.releases,
        seeded: true,
        rng,
        progress: () => {},
        signal: { aborted: false },
      },
    );
    events.forEach((event, i) => {
      if (event(release)) hits[i]!++;
    });
  }
  return hits;
}

/**
 * The largest lower confidence bound on ε over the events and both orders of the neighbours,
 * each one-sided Clopper–Pearson at level α (so each holds with probability ≥ 1 − 2α).
 */
export async function largestEpsilonLowerBound(
  config: RunConfiguration,
  neighbours: readonly [Table, Table],
  events: readonly ReleaseEvent[],
  runs: number,
  seed: number,
  alpha: number,
): Promise<{ epsilon: number; detail: string }> {
  const a = await countReleaseEvents(config, neighbours[0], events, runs, seed);
  const b = await countReleaseEvents(config, neighbours[1], events, runs, seed + 1);
  const bounds = events.map((_, i) =>
    Math.max(epsilonLowerBound(a[i]!, b[i]!, runs, alpha), epsilonLowerBound(b[i]!, a[i]!, runs, alpha)),
  );
  const detail = `hits a=${a.join(',')} b=${b.join(',')} of ${runs}; ε̂ per event ${bounds.map((e) => e.toFixed(3)).join(', ')}`;
  return { epsilon: Math.max(...bounds), detail };
}

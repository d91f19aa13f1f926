/**
 * The one model of a synthesis job, shared by the studio (which builds jobs and shows their claims),
 * the pool workers (which run them) and the CLI (which builds one from its flags): what to run, on
 * which budget, how many releases, under which relation, with which seed, and how many rows to keep
 * back. Public configuration only; the table is named by a key, never carried.
 */
import type { Neighbouring } from '../mechanisms/neighbouring';
import type { AbortSignalLike, ParamValues, PublicContext, RunContext } from '../mechanisms/types';
import type { Rng } from '../rng/types';
import type { Schema } from '../table/types';
import { deltaAsTyped } from './job-budget';
import { mechanismSeed } from './job-seeds';

/** A synthesis request: public configuration only, plus the key of the table to run on. */
export interface SynthesisJob {
  jobId: string;
  /** Identifies the table built from (dataset, schema); workers cache tables under it. */
  tableKey: string;
  schema: Schema;
  mechanismId: string;
  params: ParamValues;
  /** Total budget as decimal text, parsed exactly (parseJobBudget). */
  epsilon: string;
  delta: string;
  releases: number;
  /** The run's neighbouring relation (absent: replace-one). */
  neighbouring?: Neighbouring;
  /** Empty or absent: cryptographic randomness. */
  seed?: string;
  /** Share of rows kept back from the mechanism as a test set for ML efficacy (0 or absent: none). */
  holdoutShare?: number;
}

/** A job without the ids that route it between threads: what the CLI runs and what a run is prepared from. */
export type JobSettings = Omit<SynthesisJob, 'jobId' | 'tableKey'>;

/**
 * A job in its one shape: δ as typed ("0" when empty), the relation only when it is add/remove (a
 * replace-one job is the one it always was), the seed trimmed and only when set, and the hold-out
 * share only when rows are kept back.
 */
export function synthesisJob(
  route: { jobId: string; tableKey: string },
  settings: JobSettings,
): SynthesisJob {
  const seed = mechanismSeed(settings);
  const share = settings.holdoutShare ?? 0;
  return {
    jobId: route.jobId,
    tableKey: route.tableKey,
    schema: settings.schema,
    mechanismId: settings.mechanismId,
    params: settings.params,
    epsilon: settings.epsilon,
    delta: deltaAsTyped(settings.delta),
    releases: settings.releases,
    ...(settings.neighbouring === 'add-remove' ? { neighbouring: settings.neighbouring } : {}),
    ...(seed === undefined ? {} : { seed }),
    ...(share > 0 ? { holdoutShare: share } : {}),
  };
}

/**
 * The public facts a job's claim, check and description read (DESIGN.md §2), with `n` the rows the
 * mechanism sees (after any rows kept back: jobRowCounts). The relation is set only for add/remove,
 * so a replace-one context is the one it always was.
 */
export function publicContextOf(job: Omit<JobSettings, 'mechanismId' | 'params'>, n: number): PublicContext {
  return {
    n,
    schema: job.schema,
    epsilon: job.epsilon,
    delta: deltaAsTyped(job.delta),
    releases: job.releases,
    seeded: mechanismSeed(job) !== undefined,
    ...(job.neighbouring === 'add-remove' ? { neighbouring: job.neighbouring } : {}),
  };
}

/** The context a job's run gets: its public facts, the generator, progress and the abort signal. */
export function runContextOf(
  job: Omit<JobSettings, 'mechanismId' | 'params'>,
  n: number,
  rng: Rng,
  progress: (fraction: number, message?: string) => void,
  signal: AbortSignalLike,
): RunContext {
  return { ...publicContextOf(job, n), rng, progress, signal };
}

import { getMechanism } from '../core/mechanisms/registry';
import { resolveParams } from '../core/mechanisms/params';
import type { AbortSignalLike, Mechanism, ParamValues, Release, RunContext } from '../core/mechanisms/types';
import type { PrivacyBudget } from '../core/privacy/budget';
import { makeRng } from '../core/rng';
import type { Table } from '../core/table/types';
import { parseJobBudget } from '../core/job/job-budget';
import { mechanismSeed } from '../core/job/job-seeds';
import { runContextOf, type JobSettings } from '../core/job/synthesis-job';
import type { ProgressListener } from './protocol';

export interface PreparedJob {
  mechanism: Mechanism;
  params: ParamValues;
  context: RunContext;
  /** The job's budget as exact rationals, parsed once. */
  budget: PrivacyBudget;
}

/**
 * Everything a job needs before its mechanism runs, through the contract (DESIGN.md §2):
 * parameters resolved, the budget parsed, a fresh generator (CryptoRng, or SeededRng when the job
 * carries a seed) and the job's RunContext (core runContextOf, n the rows of `table`, which the
 * mechanism sees) whose progress and abort signal reach the studio. Throws the mechanism's check()
 * sentences as one readable Error when the job cannot run.
 */
export function prepareJob(
  table: Table,
  job: JobSettings,
  progress: ProgressListener,
  signal: AbortSignalLike,
): PreparedJob {
  const mechanism = getMechanism(job.mechanismId);
  if (mechanism === undefined)
    throw new Error(`No mechanism is registered under "${job.mechanismId}"; pick one from the catalogue.`);
  const params = resolveParams(mechanism, job.params);
  const context = runContextOf(
    job,
    table.nRows,
    makeRng(mechanismSeed(job)),
    (fraction, message) => progress(fraction, message ?? `Running ${mechanism.label}`),
    signal,
  );
  const problems = mechanism.check(job.schema, params, context);
  if (problems.length > 0) throw new Error(problems.join(' '));
  return { mechanism, params, context, budget: parseJobBudget(job) };
}

/** Runs one synthesis job on one thread: prepareJob, then the mechanism's run(). */
export async function runSynthesisJob(
  table: Table,
  job: JobSettings,
  progress: ProgressListener,
  signal: AbortSignalLike,
): Promise<Release> {
  const { mechanism, params, context } = prepareJob(table, job, progress, signal);
  return mechanism.run(table, job.schema, params, context);
}

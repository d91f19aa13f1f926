import { getMechanism } from '../core/mechanisms/registry';
import { resolveParams } from '../core/mechanisms/params';
import type { AbortSignalLike, Mechanism, ParamValues, Release, RunContext } from '../core/mechanisms/types';
import { makeRng } from '../core/rng';
import type { Table } from '../core/table/types';
import type { ProgressListener, SynthesisJob } from './protocol';

export interface PreparedJob {
  mechanism: Mechanism;
  params: ParamValues;
  context: RunContext;
}

/**
 * Everything a job needs before its mechanism runs, through the contract (DESIGN.md §2):
 * parameters resolved, a fresh generator (CryptoRng, or SeededRng when the job carries a seed)
 * and a RunContext whose progress and abort signal reach the studio. Throws the mechanism's
 * check() sentences as one readable Error when the job cannot run.
 */
export function prepareJob(
  table: Table,
  job: Omit<SynthesisJob, 'tableKey' | 'jobId'>,
  progress: ProgressListener,
  signal: AbortSignalLike,
): PreparedJob {
  const mechanism = getMechanism(job.mechanismId);
  if (mechanism === undefined)
    throw new Error(`No mechanism is registered under "${job.mechanismId}"; pick one from the catalogue.`);
  const params = resolveParams(mechanism, job.params);
  const seed = job.seed?.trim() ? job.seed.trim() : undefined;
  const rng = makeRng(seed);
  const context: RunContext = {
    n: table.nRows,
    schema: job.schema,
    epsilon: job.epsilon,
    delta: job.delta,
    releases: job.releases,
    seeded: rng.seeded,
    ...(job.neighbouring === 'add-remove' ? { neighbouring: job.neighbouring } : {}),
    rng,
    progress: (fraction, message) => progress(fraction, message ?? `Running ${mechanism.label}`),
    signal,
  };
  const problems = mechanism.check(job.schema, params, context);
  if (problems.length > 0) throw new Error(problems.join(' '));
  return { mechanism, params, context };
}

/** Runs one synthesis job on one thread: prepareJob, then the mechanism's run(). */
export async function runSynthesisJob(
  table: Table,
  job: Omit<SynthesisJob, 'tableKey' | 'jobId'>,
  progress: ProgressListener,
  signal: AbortSignalLike,
): Promise<Release> {
  const { mechanism, params, context } = prepareJob(table, job, progress, signal);
  return mechanism.run(table, job.schema, params, context);
}

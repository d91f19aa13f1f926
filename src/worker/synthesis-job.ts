import { getMechanism } from '../core/mechanisms/registry';
import { resolveParams } from '../core/mechanisms/params';
import type { AbortSignalLike, Release, RunContext } from '../core/mechanisms/types';
import { makeRng } from '../core/rng';
import type { Table } from '../core/table/types';
import type { ProgressListener, SynthesisJob } from './protocol';

/**
 * Runs one synthesis job through the mechanism contract (DESIGN.md §2): parameters resolved
 * and checked, a fresh generator (CryptoRng, or SeededRng when the job carries a seed), and a
 * RunContext whose progress and abort signal reach the studio. Throws the mechanism's check()
 * sentences as one readable Error when the job cannot run.
 */
export async function runSynthesisJob(
  table: Table,
  job: Omit<SynthesisJob, 'tableKey'>,
  progress: ProgressListener,
  signal: AbortSignalLike,
): Promise<Release> {
  const mechanism = getMechanism(job.mechanismId);
  if (mechanism === undefined) throw new Error(`No mechanism is registered under "${job.mechanismId}".`);
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
    rng,
    progress: (fraction, message) => progress(fraction, message ?? `Running ${mechanism.label}`),
    signal,
  };
  const problems = mechanism.check(job.schema, params, context);
  if (problems.length > 0) throw new Error(problems.join(' '));
  return mechanism.run(table, job.schema, params, context);
}

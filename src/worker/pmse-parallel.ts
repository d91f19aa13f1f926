/**
 * The pMSE mechanism with its MCMC chains spread over pool workers. The mechanism is written for
 * this (src/core/mechanisms/pmse-mechanism: planPmseRun → runChain per chain → finishPmseRun):
 * the worker that holds the table plans the run (budget reserved first) and keeps the plan,
 * every chain runs wherever a worker is free, and the planning worker draws the releases.
 * Seeded runs give the same releases as the one-thread run, because each chain's generator comes
 * from the plan (makeChainRng), not from the worker it lands on.
 */
import {
  finishPmseRun,
  makeChainRng,
  planPmseRun,
  pmseClaimAssumptions,
  runChain,
  type PmseChainResult,
  type PmseChainSpec,
  type PmseRunPlan,
} from '../core/mechanisms/pmse-mechanism';
import { PMSE_MECHANISM_ID } from '../core/mechanisms/pmse-mechanism/meta';
import type { AbortSignalLike, ParamValues, Release, RunContext } from '../core/mechanisms/types';
import { Accountant, parseBudget } from '../core/privacy';
import type { JobRows } from './holdout';
import type { SynthesisJob } from './protocol';
import { prepareJob } from './synthesis-job';

export { PMSE_MECHANISM_ID };

interface PlannedRun {
  rows: JobRows;
  plan: PmseRunPlan;
  accountant: Accountant;
  params: ParamValues;
  context: RunContext;
}

/** Plans kept by the planning worker until their chains are back. */
const plannedRuns = new Map<string, PlannedRun>();

/** What the chain workers need: one spec per chain and the chains' seeds (null: CryptoRng). */
export interface PmseChainAssignments {
  chainSpecs: PmseChainSpec[];
  chainSeeds: (string | null)[];
}

/**
 * Planning worker: validates, reserves the budget and fixes every chain before any is run, on the
 * rows the mechanism may see (`rows.train`), which are kept with the plan.
 */
export function planPmseChains(
  rows: JobRows,
  job: SynthesisJob,
  signal: AbortSignalLike,
): PmseChainAssignments {
  if (job.mechanismId !== PMSE_MECHANISM_ID) throw new Error(`${job.mechanismId} has no parallel chains.`);
  const table = rows.train;
  const { params, context } = prepareJob(table, job, () => {}, signal);
  const accountant = new Accountant(parseBudget(context.epsilon, context.delta));
  const plan = planPmseRun(table, job.schema, params, context, context.rng, accountant);
  plannedRuns.set(job.jobId, { rows, plan, accountant, params, context });
  return { chainSpecs: plan.chainSpecs, chainSeeds: plan.chainSeeds };
}

/** Any worker: one chain, with the generator the plan assigned to it. */
export function runPmseChain(
  spec: PmseChainSpec,
  chainSeed: string | null,
  onProgress: (done: number, total: number, u: number, recentAcceptance: number) => void,
  signal: AbortSignalLike,
): PmseChainResult {
  const chainSeeds: (string | null)[] = [];
  chainSeeds[spec.chainIndex] = chainSeed;
  return runChain(spec, makeChainRng({ chainSeeds }, spec.chainIndex), { signal, onProgress });
}

/** Planning worker: the releases from the chains' draws, with the claim of the reserved budget. */
export function finishPmseChains(
  jobId: string,
  results: PmseChainResult[],
): { release: Release; rows: JobRows } {
  const planned = plannedRuns.get(jobId);
  if (planned === undefined) throw new Error('The plan of this run is no longer held; run it again.');
  plannedRuns.delete(jobId);
  const { rows, plan, accountant, params, context } = planned;
  const assumptions = pmseClaimAssumptions(params, context);
  return {
    release: finishPmseRun(plan, results, context.schema, context.rng, accountant, assumptions),
    rows,
  };
}

/** Drops a plan whose run was cancelled. */
export function forgetPmsePlan(jobId: string): void {
  plannedRuns.delete(jobId);
}

/**
 * Staged runs spread over pool workers, for any mechanism that declares `staged` (the contract's
 * StagedRun: plan → stages → finish). The worker that holds the table plans the run (budget
 * reserved first) and keeps the plan; every stage runs wherever a worker is free; the planning
 * worker finishes the release. Seeded runs give the same release as the one-thread run, because
 * each stage's generator comes from the seed the plan gave it, not from the worker it lands on.
 * The plan's shared part (the contract's `shared`) reaches each worker once per run and is kept here
 * under the run's id (`keepStageShared`) until the run ends (`forgetStageShared`, finish or cancel).
 */
import { getMechanism } from '../core/mechanisms/registry';
import type {
  AbortSignalLike,
  Release,
  RunContext,
  StagedPlan,
  StagedRun,
  StageProgress,
  StageTask,
} from '../core/mechanisms/types';
import { Accountant } from '../core/privacy';
import { makeRng } from '../core/rng';
import type { JobRows } from '../core/job/job-rows';
import type { SynthesisJob } from './protocol';
import { prepareJob } from './synthesis-job';

interface PlannedRun {
  rows: JobRows;
  staged: StagedRun;
  planned: StagedPlan<unknown, unknown>;
  accountant: Accountant;
  context: RunContext;
}

/** Plans kept by the planning worker until their stages are back. */
const plannedRuns = new Map<string, PlannedRun>();

/**
 * The shared parts of the runs whose stages this worker runs, by run id, most recent last. At most
 * four: a run whose end never reached this worker (a page closed mid-run) cannot pile up.
 */
const sharedParts = new Map<string, { shared: unknown }>();
const MAX_SHARED_PARTS = 4;

/** What the page needs to hand the stages out: the tasks, the words for progress and the trace. */
export type StageAssignments = Omit<StagedPlan<unknown, unknown>, 'plan'>;

function stagedRunOf(mechanismId: string): StagedRun | undefined {
  return getMechanism(mechanismId)?.staged;
}

/**
 * Planning worker: validates, reserves the budget and fixes every stage before any runs, on the
 * rows the mechanism may see (`rows.train`), which are kept with the plan. Null when the job's
 * mechanism has no stages (it then runs whole with `synthesize`).
 */
export function planStages(
  rows: JobRows,
  job: SynthesisJob,
  signal: AbortSignalLike,
): StageAssignments | null {
  const staged = stagedRunOf(job.mechanismId);
  if (staged === undefined) return null;
  const table = rows.train;
  const { params, context, budget } = prepareJob(table, job, () => {}, signal);
  const accountant = new Accountant(budget);
  const planned = staged.plan(table, job.schema, params, context, accountant);
  plannedRuns.set(job.jobId, { rows, staged, planned, accountant, context });
  keepStageShared(job.jobId, planned.shared);
  const { plan: _kept, ...assignments } = planned;
  return assignments;
}

/** Any worker: keeps the shared part of run `jobId` for its stages (once per worker and run). */
export function keepStageShared(jobId: string, shared: unknown): void {
  sharedParts.delete(jobId);
  sharedParts.set(jobId, { shared });
  while (sharedParts.size > MAX_SHARED_PARTS) sharedParts.delete(sharedParts.keys().next().value as string);
}

/** Any worker: drops the shared part of run `jobId` (its stages are done here, or it was cancelled). */
export function forgetStageShared(jobId: string): void {
  sharedParts.delete(jobId);
}

/** Whether this worker holds the shared part of run `jobId`. */
export function holdsStageShared(jobId: string): boolean {
  return sharedParts.has(jobId);
}

/**
 * Any worker: one stage of run `jobId`, with the generator its seed gives and the run's shared part
 * (kept by `keepStageShared`), and the buffers its result may hand over instead of copying.
 */
export function runStage(
  jobId: string,
  mechanismId: string,
  task: StageTask<unknown>,
  progress: StageProgress,
  signal: AbortSignalLike,
): { result: unknown; transferables: ArrayBuffer[] } {
  const staged = stagedRunOf(mechanismId);
  if (staged === undefined) throw new Error(`Mechanism "${mechanismId}" has no stages; run it whole.`);
  const held = sharedParts.get(jobId);
  if (held === undefined) throw new Error('The shared part of this run is not held here; run it again.');
  const result = staged.runStage(task.spec, makeRng(task.seed ?? undefined), progress, signal, held.shared);
  return { result, transferables: staged.transferables?.(result) ?? [] };
}

/** Planning worker: the release from the stages' results (in stage order), with the claim of the reserved budget. */
export function finishStages(jobId: string, results: unknown[]): { release: Release; rows: JobRows } {
  const planned = plannedRuns.get(jobId);
  if (planned === undefined) throw new Error('The plan of this run is no longer held; run it again.');
  plannedRuns.delete(jobId);
  sharedParts.delete(jobId);
  const { rows, staged, accountant, context } = planned;
  return { release: staged.finish(planned.planned.plan, results, context, accountant), rows };
}

/** Drops a plan whose run was cancelled. */
export function forgetStagedPlan(jobId: string): void {
  plannedRuns.delete(jobId);
  sharedParts.delete(jobId);
}

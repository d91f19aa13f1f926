/**
 * Staged runs spread over pool workers, for any mechanism that declares `staged` (the contract's
 * StagedRun: plan → stages → finish). The worker that holds the table plans the run (budget
 * reserved first) and keeps the plan; every stage runs wherever a worker is free; the planning
 * worker finishes the release. Seeded runs give the same release as the one-thread run, because
 * each stage's generator comes from the seed the plan gave it, not from the worker it lands on.
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
import { Accountant, parseBudget } from '../core/privacy';
import { makeRng } from '../core/rng';
import type { JobRows } from './holdout';
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
  const { params, context } = prepareJob(table, job, () => {}, signal);
  const accountant = new Accountant(parseBudget(context.epsilon, context.delta));
  const planned = staged.plan(table, job.schema, params, context, accountant);
  plannedRuns.set(job.jobId, { rows, staged, planned, accountant, context });
  const { plan: _kept, ...assignments } = planned;
  return assignments;
}

/** Any worker: one stage, with the generator its seed gives. */
export function runStage(
  mechanismId: string,
  task: StageTask<unknown>,
  progress: StageProgress,
  signal: AbortSignalLike,
): unknown {
  const staged = stagedRunOf(mechanismId);
  if (staged === undefined) throw new Error(`Mechanism "${mechanismId}" has no stages; run it whole.`);
  return staged.runStage(task.spec, makeRng(task.seed ?? undefined), progress, signal);
}

/** Planning worker: the release from the stages' results (in stage order), with the claim of the reserved budget. */
export function finishStages(jobId: string, results: unknown[]): { release: Release; rows: JobRows } {
  const planned = plannedRuns.get(jobId);
  if (planned === undefined) throw new Error('The plan of this run is no longer held; run it again.');
  plannedRuns.delete(jobId);
  const { rows, staged, accountant, context } = planned;
  return { release: staged.finish(planned.planned.plan, results, context, accountant), rows };
}

/** Drops a plan whose run was cancelled. */
export function forgetStagedPlan(jobId: string): void {
  plannedRuns.delete(jobId);
}

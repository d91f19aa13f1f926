import { isAbortError } from '../../core/abort';
import type { JobEnd, JobStatus } from '../state/job-status';
import { endProgress, reportProgress, startProgress, type ProgressChannel } from '../state/progress-store';
import { messageOf } from './run-readiness';

let jobCounter = 0;

/** A job id unique on this page: "<prefix>-<time in base 36>-<counter>". */
export function newJobId(prefix: string): string {
  jobCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${jobCounter}`;
}

/** What the work of one job sees of its life cycle. */
export interface Job {
  readonly id: string;
  /** Aborted when the job is cancelled, replaced by a newer one or discarded. */
  readonly signal: AbortSignal;
  /** False once a newer job replaced this one or it was discarded: it must then write nothing. */
  isCurrent(): boolean;
  /** Moves the job's progress bar (ignored once the job is no longer current). */
  progress(fraction: number, message: string): void;
}

export interface JobRunnerOptions {
  /** Prefix of the job ids ("run", "sweep", …). */
  kind: string;
  /** The progress bar the job moves. */
  channel: ProgressChannel;
  /** Writes the job's status to its store: `error` is the sentence shown with 'failed'. */
  setStatus(status: JobStatus, error: string | null, jobId: string | null): void;
}

/**
 * One kind of long job of the studio (load, run, evaluation, sweep, comparison), at most one at a
 * time. `start` replaces the job running (the replaced one stays silent), `cancel` stops it (it ends
 * 'cancelled'), `discard` stops it and forgets it (status back to 'idle', as for a new dataset).
 * Only the current job writes its status and progress, so a late answer of a replaced job never
 * overwrites the newer one's.
 */
export interface JobRunner {
  /** Runs `work` as the current job; resolves with how it ended (a replaced job: 'cancelled'). */
  start(message: string, work: (job: Job) => Promise<void>): Promise<JobEnd>;
  cancel(): void;
  discard(): void;
  isRunning(): boolean;
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  let current: AbortController | null = null;
  const discard = () => {
    if (current === null) return;
    current.abort();
    current = null;
    endProgress(options.channel);
    options.setStatus('idle', null, null);
  };
  return {
    async start(message, work) {
      current?.abort();
      const controller = new AbortController();
      current = controller;
      const isCurrent = () => current === controller;
      const job: Job = {
        id: newJobId(options.kind),
        signal: controller.signal,
        isCurrent,
        progress: (fraction, text) => {
          if (isCurrent()) reportProgress(options.channel, fraction, text);
        },
      };
      options.setStatus('running', null, job.id);
      startProgress(options.channel, message);
      let end: JobEnd;
      let error: string | null = null;
      try {
        await work(job);
        end = controller.signal.aborted ? 'cancelled' : 'finished';
      } catch (thrown) {
        controller.abort();
        end = isAbortError(thrown) ? 'cancelled' : 'failed';
        if (end === 'failed') error = messageOf(thrown);
      }
      if (!isCurrent()) return 'cancelled';
      current = null;
      endProgress(options.channel);
      options.setStatus(end, error, job.id);
      return end;
    },
    cancel() {
      current?.abort();
    },
    discard,
    isRunning: () => current !== null,
  };
}

/**
 * A small pool of workers (DESIGN.md §6: sized to navigator.hardwareConcurrency).
 *
 * Jobs wait in a FIFO queue for an idle worker. Cancellation has teeth: when a job's signal
 * aborts, the pool asks the worker to stop and, if the job has not settled within the grace
 * period, terminates that worker and replaces it with a fresh one, so a busy synchronous loop
 * can never hold the user hostage. Idle workers end after `idleMillis`.
 *
 * The pool knows nothing about what a worker computes: it hands a task the worker's remote handle.
 */
import { createAbortError } from '../../core/abort';

/** The message of the AbortError a cancelled job rejects with. */
const JOB_CANCELLED = 'The job was cancelled.';

/** A started worker as the pool sees it. */
export interface SpawnedWorker<TRemote> {
  remote: TRemote;
  terminate(): void;
  /** Registers a callback for a fatal worker error (script failed to load, uncaught error). */
  onFatalError(listener: (message: string) => void): void;
}

export type WorkerSpawner<TRemote> = () => SpawnedWorker<TRemote>;

/** One live worker in the pool, as a task sees it. */
export interface PoolSlot<TRemote> {
  readonly slotId: number;
  readonly remote: TRemote;
  /**
   * Aborts when the pool ends this worker (terminated after a cancel's grace period, crashed, retired
   * when idle, shut down): a call to it still pending then never returns, so a task that waits on one
   * can stop waiting. Its listeners run inside the pool's own bookkeeping, before the pool has
   * finished replacing or removing the worker: they must not call back into the pool (run a job,
   * shut it down), only settle or schedule their own work (e.g. reject a promise).
   */
  readonly ended: AbortSignal;
}

export interface PoolJobOptions<TRemote> {
  signal?: AbortSignal;
  /** Asks the worker politely to stop (e.g. poolWorker.cancel(jobId)); the pool terminates it if that is not enough. */
  requestStop?: (remote: TRemote) => void;
  /** The worker to use when it is idle (e.g. the one that already holds the job's table); else any. */
  preferSlot?: number;
}

export interface WorkerPoolOptions {
  size: number;
  /** Idle workers end after this long. */
  idleMillis?: number;
  /** How long a cancelled job may take to stop before its worker is terminated and replaced. */
  cancelGraceMillis?: number;
}

interface LiveSlot<TRemote> extends PoolSlot<TRemote> {
  worker: SpawnedWorker<TRemote>;
  /** Aborts `ended`. */
  end: AbortController;
  busy: boolean;
  /** The job running on this worker, so a late grace timer cannot hit the next job. */
  currentJob: object | undefined;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set when the worker died: the running job (if any) rejects with this message. */
  failJob: ((error: Error) => void) | undefined;
}

interface QueuedJob<TRemote> {
  preferSlot: number | undefined;
  start(slot: LiveSlot<TRemote>): void;
  abandon(error: Error): void;
}

/** Name of the performance mark set each time the pool terminates a worker that did not stop. */
export const WORKER_TERMINATED_MARK = 'dpsynth-worker-terminated';

export class WorkerPool<TRemote> {
  private readonly spawner: WorkerSpawner<TRemote>;
  private readonly size: number;
  private readonly idleMillis: number;
  private readonly cancelGraceMillis: number;
  private readonly slots: LiveSlot<TRemote>[] = [];
  private readonly queue: QueuedJob<TRemote>[] = [];
  private nextSlotId = 1;
  private terminatedCount = 0;

  constructor(spawner: WorkerSpawner<TRemote>, options: WorkerPoolOptions) {
    this.spawner = spawner;
    this.size = Math.max(1, Math.floor(options.size));
    this.idleMillis = options.idleMillis ?? 60_000;
    this.cancelGraceMillis = options.cancelGraceMillis ?? 150;
  }

  /** Number of workers the pool may run at once. */
  get capacity(): number {
    return this.size;
  }

  /** Workers currently alive (busy or idle). */
  get liveWorkers(): number {
    return this.slots.length;
  }

  /** Workers running a job now. */
  get busyWorkers(): number {
    return this.slots.filter((slot) => slot.busy).length;
  }

  /** Jobs waiting for a free worker. */
  get queuedJobs(): number {
    return this.queue.length;
  }

  /** Workers terminated because a cancelled job did not stop in time or a worker failed. */
  get forcedTerminations(): number {
    return this.terminatedCount;
  }

  /**
   * Runs `task` on the next free worker. Rejects with an AbortError as soon as `signal` aborts;
   * a running worker that has not finished within the grace period is terminated and replaced.
   */
  run<T>(task: (slot: PoolSlot<TRemote>) => Promise<T>, options: PoolJobOptions<TRemote> = {}): Promise<T> {
    const { signal, requestStop, preferSlot } = options;
    if (signal?.aborted) return Promise.reject(createAbortError(JOB_CANCELLED));
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let runningSlot: LiveSlot<TRemote> | undefined;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const queued: QueuedJob<TRemote> = {
        preferSlot,
        start: (slot) => {
          runningSlot = slot;
          slot.failJob = (error) => settle(() => reject(error));
          task(slot).then(
            (value) => {
              settle(() => resolve(value));
              this.release(slot);
            },
            (error: unknown) => {
              settle(() => reject(error));
              this.release(slot);
            },
          );
        },
        abandon: (error) => settle(() => reject(error)),
      };
      const onAbort = () => {
        if (runningSlot === undefined) {
          const index = this.queue.indexOf(queued);
          if (index >= 0) this.queue.splice(index, 1);
          settle(() => reject(createAbortError(JOB_CANCELLED)));
          return;
        }
        const slot = runningSlot;
        try {
          requestStop?.(slot.remote);
        } catch {
          // A worker that cannot even take the stop request is terminated below.
        }
        settle(() => reject(createAbortError(JOB_CANCELLED)));
        // The caller hears "cancelled" at once; the worker gets a short grace period to stop.
        setTimeout(() => {
          if (slot.currentJob === queued && this.slots.includes(slot)) this.replace(slot);
        }, this.cancelGraceMillis);
      };
      signal?.addEventListener('abort', onAbort);
      this.queue.push(queued);
      this.dispatch();
    });
  }

  /** Terminates every worker and rejects queued jobs; the pool can be used again afterwards. */
  terminateAll(): void {
    for (const job of this.queue.splice(0)) job.abandon(createAbortError('The worker pool was shut down.'));
    for (const slot of this.slots.splice(0)) {
      clearTimeout(slot.idleTimer);
      slot.failJob?.(createAbortError('The worker pool was shut down.'));
      slot.worker.terminate();
      slot.end.abort();
    }
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const prefer = this.queue[0]!.preferSlot;
      const preferred = this.slots.find((slot) => !slot.busy && slot.slotId === prefer);
      const slot = preferred ?? this.idleSlot() ?? this.spawnSlot();
      if (slot === undefined) return;
      const job = this.queue.shift()!;
      clearTimeout(slot.idleTimer);
      slot.idleTimer = undefined;
      slot.busy = true;
      slot.currentJob = job;
      job.start(slot);
    }
  }

  private idleSlot(): LiveSlot<TRemote> | undefined {
    return this.slots.find((slot) => !slot.busy);
  }

  private spawnSlot(): LiveSlot<TRemote> | undefined {
    if (this.slots.length >= this.size) return undefined;
    const worker = this.spawner();
    const end = new AbortController();
    const slot: LiveSlot<TRemote> = {
      slotId: this.nextSlotId++,
      remote: worker.remote,
      ended: end.signal,
      worker,
      end,
      busy: false,
      currentJob: undefined,
      idleTimer: undefined,
      failJob: undefined,
    };
    worker.onFatalError((message) => {
      if (!this.slots.includes(slot)) return;
      const fail = slot.failJob;
      this.replace(slot);
      fail?.(
        new Error(
          `The computation stopped unexpectedly: ${message.replace(/\.$/, '')}. Run it again; reload the page if it stops again.`,
        ),
      );
    });
    this.slots.push(slot);
    return slot;
  }

  private release(slot: LiveSlot<TRemote>): void {
    if (!this.slots.includes(slot)) return;
    slot.busy = false;
    slot.currentJob = undefined;
    slot.failJob = undefined;
    slot.idleTimer = setTimeout(() => this.retireIdle(slot), this.idleMillis);
    this.dispatch();
  }

  private retireIdle(slot: LiveSlot<TRemote>): void {
    if (slot.busy) return;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    slot.worker.terminate();
    slot.end.abort();
  }

  /** Terminates a worker that would not stop (or died) and lets a fresh one take its place. */
  private replace(slot: LiveSlot<TRemote>): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    clearTimeout(slot.idleTimer);
    slot.failJob = undefined;
    slot.worker.terminate();
    slot.end.abort();
    this.terminatedCount++;
    // A user-timing mark, so that the time from Cancel to termination can be measured in the browser.
    performance.mark(WORKER_TERMINATED_MARK);
    this.dispatch();
  }
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAbortError } from '../../core/abort';
import { WorkerPool, type SpawnedWorker } from './worker-pool';

/** A stand-in worker: its remote resolves jobs only when the test says so. */
interface FakeRemote {
  workerNumber: number;
  stopRequests: number;
}

function fakeSpawner() {
  const spawned: { remote: FakeRemote; terminated: boolean; fail: (message: string) => void }[] = [];
  const spawner = (): SpawnedWorker<FakeRemote> => {
    let fatalListener: (message: string) => void = () => {};
    const record = {
      remote: { workerNumber: spawned.length + 1, stopRequests: 0 },
      terminated: false,
      fail: (message: string) => fatalListener(message),
    };
    spawned.push(record);
    return {
      remote: record.remote,
      terminate: () => {
        record.terminated = true;
      },
      onFatalError: (listener) => {
        fatalListener = listener;
      },
    };
  };
  return { spawner, spawned };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('WorkerPool', () => {
  it('never runs more jobs at once than its size and starts queued jobs in order', async () => {
    const { spawner, spawned } = fakeSpawner();
    const pool = new WorkerPool(spawner, { size: 2 });
    const gates = [deferred<void>(), deferred<void>(), deferred<void>()];
    const started: number[] = [];
    const jobs = gates.map((gate, index) =>
      pool.run(async (slot) => {
        started.push(index);
        await gate.promise;
        return slot.remote.workerNumber;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(spawned).toHaveLength(2);
    gates[0]!.resolve();
    expect(await jobs[0]).toBe(1);
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[1]!.resolve();
    gates[2]!.resolve();
    expect(await jobs[2]).toBe(1);
    expect(spawned).toHaveLength(2);
    pool.terminateAll();
  });

  it('runs a job on the worker it prefers when that one is idle, else on another', async () => {
    const { spawner } = fakeSpawner();
    const pool = new WorkerPool(spawner, { size: 2 });
    const slotIds: number[] = [];
    const gate = deferred<void>();
    // Two workers exist, both idle after these two jobs.
    await Promise.all([
      pool.run(async (slot) => void slotIds.push(slot.slotId)),
      pool.run(async (slot) => {
        slotIds.push(slot.slotId);
        await gate.promise;
      }),
      Promise.resolve().then(() => gate.resolve()),
    ]);
    const [first, second] = slotIds;
    expect(await pool.run(async (slot) => slot.slotId, { preferSlot: second })).toBe(second);
    expect(await pool.run(async (slot) => slot.slotId, { preferSlot: first })).toBe(first);
    // The preferred worker is busy: the job takes the other one.
    const busy = deferred<void>();
    const holding = pool.run(async () => busy.promise, { preferSlot: second });
    expect(await pool.run(async (slot) => slot.slotId, { preferSlot: second })).toBe(first);
    busy.resolve();
    await holding;
    pool.terminateAll();
  });

  it('drops a queued job at once when it is cancelled', async () => {
    const { spawner } = fakeSpawner();
    const pool = new WorkerPool(spawner, { size: 1 });
    const gate = deferred<void>();
    const first = pool.run(() => gate.promise);
    const controller = new AbortController();
    let droppedBodyRan = false;
    const second = pool.run(
      async () => {
        droppedBodyRan = true;
        return 'ran';
      },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(second).rejects.toSatisfy(isAbortError);
    gate.resolve();
    await first;
    // The slot is free again: a later job runs, and the dropped one never did.
    expect(await pool.run(async () => 'next')).toBe('next');
    expect(droppedBodyRan).toBe(false);
    pool.terminateAll();
  });

  it('terminates and replaces a running worker that does not stop within the grace period', async () => {
    vi.useFakeTimers();
    const { spawner, spawned } = fakeSpawner();
    const pool = new WorkerPool(spawner, { size: 1, cancelGraceMillis: 150 });
    const controller = new AbortController();
    let ended: AbortSignal | undefined;
    const neverEnds = pool.run(
      (slot) => {
        ended = slot.ended;
        return new Promise<void>(() => {});
      },
      { signal: controller.signal, requestStop: (remote) => remote.stopRequests++ },
    );
    await Promise.resolve();
    controller.abort();
    await expect(neverEnds).rejects.toSatisfy(isAbortError);
    expect(spawned[0]!.remote.stopRequests).toBe(1);
    expect(spawned[0]!.terminated).toBe(false);
    expect(ended!.aborted).toBe(false);
    vi.advanceTimersByTime(150);
    expect(spawned[0]!.terminated).toBe(true);
    // The task is told its worker is gone: a call to it still pending will never return.
    expect(ended!.aborted).toBe(true);
    expect(pool.forcedTerminations).toBe(1);
    const next = pool.run(async (slot) => slot.remote.workerNumber);
    expect(await next).toBe(2);
    pool.terminateAll();
  });

  it('keeps a worker that stopped in time', async () => {
    vi.useFakeTimers();
    const { spawner, spawned } = fakeSpawner();
    const pool = new WorkerPool(spawner, { size: 1, cancelGraceMillis: 150 });
    const controller = new AbortController();
    const gate = deferred<void>();
    let ended: AbortSignal | undefined;
    const job = pool.run(
      (slot) => {
        ended = slot.ended;
        return gate.promise;
      },
      { signal: controller.signal, requestStop: () => gate.resolve() },
    );
    await Promise.resolve();
    controller.abort();
    await expect(job).rejects.toSatisfy(isAbortError);
    await Promise.resolve();
    vi.advanceTimersByTime(200);
    expect(spawned[0]!.terminated).toBe(false);
    expect(ended!.aborted).toBe(false);
    expect(pool.forcedTerminations).toBe(0);
    pool.terminateAll();
  });

  it('turns a worker crash into a readable rejection and a fresh worker', async () => {
    const { spawner, spawned } = fakeSpawner();
    const pool = new WorkerPool(spawner, { size: 1 });
    const job = pool.run(() => new Promise<void>(() => {}));
    await Promise.resolve();
    spawned[0]!.fail('out of memory');
    await expect(job).rejects.toThrow('The computation stopped unexpectedly: out of memory');
    expect(spawned[0]!.terminated).toBe(true);
    expect(await pool.run(async (slot) => slot.remote.workerNumber)).toBe(2);
    pool.terminateAll();
  });

  it('ends workers that stay idle', async () => {
    vi.useFakeTimers();
    const { spawner, spawned } = fakeSpawner();
    const pool = new WorkerPool(spawner, { size: 2, idleMillis: 1000 });
    let ended: AbortSignal | undefined;
    await pool.run(async (slot) => void (ended = slot.ended));
    expect(pool.liveWorkers).toBe(1);
    vi.advanceTimersByTime(999);
    expect(ended!.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(pool.liveWorkers).toBe(0);
    expect(spawned[0]!.terminated).toBe(true);
    // Its `ended` aborts too, as for every worker the pool ends.
    expect(ended!.aborted).toBe(true);
    pool.terminateAll();
  });

  it('tells every task whose worker it shuts down that the worker is gone', async () => {
    const { spawner, spawned } = fakeSpawner();
    const pool = new WorkerPool(spawner, { size: 2 });
    const ended: AbortSignal[] = [];
    // One worker runs a job that never ends, the other is idle after its job.
    const running = pool.run((slot) => {
      ended.push(slot.ended);
      return new Promise<void>(() => {});
    });
    await pool.run(async (slot) => void ended.push(slot.ended));
    expect(ended.map((signal) => signal.aborted)).toEqual([false, false]);
    pool.terminateAll();
    await expect(running).rejects.toSatisfy(isAbortError);
    expect(spawned.map((worker) => worker.terminated)).toEqual([true, true]);
    expect(ended.map((signal) => signal.aborted)).toEqual([true, true]);
  });
});

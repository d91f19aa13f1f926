import { afterEach, describe, expect, it } from 'vitest';
import { createAbortError } from '../../core/abort';
import type { JobStatus } from '../state/job-status';
import { forgetPreviousDataset, onDatasetReplaced } from '../state/dataset-resets';
import { useProgressStore } from '../state/progress-store';
import { createJobRunner, type Job } from './job-runner';

/** A runner whose status writes are recorded, and a job whose work waits until released. */
function recordingRunner() {
  const statuses: [JobStatus, string | null][] = [];
  const runner = createJobRunner({
    kind: 'test',
    channel: 'sweep',
    setStatus: (status, error) => statuses.push([status, error]),
  });
  return { runner, statuses };
}

function pendingWork() {
  let release!: () => void;
  let fail!: (error: unknown) => void;
  let job!: Job;
  const gate = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  const work = async (started: Job) => {
    job = started;
    await gate;
  };
  return { work, release: () => release(), fail: (error: unknown) => fail(error), job: () => job };
}

afterEach(() => useProgressStore.setState({ entries: {} }));

describe('createJobRunner', () => {
  it('runs a job from running to finished and moves its progress bar meanwhile', async () => {
    const { runner, statuses } = recordingRunner();
    const { work, release, job } = pendingWork();
    const done = runner.start('Starting', work);
    expect(runner.isRunning()).toBe(true);
    job().progress(0.5, 'half way');
    expect(useProgressStore.getState().entries.sweep?.fraction).toBe(0.5);
    release();
    expect(await done).toBe('finished');
    expect(statuses).toEqual([
      ['running', null],
      ['finished', null],
    ]);
    expect(useProgressStore.getState().entries.sweep).toBeUndefined();
    expect(runner.isRunning()).toBe(false);
  });

  it('ends failed with the error sentence, and cancelled when the work stops on its aborted signal', async () => {
    const { runner, statuses } = recordingRunner();
    const failing = pendingWork();
    const failed = runner.start('Starting', failing.work);
    failing.fail(new Error('Column `age` needs declared bounds.'));
    expect(await failed).toBe('failed');
    const cancelling = pendingWork();
    const cancelled = runner.start('Starting', async (job) => {
      job.signal.addEventListener('abort', () => cancelling.fail(createAbortError()));
      await cancelling.work(job);
    });
    runner.cancel();
    expect(await cancelled).toBe('cancelled');
    expect(statuses.filter(([status]) => status !== 'running')).toEqual([
      ['failed', 'Column `age` needs declared bounds.'],
      ['cancelled', null],
    ]);
  });

  it('a replaced job is aborted and writes nothing after the newer one started', async () => {
    const { runner, statuses } = recordingRunner();
    const first = pendingWork();
    const firstDone = runner.start('First', first.work);
    const second = pendingWork();
    const secondDone = runner.start('Second', second.work);
    expect(first.job().signal.aborted).toBe(true);
    expect(first.job().isCurrent()).toBe(false);
    first.job().progress(0.9, 'late tick');
    expect(useProgressStore.getState().entries.sweep?.message).toBe('Second');
    first.fail(createAbortError());
    expect(await firstDone).toBe('cancelled');
    expect(statuses).toEqual([
      ['running', null],
      ['running', null],
    ]);
    second.release();
    expect(await secondDone).toBe('finished');
    expect(statuses.at(-1)).toEqual(['finished', null]);
  });

  it('discard stops the job, clears its bar and sets it idle; the job writes nothing later', async () => {
    const { runner, statuses } = recordingRunner();
    const pending = pendingWork();
    const done = runner.start('Starting', pending.work);
    runner.discard();
    expect(pending.job().signal.aborted).toBe(true);
    expect(useProgressStore.getState().entries.sweep).toBeUndefined();
    pending.release();
    expect(await done).toBe('cancelled');
    expect(statuses).toEqual([
      ['running', null],
      ['idle', null],
    ]);
  });
});

describe('dataset resets', () => {
  it('runs every registered reset once, a name registered again replacing the earlier one', () => {
    const calls: string[] = [];
    onDatasetReplaced('test: first', () => calls.push('first'));
    onDatasetReplaced('test: second', () => calls.push('second'));
    onDatasetReplaced('test: first', () => calls.push('first again'));
    forgetPreviousDataset();
    expect(calls).toEqual(['first again', 'second']);
  });
});

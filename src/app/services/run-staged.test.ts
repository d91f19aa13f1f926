import { describe, expect, it, vi } from 'vitest';
import type { StageTask } from '../../core/mechanisms/types';
import type { RemotePoolWorker } from '../../worker/client/spawn-worker';
import { WorkerPool, type SpawnedWorker } from '../../worker/client/worker-pool';
import type { SynthesisJob } from '../../worker/protocol';
import { synthesizeInStages } from './run-staged';

/**
 * The page's side of a staged run (run-staged.ts) on the real WorkerPool with stand-in pool workers
 * that log what they are asked: every stage runs once, the results reach the planner in stage order,
 * and each helper gets the run's shared part once, before its first stage, and drops it after its
 * last; the planner, which made the shared part, never gets it.
 */

let pool: WorkerPool<RemotePoolWorker>;

vi.mock('./workers', () => ({
  runPool: () => pool,
  ensureTableOnWorker: async () => {},
}));

const STAGES = 7;
const SHARED = { network: [1, 2, 3] };

function makePool(size: number, failingStage = -1): string[][] {
  const logs: string[][] = [];
  const spawner = (): SpawnedWorker<RemotePoolWorker> => {
    const log: string[] = [];
    logs.push(log);
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    const remote = {
      planStages: async () => {
        log.push('plan');
        return {
          shared: SHARED,
          stages: Array.from({ length: STAGES }, (_, c) => ({ spec: { c }, seed: `s${c}` })),
          words: { stage: 'chunk', stages: 'chunks', step: 'row', finish: 'decoding' },
        };
      },
      keepStageShared: async (_jobId: string, shared: unknown) => {
        expect(shared).toEqual(SHARED);
        log.push('shared');
      },
      forgetStageShared: async () => log.push('forget'),
      runStage: async (_jobId: string, _mechanism: string, task: StageTask<{ c: number }>) => {
        await tick();
        if (task.spec.c === failingStage) throw new Error(`stage ${task.spec.c} failed`);
        log.push(`stage ${task.spec.c}`);
        return Uint32Array.of(task.spec.c);
      },
      finishStages: async (_job: SynthesisJob, results: Uint32Array[]) => {
        log.push('finish');
        return results.map((r) => r[0]);
      },
      cancel: async () => log.push('cancel'),
    } as unknown as RemotePoolWorker;
    return { remote, terminate: () => {}, onFatalError: () => {} };
  };
  pool = new WorkerPool(spawner, { size, idleMillis: 60_000, cancelGraceMillis: 150 });
  return logs;
}

const job = { jobId: 'staged', mechanismId: 'plausible-deniability' } as SynthesisJob;

describe('a staged run from the page', () => {
  it('runs every stage once on the planner and the helpers, each helper given the shared part once', async () => {
    const logs = makePool(3);
    const outcome = await pool.run((slot) =>
      synthesizeInStages(slot, job, new AbortController().signal, () => {}),
    );
    expect(outcome).toEqual(Array.from({ length: STAGES }, (_, c) => c));
    const [planner, ...helpers] = logs;
    expect(planner![0]).toBe('plan');
    expect(planner).not.toContain('shared');
    expect(planner!.at(-1)).toBe('finish');
    const ran = logs.flatMap((log) => log.filter((entry) => entry.startsWith('stage')));
    expect(ran.sort()).toEqual(Array.from({ length: STAGES }, (_, c) => `stage ${c}`).sort());
    // The stages are spread: each of the three workers runs at least one.
    expect(logs.every((log) => log.some((entry) => entry.startsWith('stage')))).toBe(true);
    for (const log of helpers) {
      expect(log[0]).toBe('shared');
      expect(log.filter((entry) => entry === 'shared')).toHaveLength(1);
      expect(log.at(-1)).toBe('forget');
    }
  });

  it('leaves a one-worker pool to run the job whole', async () => {
    makePool(1);
    const outcome = await pool.run((slot) =>
      synthesizeInStages(slot, job, new AbortController().signal, () => {}),
    );
    expect(outcome).toBeNull();
  });

  it('stops taking stages when one fails, reports no progress after it, and has the planner drop the plan', async () => {
    const logs = makePool(3, 0);
    let settledAt = -1;
    const progressAfter: number[] = [];
    const outcome = pool.run((slot) =>
      synthesizeInStages(slot, job, new AbortController().signal, (fraction) => {
        if (settledAt >= 0) progressAfter.push(fraction);
      }),
    );
    await expect(outcome).rejects.toThrow('stage 0 failed');
    settledAt = logs.flat().length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    const ran = logs.flatMap((log) => log.filter((entry) => entry.startsWith('stage')));
    // Stages 1 and 2 were already running on the helpers; no stage is taken after the failure.
    expect(ran.length).toBeLessThanOrEqual(2);
    expect(logs[0]).toContain('cancel');
    expect(logs[0]).not.toContain('finish');
    expect(progressAfter).toEqual([]);
    for (const helper of logs.slice(1).filter((log) => log.includes('shared'))) {
      expect(helper.at(-1)).toBe('forget');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { NOISY_LINE_CSV as CSV, NOISY_LINE_SCHEMA as schema } from './testing/noisy-line';
import { dataWorker } from './data-worker';
import { poolWorker } from './pool-worker';
import { handTableOver, withReleasesAsSent } from './testing/worker-routes';
import type { SynthesisJob } from './protocol';
import type { PdChunkSpec } from '../core/mechanisms/plausible-deniability';

function job(jobId: string): SynthesisJob {
  return {
    jobId,
    tableKey: 'pmse-table',
    schema,
    mechanismId: 'pmse-mechanism',
    params: { chains: 2, burnIn: 60, steps: 80, thinning: 20, treeDepth: '1' },
    epsilon: '1',
    delta: '0',
    releases: 2,
    seed: 'parallel-equals-serial',
  };
}

describe('a staged run (the pMSE mechanism) with its stages on separate workers', () => {
  it('gives exactly the releases and claim of the one-thread run for the same seed', async () => {
    await dataWorker.loadCsvText(CSV, 'line.csv', () => {});
    await handTableOver(schema, 'pmse-table');

    const serial = await withReleasesAsSent((port) => poolWorker.synthesize(job('serial'), () => {}, port));

    const parallelJob = job('parallel');
    const assignments = poolWorker.planStages(parallelJob)!;
    expect(assignments.stages).toHaveLength(2);
    expect(assignments.trace).toEqual({ warmUp: 60, total: 140 });
    // Stages run in the opposite order, as workers may finish them: the result must not depend on it.
    const results: unknown[] = [];
    for (const c of [1, 0]) {
      const stage = await poolWorker.runStage('parallel', 'pmse-mechanism', assignments.stages[c]!, () => {});
      results[c] = stage;
    }
    const parallel = await withReleasesAsSent((port) =>
      poolWorker.finishStages(parallelJob, results, 0, port),
    );

    expect(parallel.summary.claim).toEqual(serial.summary.claim);
    expect(parallel.datasets).toEqual(serial.datasets);
    expect(parallel.summary.comparison).toEqual(serial.summary.comparison);
    // The planner keeps the run's releases for its evaluation (planning dropped the serial run's).
    expect(poolWorker.holdsReleases('parallel')).toBe(true);
    expect(poolWorker.holdsReleases('serial')).toBe(false);
  });

  it('stops a chain with an AbortError when cancelled from its first progress call', async () => {
    await dataWorker.loadCsvText(CSV, 'line.csv', () => {});
    await handTableOver(schema, 'pmse-table');
    const cancelled = job('cancelled');
    const assignments = poolWorker.planStages(cancelled)!;
    let calls = 0;
    const stage = poolWorker.runStage('cancelled', 'pmse-mechanism', assignments.stages[0]!, () => {
      calls++;
      poolWorker.cancel('cancelled');
    });
    await expect(stage).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toBeGreaterThanOrEqual(1);
  });

  it('refuses to finish a run it did not plan, and says so to the data worker waiting for its releases', async () => {
    const { port1, port2 } = new MessageChannel();
    const kept = dataWorker.receiveReleases('never-planned', schema, port1);
    expect(() => poolWorker.finishStages(job('never-planned'), [], 0, port2)).toThrow('no longer held');
    await expect(kept).rejects.toThrow('no longer held');
  });

  it('plans no stages for a mechanism that has none', () => {
    expect(
      poolWorker.planStages({ ...job('histogram'), mechanismId: 'laplace-histogram', params: {} }),
    ).toBeNull();
  });
});

describe('a staged run of plausible-deniability (chunks of rows) on separate workers', () => {
  it('gives exactly the releases and claim of the one-thread run for the same seed', async () => {
    await dataWorker.loadCsvText(CSV, 'line.csv', () => {});
    await handTableOver(schema, 'pd-table');
    const pdJob = (jobId: string): SynthesisJob => ({
      jobId,
      tableKey: 'pd-table',
      schema,
      mechanismId: 'plausible-deniability',
      params: { bins: 4 },
      epsilon: '480',
      delta: '1e-6',
      releases: 2,
      seed: 'pd-parallel-equals-serial',
    });
    const serial = await withReleasesAsSent((port) =>
      poolWorker.synthesize(pdJob('pd-serial'), () => {}, port),
    );
    const parallelJob = pdJob('pd-parallel');
    const assignments = poolWorker.planStages(parallelJob)!;
    // 200 rows per release: one chunk each; a chunk's spec is its release, row count and the ticket of
    // the seed part (part 3) of the run's one step, which its test draws charge.
    const specs = assignments.stages.map((stage) => stage.spec as PdChunkSpec);
    expect(specs.map(({ release, count }) => ({ release, count }))).toEqual([
      { release: 0, count: 200 },
      { release: 1, count: 200 },
    ]);
    expect(specs.map((spec) => [spec.ticket.id, spec.ticket.part])).toEqual([
      [0, 2],
      [0, 2],
    ]);
    // A worker that did not plan the run (here: the planner having dropped its copy) needs the shared
    // part first; with a structured clone of it, as sent once per worker, the chunks run there.
    poolWorker.forgetStageShared('pd-parallel');
    await expect(
      poolWorker.runStage('pd-parallel', 'plausible-deniability', assignments.stages[0]!, () => {}),
    ).rejects.toThrow('shared part of this run is not held');
    poolWorker.keepStageShared('pd-parallel', structuredClone(assignments.shared));
    const results: unknown[] = [];
    for (const c of [1, 0]) {
      results[c] = await poolWorker.runStage(
        'pd-parallel',
        'plausible-deniability',
        structuredClone(assignments.stages[c]!),
        () => {},
      );
    }
    const parallel = await withReleasesAsSent((port) =>
      poolWorker.finishStages(parallelJob, results, 0, port),
    );
    expect(parallel.summary.claim).toEqual(serial.summary.claim);
    expect(parallel.datasets).toEqual(serial.datasets);
  });
});

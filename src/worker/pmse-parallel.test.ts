import { describe, expect, it } from 'vitest';
import type { Schema } from '../core/table/types';
import { engine } from './engine';
import type { SynthesisJob } from './protocol';

// 200 rows of a noisy line; a short chain keeps the test within a couple of seconds.
const CSV = [
  'x,y',
  ...Array.from({ length: 200 }, (_, i) => `${(i % 20) / 2},${((i * 7) % 13) / 3 + (i % 20) / 4}`),
].join('\n');
const schema: Schema = {
  version: 1,
  columns: [
    { name: 'x', type: 'numeric', bounds: [0, 10], source: 'declared' },
    { name: 'y', type: 'numeric', bounds: [0, 10], source: 'declared' },
  ],
  missing: [''],
};

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

describe('pMSE mechanism with chains on separate workers', () => {
  it('gives exactly the releases and claim of the one-thread run for the same seed', async () => {
    await engine.loadCsvText(CSV, 'line.csv', () => {});
    engine.acceptTable('pmse-table', engine.tableForRun(schema));

    const serial = await engine.synthesize(job('serial'), () => {});

    const parallelJob = job('parallel');
    const { chainSpecs, chainSeeds } = engine.planPmseChains(parallelJob);
    expect(chainSpecs).toHaveLength(2);
    // Chains run in the opposite order, as workers may finish them: the result must not depend on it.
    const results = [];
    for (const c of [1, 0]) {
      results.push(await engine.runPmseChain('parallel', chainSpecs[c]!, chainSeeds[c] ?? null, () => {}));
    }
    const parallel = engine.finishPmseChains(parallelJob, results, 0);

    expect(parallel.summary.claim).toEqual(serial.summary.claim);
    expect(parallel.datasets).toEqual(serial.datasets);
    expect(parallel.summary.comparison).toEqual(serial.summary.comparison);
  });

  it('refuses to finish a run it did not plan', () => {
    expect(() => engine.finishPmseChains(job('never-planned'), [], 0)).toThrow('no longer held');
  });
});

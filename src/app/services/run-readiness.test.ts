import { describe, expect, it } from 'vitest';
import { splitRowsForJob } from '../../core/job/job-rows';
import { testTable } from '../../core/metrics/testing/test-table';
import type { Schema } from '../../core/table/types';
import { prepareJob } from '../../worker/synthesis-job';
import { assessRun, type RunInputs } from './run-readiness';

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [18, 90], integer: true, source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
  ],
  missing: [''],
};
const ready: RunInputs = {
  nRows: 500,
  schema,
  mechanismId: 'laplace-histogram',
  drafts: {},
  epsilon: '1',
  delta: '0',
  releases: 2,
  seed: '',
};

describe('assessRun', () => {
  it('is ready with a runnable mechanism and shows its claim', () => {
    const readiness = assessRun(ready);
    expect(readiness.ready).toBe(true);
    expect(readiness.blocker).toBeNull();
    expect(readiness.claim).toMatchObject({ notion: 'pure-dp', epsilon: 1, delta: 0 });
    expect(readiness.claim!.steps).toHaveLength(2);
    expect(readiness.context).toMatchObject({ n: 500, releases: 2, seeded: false });
  });

  it('gives a mechanism that needs δ > 0 the default δ when none is typed, and says so in the claim', () => {
    const mst = { ...ready, mechanismId: 'mst', nRows: 48_842, releases: 1 };
    const readiness = assessRun(mst);
    expect(readiness.ready).toBe(true);
    expect(readiness.deltaDefault?.delta).toBe('4e-10'); // min(1e-9, 1/n²) rounded down, n = 48,842
    expect(readiness.context?.delta).toBe('4e-10');
    expect(readiness.claim?.delta).toBeCloseTo(4e-10, 20);
    expect(readiness.claim?.assumptions).toContain(readiness.deltaDefault!.reason);
    // A typed δ is kept; a pure-DP mechanism gets no default.
    expect(assessRun({ ...mst, delta: '1e-9' }).deltaDefault).toBeNull();
    expect(assessRun({ ...mst, delta: '1e-9' }).context?.delta).toBe('1e-9');
    expect(assessRun(ready).deltaDefault).toBeNull();
    expect(assessRun(ready).context?.delta).toBe('0');
  });

  it('says what is missing first: data, then a mechanism', () => {
    expect(assessRun({ ...ready, nRows: null }).blocker).toBe('Load a dataset first.');
    expect(assessRun({ ...ready, mechanismId: null }).blocker).toBe('Pick a mechanism.');
  });

  it('names the parameter at fault', () => {
    const readiness = assessRun({ ...ready, drafts: { bins: '1.5' } });
    expect(readiness.ready).toBe(false);
    expect(readiness.paramError?.parameter).toBe('bins');
    expect(readiness.paramError?.message).toMatch(/bins/);
  });

  it('turns a bad ε and check() problems into sentences', () => {
    expect(assessRun({ ...ready, epsilon: '0' }).claimError).toMatch(/ε|epsilon/);
    expect(assessRun({ ...ready, epsilon: '0' }).ready).toBe(false);
    const unbounded: Schema = {
      ...schema,
      columns: [{ name: 'age', type: 'numeric', source: 'inferred' }, schema.columns[1]!],
    };
    const readiness = assessRun({ ...ready, schema: unbounded });
    expect(readiness.problems.join(' ')).toMatch(/age/);
    expect(readiness.ready).toBe(false);
    expect(assessRun({ ...ready, releases: 0 }).blocker).toBe(
      'The number of releases must be a whole number from 1 to 100.',
    );
  });

  it('marks a seeded run in the public context', () => {
    expect(assessRun({ ...ready, seed: ' 42 ' }).context?.seeded).toBe(true);
  });

  it('states the claim with the n the worker runs on when rows are kept back', () => {
    // 1,003 rows with 20 % kept back: round(200.6) = 201 kept, so both must say n = 802.
    const table = testTable({
      age: Array.from({ length: 1003 }, (_, i) => 18 + (i % 70)),
      sex: Array.from({ length: 1003 }, (_, i) => (i % 2 === 0 ? 'F' : 'M')),
    });
    const readiness = assessRun({ ...ready, nRows: 1003, holdoutShare: 0.2, seed: '5' });
    const job = {
      schema,
      mechanismId: 'laplace-histogram',
      params: {},
      epsilon: '1',
      delta: '0',
      releases: 2,
    };
    const rows = splitRowsForJob(table, { holdoutShare: 0.2, seed: '5' });
    const prepared = prepareJob(rows.train, { ...job, seed: '5', holdoutShare: 0.2 }, () => {}, {
      aborted: false,
    });
    expect(readiness.context?.n).toBe(802);
    expect(prepared.context.n).toBe(802);
    expect(readiness.claim).toEqual(prepared.mechanism.claim(prepared.params, prepared.context));
  });
});

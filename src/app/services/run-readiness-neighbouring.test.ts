import { describe, expect, it } from 'vitest';
import type { Schema } from '../../core/table/types';
import { runSynthesisJob } from '../../worker/synthesis-job';
import { buildTable, parseCsv } from '../../core/table';
import { assessRun, type RunInputs } from './run-readiness';

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [18, 90], integer: true, source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
  ],
  missing: [''],
};
const inputs: RunInputs = {
  nRows: 48_842,
  schema,
  mechanismId: 'mst',
  drafts: {},
  epsilon: '1',
  delta: '0',
  releases: 1,
  seed: '',
  neighbouring: 'add-remove',
};

describe('the studio run under add/remove neighbours', () => {
  it('states add-remove in the claim, with the conversion, and the default δ that does not use n', () => {
    const readiness = assessRun(inputs);
    expect(readiness.ready).toBe(true);
    expect(readiness.claim?.neighbouring).toBe('add-remove');
    expect(readiness.claim?.otherRelation).toMatch(/^Under replace-one neighbours/);
    // Not min(1e-9, 1/n²) = 4e-10 for n = 48,842: n is private.
    expect(readiness.deltaDefault?.delta).toBe('1e-9');
    expect(readiness.context?.neighbouring).toBe('add-remove');
    expect(assessRun({ ...inputs, neighbouring: 'replace-one' }).deltaDefault?.delta).toBe('4e-10');
  });

  it('blocks a test set kept back, whose row counts the report would publish while n is private', () => {
    const readiness = assessRun({ ...inputs, holdoutShare: 0.2 });
    expect(readiness.ready).toBe(false);
    expect(readiness.blocker).toMatch(/number of rows is private/);
    expect(assessRun({ ...inputs, holdoutShare: 0.2, neighbouring: 'replace-one' }).ready).toBe(true);
  });

  it('blocks a mechanism that runs only under replace-one, with the reason', () => {
    const readiness = assessRun({ ...inputs, mechanismId: 'pmse-mechanism' });
    expect(readiness.ready).toBe(false);
    expect(readiness.blocker).toMatch(/runs only with replace-one neighbours/);
  });

  it('the worker job carries the relation into the run', async () => {
    const csv = ['age,sex', ...Array.from({ length: 40 }, (_, i) => `${20 + i},${i % 2 ? 'F' : 'M'}`)].join(
      '\n',
    );
    const { table } = buildTable(parseCsv(csv), schema);
    const release = await runSynthesisJob(
      table,
      {
        schema,
        mechanismId: 'dp-marginals',
        params: {},
        epsilon: '1',
        delta: '0',
        releases: 1,
        seed: 's',
        neighbouring: 'add-remove',
      },
      () => {},
      { aborted: false },
    );
    expect(release.claim.neighbouring).toBe('add-remove');
  });
});

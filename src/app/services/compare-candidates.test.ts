import { describe, expect, it } from 'vitest';
import { mechanismIds } from '../../core/mechanisms/registry';
import type { Schema } from '../../core/table/types';
import { assessCompareCandidates, type CompareInputs } from './compare-candidates';

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [18, 90], integer: true, source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
  ],
  missing: [''],
};
const inputs: CompareInputs = {
  nRows: 500,
  schema,
  currentMechanismId: 'laplace-histogram',
  currentDrafts: { bins: '4' },
  epsilon: '1',
  delta: '0',
  neighbouring: 'replace-one',
  seed: '',
};

describe('assessCompareCandidates', () => {
  it('offers every registered mechanism; only the current one takes the user’s parameters', () => {
    const candidates = assessCompareCandidates(inputs);
    expect(candidates.map((c) => c.mechanism.id)).toEqual(mechanismIds());
    const current = candidates.find((c) => c.mechanism.id === 'laplace-histogram')!;
    expect(current.usesCurrentParams).toBe(true);
    expect(current.readiness.params).toMatchObject({ bins: 4 });
    expect(current.readiness.context).toMatchObject({ releases: 1, epsilon: '1' });
    const other = candidates.find((c) => c.mechanism.id === 'dp-marginals')!;
    expect(other.usesCurrentParams).toBe(false);
    expect(other.readiness.ready).toBe(true);
  });

  it('says why a mechanism cannot run', () => {
    const unbounded: Schema = {
      ...schema,
      columns: [{ name: 'age', type: 'numeric', source: 'inferred' }, schema.columns[1]!],
    };
    const candidates = assessCompareCandidates({ ...inputs, schema: unbounded });
    const histogram = candidates.find((c) => c.mechanism.id === 'laplace-histogram')!;
    expect(histogram.readiness.ready).toBe(false);
    expect(histogram.readiness.blocker).toMatch(/age/);
    expect(assessCompareCandidates({ ...inputs, epsilon: '0' }).every((c) => !c.readiness.ready)).toBe(true);
  });
});

describe('the relation of the comparison', () => {
  it("states every ready candidate's claim under step 3's relation", () => {
    for (const relation of ['replace-one', 'add-remove'] as const) {
      const ready = assessCompareCandidates({ ...inputs, neighbouring: relation }).filter(
        (candidate) => candidate.readiness.ready,
      );
      // laplace-histogram runs under either relation (its README), so at least one is ready under each.
      expect(ready.map((candidate) => candidate.mechanism.id)).toContain('laplace-histogram');
      for (const candidate of ready) expect(candidate.readiness.claim!.neighbouring).toBe(relation);
    }
  });
});

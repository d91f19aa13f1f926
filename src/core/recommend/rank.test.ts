import { describe, expect, it } from 'vitest';
import { MECHANISM_CATALOGUE } from '../mechanisms/catalogue';
import type { Schema } from '../table/types';
import { crossTabulationCells, formatCells, tableFacts } from './facts';
import { recommendMechanisms, type RecommendRequest } from './rank';

/** The census shape of bench/census-shape.bench.ts: 14 categorical columns with 2–100 levels, declared. */
const CENSUS_LEVELS = [85, 9, 100, 16, 7, 15, 6, 5, 2, 100, 100, 99, 42, 2];
const census: Schema = {
  version: 1,
  columns: CENSUS_LEVELS.map((k, i) => ({
    name: `c${i}`,
    type: 'categorical',
    categories: Array.from({ length: k }, (_, j) => String(j)),
    source: 'declared',
  })),
  missing: [''],
};

const numeric3: Schema = {
  version: 1,
  columns: ['x1', 'x2', 'x3'].map((name) => ({ name, type: 'numeric', bounds: [0, 10], source: 'declared' })),
  missing: [''],
};

const labelled: Schema = {
  version: 1,
  columns: [
    ...Array.from({ length: 10 }, (_, i) => ({
      name: `f${i}`,
      type: 'numeric' as const,
      bounds: [0, 1] as [number, number],
      source: 'declared' as const,
    })),
    { name: 'class', type: 'categorical', categories: ['no', 'yes'], source: 'declared' },
  ],
  missing: [''],
};

function ranking(request: RecommendRequest) {
  return recommendMechanisms(request, MECHANISM_CATALOGUE);
}

describe('recommendMechanisms', () => {
  it('puts MST and AIM first for a wide categorical table kept for analysis, quoting the census figure', () => {
    const result = ranking({
      schema: census,
      rows: 48842,
      epsilon: '1',
      delta: '1e-9',
      goal: 'relationships',
    });
    const firstTwo = result.ranking.slice(0, 2).map((r) => r.id);
    expect(firstTwo.sort()).toEqual(['aim', 'mst']);
    expect(
      result.ranking
        .filter((r) => r.recommended)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['aim', 'mst']);
    const mst = result.ranking.find((r) => r.id === 'mst')!;
    expect(mst.reason).toContain('0.059');
    expect(mst.reason).toContain('48,842 rows × 14 categorical columns');
    // The Laplace histogram's cross-tabulation, Π(k + 1) over the 14 columns, far exceeds n.
    const laplace = result.ranking.find((r) => r.id === 'laplace-histogram')!;
    expect(result.cells).toBeGreaterThan(1e15);
    expect(laplace.recommended).toBe(false);
    expect(laplace.reason).toContain(`${formatCells(result.cells!)} cells for 48,842 rows`);
    expect(mst.defaultDelta).toBeNull();
  });

  it('with no δ set ranks MST and AIM at the default δ from n, as a run would use, and greys what cannot run', () => {
    const result = ranking({ schema: census, rows: 48842, epsilon: '1', delta: '0', goal: 'relationships' });
    expect(
      result.ranking
        .slice(0, 2)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['aim', 'mst']);
    for (const id of ['mst', 'aim']) {
      const entry = result.ranking.find((r) => r.id === id)!;
      expect(entry.problems).toEqual([]);
      expect(entry.recommended).toBe(true);
      // min(1e-9, 1/n²) rounded down to one digit for n = 48,842 (privacy/default-delta.ts).
      expect(entry.defaultDelta).toBe('4e-10');
      expect(entry.reason).toContain('δ is not set, so it runs at the default δ = 4e-10.');
    }
    // A mechanism that needs no δ gets none.
    expect(result.ranking.find((r) => r.id === 'dp-marginals')!.defaultDelta).toBeNull();
    // The Laplace histogram's 3·10¹⁸ cells exceed the cross-tabulation limit: check() refuses it, and
    // those that cannot run come after every one that can.
    expect(result.ranking.find((r) => r.id === 'laplace-histogram')!.problems.length).toBeGreaterThan(0);
    const firstBlocked = result.ranking.findIndex((r) => r.problems.length > 0);
    expect(firstBlocked).toBeGreaterThan(1);
    expect(result.ranking.slice(firstBlocked).every((r) => r.problems.length > 0)).toBe(true);
  });

  it('puts the pMSE mechanism or MODIPS first for a 3-column numeric table of 200 rows', () => {
    for (const goal of ['relationships', 'distributions'] as const) {
      const result = ranking({ schema: numeric3, rows: 200, epsilon: '1', delta: '0', goal });
      expect(['pmse-mechanism', 'modips']).toContain(result.ranking[0]!.id);
      expect(result.ranking[0]!.recommended).toBe(true);
    }
    const forRelations = ranking({
      schema: numeric3,
      rows: 200,
      epsilon: '1',
      delta: '0',
      goal: 'relationships',
    });
    expect(forRelations.ranking[0]!.id).toBe('pmse-mechanism');
    // MST is outside its measured range here: fewer rows than it was measured on.
    const mst = forRelations.ranking.find((r) => r.id === 'mst')!;
    expect(mst.unmet).toContain('this table has 200 rows (good from 1,000)');
  });

  it('without declared bounds the pMSE mechanism, which needs none, comes first and the bounded ones are greyed', () => {
    const unbounded: Schema = {
      ...numeric3,
      columns: numeric3.columns.map((c) => ({
        name: c.name,
        type: 'numeric' as const,
        source: 'declared' as const,
      })),
    };
    const result = ranking({ schema: unbounded, rows: 200, epsilon: '1', delta: '0', goal: 'distributions' });
    expect(result.ranking[0]!.id).toBe('pmse-mechanism');
    expect(result.cells).toBeNull();
    const modips = result.ranking.find((r) => r.id === 'modips')!;
    expect(modips.problems.length).toBeGreaterThan(0);
  });

  it('puts ClustMix first for a labelled table whose goal is to train a model, and passes the label to its check', () => {
    const result = ranking({
      schema: labelled,
      rows: 5000,
      epsilon: '1',
      delta: '1e-6',
      goal: 'train-model',
      label: 'class',
    });
    expect(result.ranking[0]!.id).toBe('clustmix');
    expect(result.ranking[0]!.recommended).toBe(true);
    expect(result.ranking[0]!.params).toEqual({ label: 'class' });
    expect(result.ranking[0]!.reason).toContain('ROC AUC 0.85');
  });

  it('asks for the label when the goal is to train a model and none is named', () => {
    const result = ranking({
      schema: labelled,
      rows: 5000,
      epsilon: '1',
      delta: '1e-6',
      goal: 'train-model',
    });
    const clustmix = result.ranking.find((r) => r.id === 'clustmix')!;
    expect(clustmix.unmet).toContain('name the label column to predict');
    expect(clustmix.score).toBe(30 - 6);
    expect(clustmix.recommended).toBe(true);
  });

  it('a label that is not a categorical column greys ClustMix out with its check sentence', () => {
    const result = ranking({
      schema: labelled,
      rows: 5000,
      epsilon: '1',
      delta: '1e-6',
      goal: 'train-model',
      label: 'f0',
    });
    const clustmix = result.ranking.find((r) => r.id === 'clustmix')!;
    expect(clustmix.problems.join(' ')).toContain('f0');
    expect(clustmix.recommended).toBe(false);
  });

  it('suggests MODIPS with the general location model for regression inference', () => {
    const mixed: Schema = {
      ...numeric3,
      columns: [
        ...numeric3.columns,
        { name: 'g', type: 'categorical', categories: ['a', 'b'], source: 'declared' },
      ],
    };
    const result = ranking({
      schema: mixed,
      rows: 1000,
      epsilon: '2',
      delta: '0',
      goal: 'regression-inference',
    });
    expect(result.ranking[0]!.id).toBe('modips');
    expect(result.ranking[0]!.params).toEqual({ model: 'glom' });
    expect(result.ranking[0]!.reason).toContain('coverage 0.91 and 0.83');
  });

  it('names the columns whose facts are still inferred from the data', () => {
    const partly: Schema = {
      ...numeric3,
      columns: numeric3.columns.map((c, i) => (i === 1 ? { ...c, source: 'inferred' as const } : c)),
    };
    const result = ranking({ schema: partly, rows: 200, epsilon: '1', delta: '0', goal: 'distributions' });
    expect(result.inferredColumns).toEqual(['x2']);
    expect(
      ranking({ schema: numeric3, rows: 200, epsilon: '1', delta: '0', goal: 'distributions' })
        .inferredColumns,
    ).toEqual([]);
  });

  it('every mechanism in the catalogue states a fit, and every goal it serves names a bench section', () => {
    for (const meta of MECHANISM_CATALOGUE) {
      expect(meta.fit, meta.id).toBeDefined();
      for (const goalFit of Object.values(meta.fit!.goals)) {
        if (goalFit.measured) expect(goalFit.measured.source).toMatch(/^bench\/RESULTS\.md, "/);
      }
    }
  });
});

describe('tableFacts', () => {
  it('counts levels as the histogram mechanisms code them: k + 1, Scott bins + 1, whole numbers in bounds + 1', () => {
    const schema: Schema = {
      version: 1,
      columns: [
        { name: 'a', type: 'categorical', categories: ['x', 'y', 'z'], source: 'declared' },
        { name: 'b', type: 'numeric', bounds: [0, 1], source: 'declared' },
        { name: 'c', type: 'numeric', bounds: [1, 5], integer: true, source: 'declared' },
        { name: 'd', type: 'numeric', source: 'inferred' },
      ],
      missing: [''],
    };
    // n = 1,000: Scott's rule gives ceil(6·10/3.49) = 18 bins (bin-count-rules.ts).
    const facts = tableFacts(schema, 1000, 1, 0);
    expect(facts.columns.map((c) => c.levels)).toEqual([4, 19, 6, null]);
    expect(crossTabulationCells(facts)).toBeNull();
    expect(
      crossTabulationCells(tableFacts({ ...schema, columns: schema.columns.slice(0, 3) }, 1000, 1, 0)),
    ).toBe(4 * 19 * 6);
  });

  it('writes large cell counts as powers of ten', () => {
    expect(formatCells(1083)).toBe('1,083');
    expect(formatCells(1.23e18)).toBe('1.2·10¹⁸');
    expect(formatCells(9.96e7)).toBe('1.0·10⁸');
  });
});

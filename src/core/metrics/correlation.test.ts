import { describe, expect, it } from 'vitest';
import type { CategoricalColumn, NumericColumn } from '../table/types';
import { testTable } from './testing/test-table';
import { compareAssociations, correlationRatio, cramersV, pearsonCorrelation } from './correlation';

const column = <T>(table: ReturnType<typeof testTable>, j: number) => table.columns[j] as T;

describe('association measures', () => {
  it('Pearson r on pairwise complete rows', () => {
    // scipy.stats.pearsonr([1, 2, 3], [2, 4, 7])[0] = 0.9933992677987828
    const t = testTable({ x: [1, 2, 3, null], y: [2, 4, 7, 100] });
    expect(pearsonCorrelation(column<NumericColumn>(t, 0), column<NumericColumn>(t, 1))).toBeCloseTo(
      0.9933992677987828,
      14,
    );
    const constant = testTable({ x: [1, 1, 1], y: [1, 2, 3] });
    expect(
      pearsonCorrelation(column<NumericColumn>(constant, 0), column<NumericColumn>(constant, 1)),
    ).toBeNull();
  });

  it('correlation ratio η', () => {
    // SS_between = 2·(1.5 − 2.5)² + 2·(3.5 − 2.5)² = 4, SS_total = 5 → η = √0.8
    const t = testTable({ y: [1, 2, 3, 4], g: ['a', 'a', 'b', 'b'] });
    expect(correlationRatio(column<NumericColumn>(t, 0), column<CategoricalColumn>(t, 1))).toBeCloseTo(
      Math.sqrt(0.8),
      15,
    );
  });

  it("Cramér's V is 1 for a one-to-one relabelling and null for a single level", () => {
    const t = testTable({ a: ['x', 'y', 'z', 'x'], b: ['p', 'q', 'r', 'p'], c: ['k', 'k', 'k', 'k'] });
    expect(cramersV(column<CategoricalColumn>(t, 0), column<CategoricalColumn>(t, 1))).toBeCloseTo(1, 15);
    expect(cramersV(column<CategoricalColumn>(t, 0), column<CategoricalColumn>(t, 2))).toBeNull();
  });

  it("Cramér's V on a table too large for a dense count (2,100 × 2,100 levels)", () => {
    // Python: a_i = "a%d" % (i % 2100), b_i = "b%d" % ((11 i + i // 2100) % 2100), i < 4200;
    // scipy.stats.contingency.association(pd.crosstab(a, b), method="cramer", correction=False)
    // = 0.7069383221534958. Sparse χ² sums in another order: 1e-12.
    const n = 4200;
    const a = Array.from({ length: n }, (_, i) => `a${i % 2100}`);
    const b = Array.from({ length: n }, (_, i) => `b${(i * 11 + Math.floor(i / 2100)) % 2100}`);
    const t = testTable({ a, b });
    expect(
      Math.abs(
        cramersV(column<CategoricalColumn>(t, 0), column<CategoricalColumn>(t, 1))! - 0.7069383221534958,
      ),
    ).toBeLessThan(1e-12);
  });

  it('compares matrices and averages the absolute differences above the diagonal', () => {
    const real = testTable({ x: [1, 2, 3, 4], y: [1, 2, 3, 4], g: ['a', 'a', 'b', 'b'] });
    const synth = testTable({ g: ['a', 'b', 'a', 'b'], x: [1, 2, 3, 4], y: [4, 3, 2, 1] });
    const result = compareAssociations(real, synth);
    expect(result.columns).toEqual(['x', 'y', 'g']);
    expect(result.measures[0]![2]).toBe('correlation-ratio');
    expect(result.difference[0]![1]).toBeCloseTo(-2, 15);
    // pairs: (x,y) real 1 → −1; (x,g) √0.8 → √0.2; (y,g) √0.8 → √0.2
    const expected = (2 + 2 * (Math.sqrt(0.8) - Math.sqrt(0.2))) / 3;
    expect(result.meanAbsoluteDifference).toBeCloseTo(expected, 14);
  });
});

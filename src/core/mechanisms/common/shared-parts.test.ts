import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import type { Column, Schema } from '../../table/types';
import { planBinnedDomain } from './binning/binned-domain';
import {
  DOMAIN_CELL_LIMIT,
  domainLimitProblem,
  planColumnCodings,
  type ColumnCoding,
} from './coding/column-coding';
import { syntheticColumnFromLevels } from './coding/decode-rows';
import { describeBinnedDomain } from './binning/describe-domain';
import { drawCellsForRows } from './rows/draw-rows';
import { levelsOfColumn, numericLevel } from './coding/encode-rows';
import { formatCount } from '../../format/format-count';
import { noiseDominanceWarning } from './noisy-counts/noise-dominance';
import { countRowsPerCell } from '../../cells/sparse-cell-counts';

// Small known-value checks of the helpers every binned mechanism shares. Each value is worked out
// by hand in the comment beside it.

const real = { kind: 'real', name: 'x', lo: 10, hi: 30, bins: 4, levels: 5 } as const;

describe('formatCount', () => {
  it('groups thousands and keeps the sign of negatives only', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-1234.4)).toBe('-1,234');
  });
});

describe('numeric bins away from zero', () => {
  it('put a value in the bin of (v − lo)/(hi − lo)·bins', () => {
    // Bins of width 5 over [10, 30]: 12 → 0, 17.5 → 1, 29.9 → 3; outside values go to the edge bins.
    expect([12, 17.5, 29.9, 5, 31].map((v) => numericLevel(v, real))).toEqual([0, 1, 3, 0, 3]);
  });

  it('decode a level to a value inside its bin', () => {
    const column = syntheticColumnFromLevels(new SeededRng('bins'), Uint8Array.of(0, 1, 3, 4), real);
    if (column.kind !== 'numeric') throw new Error('numeric expected');
    const [a, b, c, d] = Array.from(column.values);
    expect(a).toBeGreaterThanOrEqual(10);
    expect(a).toBeLessThan(15);
    expect(b).toBeGreaterThanOrEqual(15);
    expect(b).toBeLessThan(20);
    expect(c).toBeGreaterThanOrEqual(25);
    expect(c).toBeLessThanOrEqual(30);
    expect(d).toBeNaN();
    expect(Array.from(column.missing)).toEqual([0, 0, 0, 1]);
  });

  it('encode NaN and missing values as the missing level, and refuse a column of the wrong kind', () => {
    const column: Column = {
      kind: 'numeric',
      name: 'x',
      values: Float64Array.of(12, NaN, 20),
      missing: Uint8Array.of(0, 0, 1),
    };
    expect(Array.from(levelsOfColumn(column, real))).toEqual([0, 4, 4]);
    const categorical: Column = {
      kind: 'categorical',
      name: 'x',
      codes: Uint32Array.of(0),
      dictionary: ['a'],
      missing: Uint8Array.of(0),
    };
    expect(() => levelsOfColumn(categorical, real)).toThrow(
      'column `x` is categorical in the table but numeric in the schema.',
    );
  });
});

describe('countRowsPerCell', () => {
  it('counts each distinct cell once, in increasing order', () => {
    const counts = countRowsPerCell(Uint32Array.of(7, 2, 7, 7, 9, 2));
    expect(Array.from(counts.cells)).toEqual([2, 7, 9]);
    expect(Array.from(counts.counts)).toEqual([2, 3, 1]);
  });
});

describe('drawCellsForRows', () => {
  it('never draws a cell of weight 0 while another has weight', () => {
    const cells = drawCellsForRows(new SeededRng('rows'), 10, [2, 7], Float64Array.of(0, 1), 12);
    expect(Array.from(cells)).toEqual(new Array(10).fill(7));
  });
});

describe('domain sentences', () => {
  const schema: Schema = {
    version: 1,
    columns: [
      { name: 'age', type: 'numeric', bounds: [0, 100], source: 'declared' },
      { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
    ],
    missing: [''],
  };
  const fixed = (bins: number) => ({ rule: 'fixed' as const, fixedBins: bins, perColumn: {}, problems: [] });

  it('describe the cross-tabulation, and nothing for a plan with problems or without columns', () => {
    expect(describeBinnedDomain(planBinnedDomain(schema, fixed(4), 100, true))).toEqual([
      'Cross-tabulation of 15 cells: age 5, sex 3 (each count includes a missing-value cell).',
    ]);
    expect(describeBinnedDomain({ codings: [], domainCells: 1, problems: [] })).toEqual([]);
    const codings = planColumnCodings(schema, fixed(4), 100).codings;
    expect(describeBinnedDomain({ codings, domainCells: 15, problems: ['bad.'] })).toEqual([]);
  });

  it("say when Scott's rule was lowered to fit the limit", () => {
    const codings = planColumnCodings(schema, fixed(4), 100).codings;
    const lines = describeBinnedDomain({
      codings,
      domainCells: 15,
      problems: [],
      scottLowered: { scott: 80, cap: 40 },
    });
    expect(lines[1]).toBe(
      "Scott's rule gives 80 bins per numeric column; the default lowers that to 40 so the cross-tabulation " +
        'stays within 20,000,000 cells. Set bins or columnBins to choose yourself.',
    );
  });

  it('refuse a cross-tabulation above the limit only, in exponent form beyond 10^15 cells', () => {
    const wide = (levels: number): ColumnCoding => ({
      kind: 'categorical',
      name: 'k',
      categories: [],
      levels,
    });
    expect(domainLimitProblem([wide(10), wide(10)], 100)).toBeUndefined();
    expect(domainLimitProblem([wide(10), wide(11)], 100)).toMatch(
      /^the cross-tabulation has 110 cells \(k 10 × k 11,/,
    );
    expect(domainLimitProblem([wide(1e8), wide(1e8)])).toMatch(/^the cross-tabulation has 1\.00e\+16 cells/);
    expect(domainLimitProblem([wide(1e7), wide(1e8)])).toMatch(/^the cross-tabulation has 1\.00e\+15 cells/);
    expect(domainLimitProblem([wide(1e7), wide(99_999_999)])).toMatch(
      /^the cross-tabulation has 999,999,990,000,000 cells/,
    );
    expect(DOMAIN_CELL_LIMIT).toBe(20_000_000);
  });

  it('code columns by kind, and refuse bounds that are not finite and increasing', () => {
    const { codings, problems } = planColumnCodings(
      {
        ...schema,
        columns: [
          { name: 'w', type: 'numeric', bounds: [0, 1], integer: false, source: 'declared' },
          ...schema.columns,
        ],
      },
      { ...fixed(2), problems: ['from the parameters.'] },
      100,
    );
    expect(codings.map((c) => [c.kind, c.name, c.levels])).toEqual([
      ['real', 'w', 3],
      ['real', 'age', 3],
      ['categorical', 'sex', 3],
    ]);
    expect(codings[2]).toEqual({ kind: 'categorical', name: 'sex', categories: ['F', 'M'], levels: 3 });
    expect(problems).toEqual(['from the parameters.']);
    for (const bounds of [
      [NaN, 1],
      [0, Infinity],
      [2, 2],
    ] as [number, number][]) {
      const planned = planColumnCodings(
        { ...schema, columns: [{ name: 'b', type: 'numeric', bounds, source: 'declared' }] },
        fixed(2),
        100,
      );
      expect(planned.problems.join(' ')).toMatch(/needs bounds lower < upper for numeric column `b`/);
    }
  });
});

describe('noiseDominanceWarning', () => {
  it('warns, with the numbers, only when the expected noise mass exceeds n', () => {
    // K = 17,694,720, n = 10,000, ε = 1 (the example of noise-dominance.ts): 99.9 %.
    expect(noiseDominanceWarning(17_694_720, 10_000, 1)).toEqual([
      'With 17,694,720 cells, 10,000 rows and ε = 1 per release, up to about 99.9% of the synthetic rows are ' +
        'expected to come from noise in cells the data may not occupy: choose fewer bins or columns, or spend ' +
        'more ε.',
    ]);
    expect(noiseDominanceWarning(10, 10_000, 1)).toEqual([]);
  });
});

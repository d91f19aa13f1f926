import { describe, expect, it } from 'vitest';
import { summarizeTable } from './summary';
import { tableFromColumns } from './table-from-columns';

describe('summarizeTable', () => {
  it('gives mean and sample sd of a numeric column', () => {
    // R: x <- c(2, 4, 4, 4, 5, 5, 7, 9); mean(x) == 5; sd(x) == sqrt(32 / 7) == 2.138089935299395
    const table = tableFromColumns([
      { name: 'x', kind: 'numeric', values: [2, 4, 4, 4, 5, 5, 7, 9, null, null] },
    ]);
    const [x] = summarizeTable(table);
    expect(x!.kind).toBe('numeric');
    expect(x!.mean).toBe(5);
    expect(Math.abs(x!.sd! - 2.138089935299395)).toBeLessThan(4 * Number.EPSILON * 2.14);
    expect(x!.min).toBe(2);
    expect(x!.max).toBe(9);
    expect(x!.missingRate).toBe(0.2);
    expect(x!.distinct).toBe(5);
  });

  it('bins a small integer range one value per bin', () => {
    const table = tableFromColumns([{ name: 'x', kind: 'numeric', values: [1, 3, 3, 2, 3] }]);
    expect(summarizeTable(table)[0]!.histogram).toEqual([
      { label: '1', count: 1 },
      { label: '2', count: 1 },
      { label: '3', count: 3 },
    ]);
  });

  it('bins real values in equal-width bins over [min, max], the last bin closed', () => {
    const table = tableFromColumns([{ name: 'x', kind: 'numeric', values: [0, 0.5, 0.99, 1, 2, 3.5, 4] }]);
    expect(summarizeTable(table, { bins: 4 })[0]!.histogram).toEqual([
      { label: '[0, 1)', count: 3 },
      { label: '[1, 2)', count: 1 },
      { label: '[2, 3)', count: 1 },
      { label: '[3, 4]', count: 2 },
    ]);
  });

  it('handles constant and all-missing numeric columns', () => {
    const table = tableFromColumns([
      { name: 'c', kind: 'numeric', values: [7, 7] },
      { name: 'm', kind: 'numeric', values: [null, null] },
    ]);
    const [c, m] = summarizeTable(table);
    expect(c!.histogram).toEqual([{ label: '7', count: 2 }]);
    expect(c!.sd).toBe(0);
    expect(m).toEqual({ name: 'm', kind: 'numeric', missingRate: 1, distinct: 0, histogram: [] });
  });

  it('lists top categories and folds the rest into "(other)"', () => {
    const table = tableFromColumns([
      {
        name: 'g',
        kind: 'categorical',
        values: ['a', 'b', 'b', 'c', 'c', 'c', 'd', null],
        dictionary: ['a', 'b', 'c', 'd', 'unused'],
      },
    ]);
    const [g] = summarizeTable(table, { top: 2 });
    expect(g!.distinct).toBe(4);
    expect(g!.missingRate).toBe(1 / 8);
    expect(g!.topCategories).toEqual([
      { value: 'c', count: 3 },
      { value: 'b', count: 2 },
    ]);
    expect(g!.histogram).toEqual([
      { label: 'c', count: 3 },
      { label: 'b', count: 2 },
      { label: '(other)', count: 2 },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../../rng/seeded-rng';
import type { IntegerBinCoding, RealBinCoding, CategoricalCoding } from './column-coding';
import { integerBinStart, levelsFromCells, syntheticColumnFromLevels, tableFromCells } from './decode-rows';
import { cellOfEveryRow, levelsOfColumn, numericLevel } from './encode-rows';
import { categoricalColumn, numericColumn } from '../testing/fixtures';

const ages: IntegerBinCoding = { kind: 'integer', name: 'age', first: 17, count: 74, bins: 18, levels: 19 };
const income: RealBinCoding = { kind: 'real', name: 'income', lo: 0, hi: 1000, bins: 4, levels: 5 };
const sex: CategoricalCoding = { kind: 'categorical', name: 'sex', categories: ['F', 'M'], levels: 3 };

describe('integer bins', () => {
  it('split the integers into runs whose sizes differ by at most one', () => {
    const sizes = Array.from(
      { length: 18 },
      (_, j) => integerBinStart(j + 1, 74, 18) - integerBinStart(j, 74, 18),
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(74);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1);
  });

  it('put every integer in the bin whose range contains it', () => {
    for (let age = 17; age <= 90; age++) {
      const bin = numericLevel(age, ages);
      expect(age - 17).toBeGreaterThanOrEqual(integerBinStart(bin, 74, 18));
      expect(age - 17).toBeLessThan(integerBinStart(bin + 1, 74, 18));
    }
  });

  it('clamp and round values outside the grid', () => {
    expect(numericLevel(-5, ages)).toBe(0);
    expect(numericLevel(200, ages)).toBe(17);
    expect(numericLevel(16.6, ages)).toBe(0);
  });
});

describe('levelsOfColumn', () => {
  it('maps missing values and unknown categories to the missing level', () => {
    const levels = levelsOfColumn(categoricalColumn('sex', ['M', null, 'F', 'X']), sex);
    expect(Array.from(levels)).toEqual([1, 2, 0, 2]);
  });

  it('bins real values with the upper bound in the last bin', () => {
    const levels = levelsOfColumn(
      numericColumn('income', [0, 249.99, 250, 1000, 5000, -1, null, NaN]),
      income,
    );
    expect(Array.from(levels)).toEqual([0, 0, 1, 3, 3, 0, 4, 4]);
  });

  it('refuses a column whose kind disagrees with the schema', () => {
    expect(() => levelsOfColumn(numericColumn('sex', [1]), sex)).toThrow(/numeric in the table/);
  });
});

describe('decoding', () => {
  it('draws integers inside their bin and reals inside theirs, and restores missing values', () => {
    const rng = new SeededRng(7);
    const ageLevels = Uint32Array.from({ length: 2000 }, (_, i) => i % 19);
    const age = syntheticColumnFromLevels(rng, ageLevels, ages);
    if (age.kind !== 'numeric') throw new Error('expected numeric');
    ageLevels.forEach((level, i) => {
      if (level === 18) {
        expect(age.missing[i]).toBe(1);
        expect(age.values[i]).toBeNaN();
        return;
      }
      const value = age.values[i]!;
      expect(Number.isInteger(value)).toBe(true);
      expect(numericLevel(value, ages)).toBe(level);
    });
    const incomeLevels = Uint32Array.from({ length: 2000 }, (_, i) => i % 5);
    const money = syntheticColumnFromLevels(rng, incomeLevels, income);
    if (money.kind !== 'numeric') throw new Error('expected numeric');
    incomeLevels.forEach((level, i) => {
      if (level === 4) return expect(money.missing[i]).toBe(1);
      expect(money.values[i]).toBeGreaterThanOrEqual(level * 250);
      expect(money.values[i]).toBeLessThanOrEqual((level + 1) * 250);
    });
  });

  it('round-trips levels through mixed-radix cells', () => {
    const table = {
      nRows: 3,
      columns: [numericColumn('income', [10, null, 999]), categoricalColumn('sex', ['M', 'F', null])],
    };
    const codings = [income, sex];
    const cells = cellOfEveryRow(table, codings);
    expect(Array.from(cells)).toEqual([0 * 3 + 1, 4 * 3 + 0, 3 * 3 + 2]);
    expect(Array.from(levelsFromCells(cells, codings, 0))).toEqual([0, 4, 3]);
    const synthetic = tableFromCells(new SeededRng(1), cells, codings);
    expect(synthetic.columns.map((c) => c.name)).toEqual(['income', 'sex']);
    const sexOut = synthetic.columns[1]!;
    if (sexOut.kind !== 'categorical') throw new Error('expected categorical');
    expect(sexOut.dictionary).toEqual(['F', 'M']);
    expect(Array.from(sexOut.codes.slice(0, 2))).toEqual([1, 0]);
    expect(Array.from(sexOut.missing)).toEqual([0, 0, 1]);
  });

  it('draws whole values inside a bin of more than 2^32 integers (bounds learned far apart)', () => {
    // 8·10^10 + 1 integers in 2 bins: each bin holds about 4·10^10, beyond uniformInt's 2^32.
    const wide: IntegerBinCoding = {
      kind: 'integer',
      name: 'hours',
      first: 0,
      count: 8e10 + 1,
      bins: 2,
      levels: 3,
    };
    const column = syntheticColumnFromLevels(new SeededRng('wide'), Uint32Array.from([0, 1, 1, 0]), wide);
    if (column.kind !== 'numeric') throw new Error('expected numeric');
    const values = Array.from(column.values);
    for (const v of values) expect(Number.isInteger(v)).toBe(true);
    expect(values[0]!).toBeLessThan(integerBinStart(1, 8e10 + 1, 2));
    expect(values[1]!).toBeGreaterThanOrEqual(integerBinStart(1, 8e10 + 1, 2));
    expect(values[1]!).toBeLessThanOrEqual(8e10);
  });
});

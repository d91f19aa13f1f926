import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../../rng/seeded-rng';
import type { Schema } from '../../../table/types';
import {
  integerBinRange,
  pointMassesOf,
  shapedNumericLevel,
  shapedNumericValue,
  type ShapedCoding,
} from './bin-shape';
import { binningChoiceFromParams } from './binning-params';
import { planColumnCodings, type IntegerBinCoding, type RealBinCoding } from './column-coding';
import { numericLevel } from './encode-rows';

const integerCoding = (extra: Partial<IntegerBinCoding>): IntegerBinCoding => ({
  kind: 'integer',
  name: 'gain',
  first: 0,
  count: 100,
  bins: 10,
  levels: 11,
  ...extra,
});

describe('point masses and quantile bins: level coding', () => {
  it('a declared point mass takes a level after the bins, and that level decodes to exactly the value', () => {
    const coding = integerCoding({ points: [0, 50], levels: 13 });
    const rng = new SeededRng('point mass');
    expect(shapedNumericLevel(0, coding)).toBe(10);
    expect(shapedNumericLevel(50, coding)).toBe(11);
    expect(shapedNumericLevel(-3, coding)).toBe(10); // clamped into the bounds, then the point mass 0
    expect(shapedNumericLevel(49.6, coding)).toBe(11); // rounded to 50 first
    for (let i = 0; i < 100; i++) {
      expect(shapedNumericValue(rng, 10, coding)).toBe(0);
      expect(shapedNumericValue(rng, 11, coding)).toBe(50);
    }
  });

  it('integer bins decode among their integers that are not point masses, and every value codes back to its level', () => {
    const coding = integerCoding({ points: [0, 50], levels: 13 });
    const rng = new SeededRng('round trip');
    const seen = new Map<number, Set<number>>();
    for (let level = 0; level < 12; level++) {
      const values = new Set<number>();
      for (let i = 0; i < 400; i++) {
        const v = shapedNumericValue(rng, level, coding);
        expect(shapedNumericLevel(v, coding), `level ${level}, value ${v}`).toBe(level);
        values.add(v);
      }
      seen.set(level, values);
    }
    // Bin 0 holds 0 … 9: with 0 a point mass, its draws are 1 … 9, each of them (400 draws, P(miss one) < 9·(8/9)^400).
    expect([...seen.get(0)!].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(seen.get(5)!.has(50)).toBe(false);
    expect(seen.get(5)!.size).toBe(9);
  });

  it('quantile edges code and decode by the learned edges (real and integer)', () => {
    const real: RealBinCoding = {
      kind: 'real',
      name: 'x',
      lo: 0,
      hi: 100,
      bins: 3,
      levels: 4,
      quantile: { edges: [1, 2.5] },
    };
    expect([0, 0.99, 1, 2.49, 2.5, 100, 250].map((v) => shapedNumericLevel(v, real))).toEqual([
      0, 0, 1, 1, 2, 2, 2,
    ]);
    const rng = new SeededRng('quantile decode');
    for (let i = 0; i < 300; i++) {
      const level = i % 3;
      const v = shapedNumericValue(rng, level, real);
      expect(shapedNumericLevel(v, real)).toBe(level);
      expect(v).toBeGreaterThanOrEqual([0, 1, 2.5][level]!);
      expect(v).toBeLessThanOrEqual([1, 2.5, 100][level]!);
    }
    const integer = integerCoding({ bins: 3, levels: 5, points: [0], quantile: { edges: [3, 10] } });
    expect(integerBinRange(0, integer)).toEqual([0, 3]);
    expect(integerBinRange(2, integer)).toEqual([10, 100]);
    for (let i = 0; i < 300; i++) {
      const level = i % 4;
      const v = shapedNumericValue(rng, level, integer);
      expect(shapedNumericLevel(v, integer)).toBe(level);
    }
  });

  it('refuses to code a quantile column before the binning step learned its edges', () => {
    const coding: ShapedCoding = integerCoding({ quantile: {} });
    expect(() => shapedNumericLevel(5, coding)).toThrow(/before the binning step learned their edges/);
    expect(() => numericLevel(5, coding)).toThrow(/before the binning step/);
  });

  it('the plan gives point masses levels only where a bin would hold several values, and leaves other schemas as they were', () => {
    const schema: Schema = {
      version: 1,
      missing: [''],
      columns: [
        {
          name: 'gain',
          type: 'numeric',
          bounds: [0, 99999],
          integer: true,
          pointMasses: [0],
          source: 'declared',
        },
        {
          name: 'age',
          type: 'numeric',
          bounds: [17, 90],
          integer: true,
          pointMasses: [17],
          source: 'declared',
        },
        { name: 'rate', type: 'numeric', bounds: [0, 1], source: 'declared' },
      ],
    };
    const plain = planColumnCodings(schema, binningChoiceFromParams({ bins: 0 }), 1000).codings;
    // gain: 18 bins (Scott at n = 1,000), a point level, a missing level; age: a level per integer already.
    expect(plain.map((c) => c.levels)).toEqual([20, 75, 19]);
    expect(plain[0]).toMatchObject({ points: [0] });
    expect('points' in plain[1]!).toBe(false);
    expect('quantile' in plain[2]!).toBe(false);
    const plan = (params: Record<string, string | number>) =>
      planColumnCodings(schema, binningChoiceFromParams({ bins: 0, binning: 'quantile', ...params }), 1000)
        .codings;
    // Without detection (pointMassShare 0), the same levels as equal width.
    expect(plan({ pointMassShare: 0 }).map((c) => c.levels)).toEqual([20, 75, 19]);
    expect(plan({ pointMassShare: 0 }).map((c) => 'quantile' in c)).toEqual([true, false, true]);
    // With detection (default 0.1), candidate levels from the bounds alone: gain 99999 (0 is declared), rate 0 and 1.
    const detecting = plan({});
    expect(detecting.map((c) => c.levels)).toEqual([21, 75, 21]);
    expect(detecting.map((c) => (c.kind === 'categorical' ? undefined : c.candidates?.values))).toEqual([
      [99999],
      undefined,
      [0, 1],
    ]);
    expect(pointMassesOf({ ...schema.columns[0]!, pointMasses: [5, 0, 5, 1e9, 0.5] } as never)).toEqual([
      0, 5,
    ]);
  });
});

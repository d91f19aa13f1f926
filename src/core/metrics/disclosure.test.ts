import { describe, expect, it } from 'vitest';
import { SeededRng } from '../rng/seeded-rng';
import { testTable } from './testing/test-table';
import {
  DISCLOSURE_LABEL,
  DISCLOSURE_MAX_QUERY_ROWS,
  disclosureDiagnostics,
  exactMatchCounts,
} from './disclosure';
import { disclosureByRowKeys } from './testing/disclosure-by-row-keys';

describe('disclosureDiagnostics', () => {
  const real = testTable({
    age: [20, 30, 40, 50, null],
    sex: ['F', 'M', 'F', 'M', 'F'],
  });

  it('flags a synthetic table that copies the real rows', () => {
    const result = disclosureDiagnostics(real, real, new SeededRng(1));
    expect(result.label).toBe(DISCLOSURE_LABEL);
    expect(result.differentiallyPrivate).toBe(false);
    expect(result.exactMatches.synthShare).toBe(1);
    expect(result.distanceToClosestRecord.synthToReal.median).toBe(0);
    // Real rows are all distinct: no baseline duplicates, positive leave-one-out distances.
    expect(result.exactMatches.realShare).toBe(0);
    expect(result.distanceToClosestRecord.realToReal.p05).toBeGreaterThan(0);
  });

  it('computes Gower distances with range scaling, category mismatch and missing = 1', () => {
    // Pooled age range [20, 60] (width 40). Synthetic rows:
    //   (60, F): closest real (50, M) → (10/40 + 1)/2 = 0.625, or (40, F) → (20/40 + 0)/2 = 0.25 → 0.25
    //   (null, M): closest real (null, F) → (0 + 1)/2 = 0.5, or (30, M) → (1 + 0)/2 = 0.5 → 0.5
    //   (30, M): exact copy → 0
    const synth = testTable({ sex: ['F', 'M', 'M'], age: [60, null, 30] });
    const result = disclosureDiagnostics(real, synth, new SeededRng(2));
    expect(result.exactMatches.synthRowsMatchingReal).toBe(1);
    expect(result.distanceToClosestRecord.synthToReal.median).toBe(0.25);
    // Type-7 5th percentile of [0, 0.25, 0.5]: h = 0.1 → 0.025.
    expect(result.distanceToClosestRecord.synthToReal.p05).toBeCloseTo(0.025, 15);
  });

  it('caps the number of queried rows', () => {
    const n = 3 * DISCLOSURE_MAX_QUERY_ROWS;
    const big = testTable({ x: Array.from({ length: n }, (_, i) => i % 97) });
    const result = disclosureDiagnostics(big, big, new SeededRng(3));
    expect(result.distanceToClosestRecord.queriedSynthRows).toBe(DISCLOSURE_MAX_QUERY_ROWS);
    expect(result.distanceToClosestRecord.queriedRealRows).toBe(DISCLOSURE_MAX_QUERY_ROWS);
    // Every value occurs about 31 times: real rows have real duplicates.
    expect(result.exactMatches.realShare).toBe(1);
  });
  it('gives, on tables with duplicates, missing values, −0 and many rows, what the row-key version gives', () => {
    // Random tables over small domains (so real rows repeat and synthetic rows match), with missing
    // values, −0 beside 0, a constant column and a category only one side has; every result field of
    // the typed-array version must equal the string-key reference's, for several seeds and sizes.
    for (const [seed, nReal, nSynth] of [
      [1, 50, 40],
      [2, 3000, 2500],
      [3, 20_000, 30_000],
    ] as const) {
      const rng = new SeededRng(`tables ${seed}`);
      const pick = <T>(values: readonly T[]) => values[rng.nextUint32() % values.length]!;
      const table = (n: number, extra: string) =>
        testTable({
          x: Array.from({ length: n }, () => pick([0, -0, 1.5, 2, 3.25, null])),
          y: Array.from({ length: n }, () => pick([10, 20, 30, null])),
          c: Array.from({ length: n }, () => pick(['a', 'b', extra, null])),
          k: Array.from({ length: n }, () => 7),
        });
      const real = table(nReal, 'r');
      const synth = table(nSynth, 's');
      expect(disclosureDiagnostics(real, synth, new SeededRng(seed))).toEqual(
        disclosureByRowKeys(real, synth, new SeededRng(seed)),
      );
    }
  });

  it('gives, with complete continuous columns (the sorted walk prunes), what the row-key version gives', () => {
    // The closest-record search skips reference rows by the sum of the complete numeric columns;
    // its distances must equal the reference's, which compares every pair: on continuous columns
    // alone, beside a category, and beside a numeric column with missing values (not projected).
    for (const [seed, withOthers] of [
      [4, false],
      [5, true],
    ] as const) {
      const rng = new SeededRng(`continuous ${seed}`);
      const table = (n: number, shift: number) =>
        testTable({
          a: Array.from({ length: n }, () => rng.nextFloat() + shift),
          b: Array.from({ length: n }, () => Math.round(rng.nextFloat() * 1e4) / 1e3),
          c: Array.from({ length: n }, () => rng.nextFloat() * rng.nextFloat()),
          ...(withOthers
            ? {
                d: Array.from({ length: n }, () => ['u', 'v', 'w'][rng.nextUint32() % 3]!),
                e: Array.from({ length: n }, () => (rng.nextFloat() < 0.2 ? null : rng.nextFloat())),
              }
            : {}),
        });
      const real = table(1500, 0);
      const synth = table(1200, 0.05);
      expect(disclosureDiagnostics(real, synth, new SeededRng(seed))).toEqual(
        disclosureByRowKeys(real, synth, new SeededRng(seed)),
      );
    }
  });

  it('counts exact matches exactly when distinct rows share the hash bits kept (long runs of equal hashes)', () => {
    // 4,000 distinct real rows (distinct numbers) and synthetic rows that are half copies, half new
    // values. With 3 bits of hash kept, runs hold about 1,000 rows of hundreds of distinct rows each.
    const n = 4000;
    const real = testTable({
      v: Array.from({ length: n }, (_, i) => i / 7),
      g: Array.from({ length: n }, (_, i) => (i % 3 ? 'a' : 'b')),
    });
    const synth = testTable({
      v: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? i / 7 : n + i / 7)),
      g: Array.from({ length: n }, (_, i) => (i % 3 ? 'a' : 'b')),
    });
    for (const bits of [3, 32]) {
      expect(exactMatchCounts(real, synth, bits)).toEqual({ synthMatches: n / 2, realDuplicates: 0 });
      expect(exactMatchCounts(real, real, bits)).toEqual({ synthMatches: n, realDuplicates: 0 });
    }
  });
});

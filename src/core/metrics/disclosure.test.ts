import { describe, expect, it } from 'vitest';
import { SeededRng } from '../rng/seeded-rng';
import { testTable } from './testing/test-table';
import { DISCLOSURE_LABEL, DISCLOSURE_MAX_QUERY_ROWS, disclosureDiagnostics } from './disclosure';

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
});

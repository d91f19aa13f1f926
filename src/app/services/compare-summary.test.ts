import { describe, expect, it } from 'vitest';
import type { PrivacyClaim } from '../../core/privacy/types';
import type { CompareEntry, ComparePoint } from '../state/compare-store';
import {
  assumptionCount,
  bestMechanismIds,
  claimInOneLine,
  formatCompareValue,
  summarizeComparison,
} from './compare-summary';

const claim: PrivacyClaim = {
  notion: 'pure-dp',
  epsilon: 1,
  delta: 0,
  neighbouring: 'replace-one',
  bound: 'proven',
  steps: [],
  assumptions: [],
};
const entry = (mechanismId: string): CompareEntry => ({
  mechanismId,
  label: mechanismId,
  claim,
  usesCurrentParams: false,
});
const point = (mechanismId: string, repeat: number, tvd: number, pmse = 0.01): ComparePoint => ({
  mechanismId,
  epsilon: 1,
  repeat,
  tvdOneWay: tvd,
  tvdTwoWay: 2 * tvd,
  pmse,
  runMillis: 100 * (repeat + 1),
});

describe('summarizeComparison', () => {
  it('gives mean, min and max per metric over each mechanism’s repeats, in entry order', () => {
    const rows = summarizeComparison(
      [entry('b'), entry('a')],
      [point('a', 0, 0.1), point('b', 0, 0.4), point('a', 1, 0.3)],
    );
    expect(rows.map((row) => row.entry.mechanismId)).toEqual(['b', 'a']);
    expect(rows[1]!.runs).toBe(2);
    const tvd = rows[1]!.metrics.tvdOneWay!;
    expect(tvd.mean).toBeCloseTo(0.2, 15);
    expect(tvd).toMatchObject({ min: 0.1, max: 0.3, count: 2 });
    expect(rows[1]!.metrics.runMillis).toMatchObject({ mean: 150, min: 100, max: 200 });
    expect(rows[0]!.metrics.tvdTwoWay).toMatchObject({ mean: 0.8, count: 1 });
  });

  it('skips NaN values and gives null for a mechanism without runs', () => {
    const rows = summarizeComparison(
      [entry('a'), entry('b')],
      [point('a', 0, 0.1, Number.NaN), point('a', 1, 0.2, 0.03)],
    );
    expect(rows[0]!.metrics.pmse).toEqual({ mean: 0.03, min: 0.03, max: 0.03, count: 1 });
    expect(rows[1]!.runs).toBe(0);
    expect(rows[1]!.metrics.tvdOneWay).toBeNull();
  });
});

describe('bestMechanismIds', () => {
  it('marks the lowest mean, every one on a tie, and nothing with fewer than two values', () => {
    const rows = summarizeComparison(
      [entry('a'), entry('b'), entry('c')],
      [point('a', 0, 0.3), point('b', 0, 0.1), point('c', 0, 0.1, 0.02)],
    );
    expect([...bestMechanismIds(rows, 'tvdOneWay')].sort()).toEqual(['b', 'c']);
    expect([...bestMechanismIds(rows, 'pmse')]).toEqual(['a', 'b']);
    const lonely = summarizeComparison([entry('a'), entry('b')], [point('a', 0, 0.3)]);
    expect(bestMechanismIds(lonely, 'tvdOneWay').size).toBe(0);
  });
});

describe('claim and value text', () => {
  it('states the claim in one line and counts its assumptions', () => {
    expect(claimInOneLine(claim)).toBe('pure ε-DP, ε = 1, δ = 0');
    expect(claimInOneLine({ ...claim, notion: 'approx-dp', delta: 1e-6 })).toBe(
      '(ε, δ)-DP, ε = 1, δ = 0.000001',
    );
    expect(claimInOneLine({ ...claim, bound: 'unproven', unprovenBecause: 'greedy trees, depth 5' })).toBe(
      'pure ε-DP, ε = 1, δ = 0 — not a proven bound (greedy trees, depth 5)',
    );
    expect(assumptionCount(claim)).toBe('no stated assumptions');
    expect(assumptionCount({ ...claim, assumptions: ['x'] })).toBe('rests on 1 assumption');
    expect(assumptionCount({ ...claim, assumptions: ['x', 'y', 'z'] })).toBe('rests on 3 assumptions');
  });

  it('formats TVD, pMSE and time', () => {
    expect(formatCompareValue('tvdOneWay', 0.12345)).toBe('0.123');
    expect(formatCompareValue('pmse', 0.0012345)).toBe('0.00123');
    expect(formatCompareValue('runMillis', 432.4)).toBe('432 ms');
    expect(formatCompareValue('runMillis', 12_345)).toBe('12.3 s');
    expect(formatCompareValue('tvdTwoWay', Number.NaN)).toBe('—');
  });
});

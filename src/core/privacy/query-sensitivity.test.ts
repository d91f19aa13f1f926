import { describe, expect, it } from 'vitest';
import { Rational } from '../rng/rational';
import {
  exactRationalOfDouble,
  gridUnit,
  l2QuerySensitivity,
  querySensitivity,
  realStatisticSensitivity,
  type L2QueryKind,
  type Neighbouring,
  type QueryKind,
  type RealStatistic,
} from './query-sensitivity';

const r = (num: number, den = 1) => Rational.of(num, den);

function sens(query: QueryKind, relation: Neighbouring): [string, string] {
  const { l1, l2Squared } = querySensitivity(query, relation);
  return [l1.toString(), l2Squared.toString()];
}

describe('the table of query kinds', () => {
  it('counts over a partition: replace-one L1 = 2 and L2 = √2 (one cell −1, one +1), add/remove 1 and 1', () => {
    expect(sens({ kind: 'partition-counts' }, 'replace-one')).toEqual(['2', '2']);
    expect(sens({ kind: 'partition-counts' }, 'add-remove')).toEqual(['1', '1']);
  });

  it('a count: 1 under both relations', () => {
    expect(sens({ kind: 'count' }, 'replace-one')).toEqual(['1', '1']);
    expect(sens({ kind: 'count' }, 'add-remove')).toEqual(['1', '1']);
  });

  it('a difference of two counts (yes − no): 2 under replace-one (a row turns from yes to no), 1 under add/remove', () => {
    expect(sens({ kind: 'count-difference' }, 'replace-one')).toEqual(['2', '4']);
    expect(sens({ kind: 'count-difference' }, 'add-remove')).toEqual(['1', '1']);
    // Brute force over every neighbour of a 3-row table over {yes, no, neither}: the largest change.
    const groups = [1, -1, 0];
    const tables = groups.flatMap((a) => groups.flatMap((b) => groups.map((c) => [a, b, c])));
    const diff = (t: number[]) => t.reduce((s, v) => s + v, 0);
    let replaceOne = 0;
    let addRemove = 0;
    for (const t of tables) {
      for (let i = 0; i < t.length; i++) {
        for (const v of groups) {
          const u = [...t];
          u[i] = v;
          replaceOne = Math.max(replaceOne, Math.abs(diff(u) - diff(t)));
        }
        addRemove = Math.max(addRemove, Math.abs(diff(t.filter((_, j) => j !== i)) - diff(t)));
      }
    }
    expect([replaceOne, addRemove]).toEqual([2, 1]);
  });

  it('an L1-error score of weight w on a grid g: 2·w·g under replace-one, w·g under add/remove', () => {
    const query: QueryKind = { kind: 'l1-error-score', weight: 3, grid: 2 ** 20 };
    expect(querySensitivity(query, 'replace-one').l1.equals(r(6 * 2 ** 20))).toBe(true);
    expect(querySensitivity(query, 'add-remove').l1.equals(r(3 * 2 ** 20))).toBe(true);
    expect(() => querySensitivity({ kind: 'l1-error-score', weight: 1.5, grid: 1 }, 'replace-one')).toThrow(
      'the weight of an L1-error score must be a whole number >= 0; got 1.5',
    );
  });

  it('a rank score: 1 under both relations', () => {
    expect(sens({ kind: 'rank-score' }, 'replace-one')).toEqual(['1', '1']);
    expect(sens({ kind: 'rank-score' }, 'add-remove')).toEqual(['1', '1']);
  });

  it('a clipped sum on [a, b]: b − a under replace-one, max(|a|, |b|) under add/remove', () => {
    const query: QueryKind = { kind: 'clipped-sum', lower: r(-3), upper: r(5, 2) };
    expect(sens(query, 'replace-one')).toEqual(['11/2', '121/4']);
    expect(sens(query, 'add-remove')).toEqual(['3', '9']);
    expect(() => querySensitivity({ kind: 'clipped-sum', lower: r(1), upper: r(0) }, 'replace-one')).toThrow(
      'a clipped sum needs lower <= upper',
    );
  });
});

describe('statistics on a grid', () => {
  const grid = (of: RealStatistic): QueryKind => ({ kind: 'on-grid', of, gridSteps: 100 });
  const mean: RealStatistic = { kind: 'clipped-mean', lower: r(0), upper: r(30), rows: 300 };
  const sums: RealStatistic = { kind: 'partition-clipped-sums', lower: r(-9, 2), upper: r(9, 2) };
  const covariance: RealStatistic = { kind: 'covariance-entry', widths: [r(30), r(9)], rows: 10 };
  const diagonal: RealStatistic = { kind: 'pooled-scatter-entry', widths: [r(3), r(3)], diagonal: true };
  const offDiagonal: RealStatistic = { kind: 'pooled-scatter-entry', widths: [r(3), r(2)], diagonal: false };

  it('the real statistics: a clipped mean is the clipped sum over n; cell sums move in two cells (replace-one) or one', () => {
    expect(realStatisticSensitivity(mean, 'replace-one')).toEqual({ l1: r(1, 10), changedEntries: 1 });
    const shifted: RealStatistic = { kind: 'clipped-mean', lower: r(-1), upper: r(3), rows: 4 };
    // Replace-one: (3 − (−1))/4 = 1.
    expect(realStatisticSensitivity(shifted, 'replace-one').l1).toEqual(r(1));
    // Add/remove: n is private, so a mean over it has no bound here.
    expect(() => realStatisticSensitivity(shifted, 'add-remove')).toThrow(/n is private/);
    // Centred sums on [−4.5, 4.5]: replace-one max(9, 2·4.5) = 9 over 2 cells; add/remove 4.5 in 1.
    expect(realStatisticSensitivity(sums, 'replace-one')).toEqual({ l1: r(9), changedEntries: 2 });
    expect(realStatisticSensitivity(sums, 'add-remove')).toEqual({ l1: r(9, 2), changedEntries: 1 });
    // Sums on [0, 5]: a row that moves cells changes two sums by up to 5 each: 10.
    const positive: RealStatistic = { kind: 'partition-clipped-sums', lower: r(0), upper: r(5) };
    expect(realStatisticSensitivity(positive, 'replace-one').l1).toEqual(r(10));
  });

  it('covariance entries w·v/n (replace-one; refused under add/remove); pooled scatter w² and 2·w·v, or w² and w·v', () => {
    expect(realStatisticSensitivity(covariance, 'replace-one').l1).toEqual(r(27));
    // The divisor n − 1 is not public under add/remove: no bound, as for the pMSE score.
    expect(() => realStatisticSensitivity(covariance, 'add-remove')).toThrow(
      'a covariance entry divides by n − 1, n public: it has no bound when n is private (add/remove neighbours)',
    );
    expect(() => sens(grid(covariance), 'add-remove')).toThrow(/n is private/);
    expect(realStatisticSensitivity(diagonal, 'replace-one').l1).toEqual(r(9));
    expect(realStatisticSensitivity(diagonal, 'add-remove').l1).toEqual(r(9));
    expect(realStatisticSensitivity(offDiagonal, 'replace-one').l1).toEqual(r(12));
    expect(realStatisticSensitivity(offDiagonal, 'add-remove').l1).toEqual(r(6));
  });

  it('rounded to G steps: L1 = G + c and L2² = (G + 1)² + c − 1, with g = Δ/G', () => {
    expect(sens(grid(mean), 'replace-one')).toEqual(['101', '10201']);
    expect(sens(grid(sums), 'replace-one')).toEqual(['102', '10202']);
    expect(sens(grid(sums), 'add-remove')).toEqual(['101', '10201']);
    expect(gridUnit({ kind: 'on-grid', of: mean, gridSteps: 100 }, 'replace-one')).toEqual(r(1, 1000));
    expect(() => sens({ kind: 'on-grid', of: mean, gridSteps: 0 }, 'replace-one')).toThrow(
      'at least one step',
    );
  });
});

describe('the pMSE score', () => {
  it('1/(2n) for partitions fixed before the data, 1/n for greedy trees; no bound when n is private', () => {
    expect(sens({ kind: 'pmse-score', rows: 50, partitions: 'fixed-before-data' }, 'replace-one')).toEqual([
      '1/100',
      '1/10000',
    ]);
    expect(sens({ kind: 'pmse-score', rows: 50, partitions: 'greedy-tree' }, 'replace-one')).toEqual([
      '1/50',
      '1/2500',
    ]);
    expect(() => sens({ kind: 'pmse-score', rows: 50, partitions: 'greedy-tree' }, 'add-remove')).toThrow(
      'no bound when n is private',
    );
  });
});

describe('regression coefficients (L2 only)', () => {
  const query = (classes: number): L2QueryKind => ({
    kind: 'regularized-logistic-coefficients',
    rows: 100,
    lambda: 0.5,
    classes,
    gapPerSensitivity: 1000,
  });

  it('replace-one: Δ₂ = 2G/(nλ)·(1 + 2/1000), G = 1 or √2; refused under add/remove (n private)', () => {
    // Two classes: 2/(100·0.5) = 1/25, times 1002/1000: Δ₂² = (1002/25000)².
    const two = l2QuerySensitivity(query(2), 'replace-one');
    expect(two.l2Squared).toEqual(r(1002 * 1002, 25000 * 25000));
    // The double carries a relative margin of 1e−12 above the exact value.
    expect(two.l2Upper / (1002 / 25000)).toBeCloseTo(1, 11);
    expect(two.l2Upper).toBeGreaterThan(1002 / 25000);
    // Three classes: G² = 2, so Δ₂² doubles.
    expect(l2QuerySensitivity(query(3), 'replace-one').l2Squared).toEqual(r(2 * 1002 * 1002, 25000 * 25000));
    const upper = exactRationalOfDouble(l2QuerySensitivity(query(3), 'replace-one').l2Upper);
    expect(upper.mul(upper).compare(r(2 * 1002 * 1002, 25000 * 25000))).toBe(1);
    // The mean loss divides by n, private under add/remove: no bound.
    expect(() => l2QuerySensitivity(query(3), 'add-remove')).toThrow(
      'the regularized logistic objective divides by n, n public: it has no bound when n is private (add/remove neighbours)',
    );
  });

  it('reads a double exactly, and refuses what it cannot bound', () => {
    expect(exactRationalOfDouble(0.1)).toEqual(Rational.of(3602879701896397n, 36028797018963968n));
    expect(exactRationalOfDouble(-3)).toEqual(r(-3));
    expect(() => l2QuerySensitivity({ ...query(2), lambda: 0 }, 'replace-one')).toThrow('λ must be > 0');
    expect(() => l2QuerySensitivity({ ...query(1) }, 'replace-one')).toThrow('classes must be >= 2');
  });
});

import { describe, expect, it } from 'vitest';
import { Rational } from '../rng/rational';
import { querySensitivity, type Neighbouring, type QueryKind } from './query-sensitivity';

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

import { describe, expect, it } from 'vitest';
import { SeededRng } from '../rng/seeded-rng';
import type { Rng } from '../rng/types';
import type { Table } from '../table/types';
import { SYNTHPOP_CART_DEFAULTS } from '../models/cart/cart-types';
import {
  cartPmseInput,
  cartPmseNullRefits,
  cartPmseNullSum,
  type CartNullPart,
  computePmse,
  computePmseReleases,
  makeCartPmseEvaluator,
} from './pmse';
import { testTable } from './testing/test-table';

function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.nextFloat())) * Math.cos(2 * Math.PI * rng.nextFloat());
}

/** n rows: two numeric columns and a 3-level categorical, all from one distribution (shift = 0). */
function sample(rng: Rng, n: number, shift = 0): Table {
  const levels = ['lo', 'mid', 'hi'];
  return testTable({
    u: Array.from({ length: n }, () => normal(rng) + shift),
    v: Array.from({ length: n }, () => Math.round(normal(rng) * 4) / 4),
    g: Array.from({ length: n }, () => levels[Math.floor(rng.nextFloat() * 3)]!),
  });
}

describe('computePmse', () => {
  const rng = new SeededRng(1);
  const real = sample(rng, 150);
  const synth = sample(rng, 120, 0.4);

  it('aligns categories by token and columns by name', () => {
    const base = computePmse(real, synth, { model: 'cart', permutations: 0 }, new SeededRng(0));
    // Same synthetic data with columns in another order and a reversed, padded dictionary.
    const g = synth.columns[2] as Extract<Table['columns'][number], { kind: 'categorical' }>;
    const dictionary = ['unused', ...g.dictionary.slice().reverse()];
    const codes = Uint32Array.from(g.codes, (code) => dictionary.indexOf(g.dictionary[code]!));
    const shuffled: Table = {
      nRows: synth.nRows,
      columns: [{ ...g, dictionary, codes }, synth.columns[1]!, synth.columns[0]!],
    };
    for (const model of ['cart', 'logit'] as const) {
      const a = computePmse(real, synth, { model, permutations: 0 }, new SeededRng(0));
      const b = computePmse(real, shuffled, { model, permutations: 0 }, new SeededRng(0));
      expect(b.value).toBe(a.value);
    }
    expect(base.leaves).toBeGreaterThan(1);
  });

  it('CART ratio is pMSE over half the permutation mean; the null is reproducible from the seed', () => {
    const a = computePmse(real, synth, { model: 'cart', permutations: 20 }, new SeededRng(9));
    const b = computePmse(real, synth, { model: 'cart', permutations: 20 }, new SeededRng(9));
    const c = computePmse(real, synth, { model: 'cart', permutations: 20 }, new SeededRng(10));
    expect(b.nullMean).toBe(a.nullMean);
    expect(c.nullMean).not.toBe(a.nullMean);
    expect(a.ratio).toBeCloseTo(a.value / (a.nullMean! / 2), 12);
    expect(a.rawRatio).toBeCloseTo(a.value / a.nullMean!, 12);
  });

  it('the null computed apart (cartPmseNullSum) is the one computePmse computes, and a given null is used as is', () => {
    // computePmse fits the real tree without randomness, then refits with shuffles from its rng:
    // the same seed on cartPmseNullSum over the same stacked input gives the same sum exactly.
    const inline = computePmse(real, synth, { model: 'cart', permutations: 12 }, new SeededRng(21));
    const { input, share } = cartPmseInput(real, synth);
    const sum = cartPmseNullSum(input, SYNTHPOP_CART_DEFAULTS, share, 12, new SeededRng(21));
    expect(sum / 12).toBe(inline.nullMean);
    // With nullMean given, no refit runs (the generator is untouched) and S_pMSE uses that null.
    let draws = 0;
    const counting: Rng = { seeded: true, nextUint32: () => (draws++, 0), nextFloat: () => (draws++, 0) };
    const given = computePmse(real, synth, { model: 'cart', permutations: 50, nullMean: 0.004 }, counting);
    expect(draws).toBe(0);
    expect(given.nullMean).toBe(0.004);
    expect(given.ratio).toBeCloseTo(given.value / 0.002, 12);
  });

  it('refits taken one at a time by two callers (cartPmseNullRefits) give each part the sum cartPmseNullSum gives', () => {
    // Two callers share one counter, as the CLI's two threads do; refit t's labels come from its
    // part's own generator, so each part's pMSEs summed in refit order equal cartPmseNullSum exactly.
    const { input, share } = cartPmseInput(real, synth);
    const parts = (): CartNullPart[] => [
      { permutations: 4, rng: new SeededRng('part 0') },
      { permutations: 3, rng: new SeededRng('part 1') },
    ];
    const values = new Float64Array(7).fill(NaN);
    const taken: [number[], number[]] = [[], []];
    let next = 0;
    // Caller A takes refits 0, 2, 3 and 6, caller B the others (a fixed interleaving of one counter).
    const turns = [0, 1, 0, 0, 1, 1, 0];
    const claimFor = (who: 0 | 1) => () => {
      while (next < 7 && turns[next] !== who) next++;
      const t = next < 7 ? next++ : 7;
      if (t < 7) taken[who].push(t);
      return t;
    };
    cartPmseNullRefits(input, SYNTHPOP_CART_DEFAULTS, share, parts(), claimFor(0), (t, v) => (values[t] = v));
    next = 0;
    cartPmseNullRefits(input, SYNTHPOP_CART_DEFAULTS, share, parts(), claimFor(1), (t, v) => (values[t] = v));
    expect(taken).toEqual([
      [0, 2, 3, 6],
      [1, 4, 5],
    ]);
    const sum = (from: number, to: number) => values.slice(from, to).reduce((s, v) => s + v, 0);
    expect(sum(0, 4)).toBe(cartPmseNullSum(input, SYNTHPOP_CART_DEFAULTS, share, 4, new SeededRng('part 0')));
    expect(sum(4, 7)).toBe(cartPmseNullSum(input, SYNTHPOP_CART_DEFAULTS, share, 3, new SeededRng('part 1')));
    expect(Math.min(...values)).toBeGreaterThan(0);
  });

  it('logit ratio uses the closed-form null (k − 1)(1 − c)² c / N', () => {
    const result = computePmse(real, synth, { model: 'logit', maxOrder: 0 }, new SeededRng(0));
    const total = real.nRows + synth.nRows;
    const c = synth.nRows / total;
    // Intercept + u + v + two dummies for g.
    expect(result.k).toBe(5);
    expect(result.nullMean).toBeCloseTo((4 * (1 - c) ** 2 * c) / total, 15);
    expect(result.ratio).toBeCloseTo(result.value / result.nullMean!, 12);
  });

  it('reports propensities per side and rejects empty tables', () => {
    const result = computePmse(
      real,
      synth,
      { model: 'cart', permutations: 0, keepPropensities: true },
      new SeededRng(0),
    );
    expect(result.propensities!.real.length).toBe(150);
    expect(result.propensities!.synth.length).toBe(120);
    const empty = { nRows: 0, columns: synth.columns.map((column) => ({ ...column })) } as Table;
    expect(() => computePmse(real, empty, { model: 'cart' }, new SeededRng(0))).toThrow(RangeError);
  });

  it('averages several releases', () => {
    const releases = [sample(rng, 150), sample(rng, 150, 0.2)];
    const summary = computePmseReleases(real, releases, { model: 'logit', maxOrder: 1 }, new SeededRng(2));
    expect(summary.perRelease).toHaveLength(2);
    expect(summary.meanValue).toBeCloseTo(
      (summary.perRelease[0]!.value + summary.perRelease[1]!.value) / 2,
      15,
    );
    expect(summary.meanRatio).toBeCloseTo(
      (summary.perRelease[0]!.ratio! + summary.perRelease[1]!.ratio!) / 2,
      12,
    );
  });
});

describe('S_pMSE is calibrated when the synthetic rows come from the real distribution', () => {
  it('logit (main effects): independent samples give S_pMSE ≈ 1/(1 − c), twice the conditional null at c = 1/2', () => {
    // For two independent samples N·pMSE ≈ c(1−c)·χ²_{k−1} (score test of the k−1 slopes), while
    // E[pMSE] = (k−1)(1−c)²c/N is the null for synthetic data drawn conditionally on the real data
    // (Snoke et al. 2018); hence E[S] ≈ 1/(1−c) = 2 here — the reason synthpop halves permutation
    // nulls. S(1−c) then has mean 1 and variance 2/(k−1) = 0.5 (k = 5): the mean of 40 has sd ≈ 0.11.
    const rng = new SeededRng(77);
    const values: number[] = [];
    for (let r = 0; r < 40; r++) {
      const result = computePmse(sample(rng, 200), sample(rng, 200), { model: 'logit', maxOrder: 0 }, rng);
      values.push(result.ratio! * (1 - 0.5));
    }
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(Math.abs(mean - 1)).toBeLessThan(4 * Math.sqrt(0.5 / 40));
  });

  it('CART: the observed pMSE is exchangeable with the permuted ones, so the raw ratio has mean ≈ 1', () => {
    // Observed and permuted label sets are equally likely under the null: E[pMSE] = E[null mean]. Over
    // 12 replicates the mean raw ratio has sd ≈ sd(ratio)/sqrt(12); the sample sd is used for the bound.
    const rng = new SeededRng(78);
    const ratios: number[] = [];
    for (let r = 0; r < 12; r++) {
      const result = computePmse(
        sample(rng, 120),
        sample(rng, 120),
        { model: 'cart', permutations: 25 },
        rng,
      );
      ratios.push(result.rawRatio!);
      expect(result.ratio).toBeCloseTo(2 * result.rawRatio!, 12);
    }
    const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
    const sd = Math.sqrt(ratios.reduce((a, b) => a + (b - mean) ** 2, 0) / (ratios.length - 1));
    expect(Math.abs(mean - 1)).toBeLessThan(4 * (sd / Math.sqrt(ratios.length)) + 0.05);
  });
});

describe('makeCartPmseEvaluator', () => {
  it('equals computePmse with CART on numeric tables, call after call', () => {
    const rng = new SeededRng(4);
    const real = testTable({
      a: Array.from({ length: 300 }, () => normal(rng)),
      b: Array.from({ length: 300 }, () => Math.round(normal(rng))),
    });
    const options = { cp: 0.001, minBucket: 5, minSplit: 15, maxDepth: 30 };
    const realColumns = real.columns.map((column) => (column as { values: Float64Array }).values);
    const evaluator = makeCartPmseEvaluator(realColumns, 250, options);
    for (let r = 0; r < 3; r++) {
      const synth = testTable({
        a: Array.from({ length: 250 }, () => normal(rng) + 0.3 * r),
        b: Array.from({ length: 250 }, () => Math.round(normal(rng))),
      });
      const expected = computePmse(real, synth, { model: 'cart', cart: options, permutations: 0 }, rng);
      const synthColumns = synth.columns.map((column) => (column as { values: Float64Array }).values);
      expect(evaluator.evaluate(synthColumns)).toBeCloseTo(expected.value, 15);
      expect(evaluator.lastLeafCount()).toBe(expected.leaves);
    }
    expect(() => evaluator.evaluate([realColumns[0]!])).toThrow(RangeError);
    // Empty leaves (rpart's split between adjacent doubles) hold no row and add nothing.
    const adjacent = makeCartPmseEvaluator([new Float64Array(10).fill(1)], 10, {
      ...options,
      minSplit: 4,
      minBucket: 2,
    });
    expect(adjacent.evaluate([new Float64Array(10).fill(1 + 2 ** -52)])).toBe(0);
    expect(() => evaluator.evaluate([new Float64Array(250).fill(NaN), new Float64Array(250)])).toThrow(
      RangeError,
    );
  });
});

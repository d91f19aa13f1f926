import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { cellCount } from './factor-index';
import { eliminateToMarginal, type Factor } from './variable-elimination';

/** Brute force: Σ over every assignment of all attributes of Π_f f(x_f), collected on `target`. */
function bruteSumOfProduct(factors: Factor[], target: number[], sizes: number[]): Float64Array {
  const out = new Float64Array(cellCount(target, sizes));
  const cellOf = (x: number[], attrs: number[]) => attrs.reduce((cell, a) => cell * sizes[a]! + x[a]!, 0);
  const total = sizes.reduce((a, b) => a * b, 1);
  for (let index = 0; index < total; index++) {
    const x: number[] = [];
    let rest = index;
    for (let a = sizes.length - 1; a >= 0; a--) {
      x[a] = rest % sizes[a]!;
      rest = Math.floor(rest / sizes[a]!);
    }
    out[cellOf(x, target)] += factors.reduce((p, f) => p * f.values[cellOf(x, f.attrs)]!, 1);
  }
  return out;
}

function randomFactor(rng: SeededRng, attrs: number[], sizes: number[]): Factor {
  return {
    attrs,
    values: Float64Array.from({ length: cellCount(attrs, sizes) }, () => 0.1 + rng.nextFloat()),
  };
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>): void {
  // Sums of at most 216 products of four factors below 1.1: each exact to a few ulps, so 1e−12
  // relative to the largest entry is far above the rounding and far below a missing or doubled term.
  const scale = Math.max(...Array.from(expected, Math.abs));
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < actual.length; i++)
    expect(
      Math.abs(actual[i]! - expected[i]!),
      `cell ${i}: ${actual[i]} vs ${expected[i]}`,
    ).toBeLessThanOrEqual(1e-12 * scale);
}

describe('eliminateToMarginal', () => {
  // Attributes of different sizes, so a stride or radix taken from the wrong attribute shows.
  const sizes = [2, 3, 4, 3];

  it('sums a product of factors onto any target, as brute force does', () => {
    const rng = new SeededRng('variable elimination');
    const factorSets: number[][][] = [
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ], // a chain: joins of two factors
      [
        [0, 1],
        [0, 2],
        [0, 3],
      ], // a star: the join of three factors at once
      [[0, 1, 2], [1, 2, 3], [3]],
      [[0, 1, 2, 3]], // one factor: a plain projection
      [[0], [1], [2], [3]], // independent factors
      [
        [2, 3],
        [1, 2],
        [0, 1],
      ], // a chain listed from its far end: the joins gather attributes out of order
      [
        [1, 3],
        [0, 1],
        [2, 3],
      ],
    ];
    const targets: number[][] = [[], [0], [3], [1, 2], [0, 3], [0, 1, 3], [0, 1, 2, 3]];
    for (const attrsList of factorSets) {
      const factors = attrsList.map((attrs) => randomFactor(rng, attrs, sizes));
      for (const target of targets)
        expectClose(eliminateToMarginal(factors, target, sizes), bruteSumOfProduct(factors, target, sizes));
    }
  });

  it('eliminates in an order that keeps every join small', () => {
    // A star of L = 26 binary leaves around one centre, factors g(leaf, centre) = M[leaf][centre].
    // Summing the centre out first would join all 27 attributes (2^27 cells); summing each leaf out
    // first leaves factors on the centre alone. The marginal on two leaves a, b is then
    // Σ_c M[a][c]·M[b][c]·s_c^(L−2) with s_c = M[0][c] + M[1][c], the column sums of M.
    const m = [
      [0.6, 0.3],
      [0.4, 0.9],
    ];
    // The centre is met first (attribute 0) or last (attribute 26, after factors of ones on each
    // leaf), so neither the first nor the last attribute met is the cheap one to eliminate.
    const leaves = 26;
    for (const centre of [0, leaves]) {
      const leafAttrs = Array.from({ length: leaves + 1 }, (_, a) => a).filter((a) => a !== centre);
      const starSizes = new Array<number>(leaves + 1).fill(2);
      const ones: Factor[] =
        centre === 0 ? [] : leafAttrs.map((leaf) => ({ attrs: [leaf], values: Float64Array.of(1, 1) }));
      const factors: Factor[] = leafAttrs.map((leaf) =>
        leaf < centre
          ? { attrs: [leaf, centre], values: Float64Array.of(m[0]![0]!, m[0]![1]!, m[1]![0]!, m[1]![1]!) }
          : { attrs: [centre, leaf], values: Float64Array.of(m[0]![0]!, m[1]![0]!, m[0]![1]!, m[1]![1]!) },
      );
      const [a, b] = [leafAttrs[3]!, leafAttrs[17]!];
      const expected = new Float64Array(4);
      for (let xa = 0; xa < 2; xa++)
        for (let xb = 0; xb < 2; xb++)
          for (let c = 0; c < 2; c++)
            expected[xa * 2 + xb] += m[xa]![c]! * m[xb]![c]! * (m[0]![c]! + m[1]![c]!) ** (leaves - 2);
      expectClose(eliminateToMarginal([...ones, ...factors], [a, b], starSizes), expected);
    }
  });

  it('multiplies factors on no attributes into the total', () => {
    const factors: Factor[] = [
      { attrs: [], values: Float64Array.of(3) },
      { attrs: [], values: Float64Array.of(0.5) },
      { attrs: [1], values: Float64Array.of(1, 2, 4) },
    ];
    // 3 · 0.5 · (1 + 2 + 4) = 10.5, and on attribute 1: 1.5 · (1, 2, 4).
    expect(Array.from(eliminateToMarginal(factors, [], sizes))).toEqual([10.5]);
    expect(Array.from(eliminateToMarginal(factors, [1], sizes))).toEqual([1.5, 3, 6]);
    expect(Array.from(eliminateToMarginal(factors.slice(0, 2), [], sizes))).toEqual([1.5]);
  });

  it('refuses a target attribute that no factor mentions', () => {
    const factors = [randomFactor(new SeededRng('missing'), [0, 1], sizes)];
    expect(() => eliminateToMarginal(factors, [1, 2, 3], sizes)).toThrow(
      'no factor mentions attributes [2, 3]',
    );
  });
});

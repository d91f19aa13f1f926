import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { uniformInt } from '../../rng/uniform-int';
import {
  earliestDeadlineByScan,
  earliestDeadlineFirst,
  OccurrenceClock,
  RowOrder,
  spreadLevels,
  unbiasedCounts,
} from './balanced-levels';
import { CliqueTreeModel } from './clique-tree-model';
import { countCells } from './factor-index';
import { buildJunctionTree } from './junction-tree';
import { sampleRows } from './sample-model';

/** Level counts summing to m: a dominant level, some small ones and some zeros. */
function someCounts(rng: SeededRng, m: number, k: number): number[] {
  const counts = new Array<number>(k).fill(0);
  for (let r = 0; r < m; r++) {
    // half of the rows to level 0, the rest spread over the first k − 2 levels (the last two stay 0)
    counts[uniformInt(rng, 2) === 0 ? 0 : uniformInt(rng, Math.max(1, k - 2))]!++;
  }
  return counts;
}

describe('spreadLevels', () => {
  it('holds every level exactly its count, and every cyclic run of L positions within 2 of L·c/m', () => {
    const rng = new SeededRng('spread levels');
    for (let trial = 0; trial < 40; trial++) {
      const m = 1 + uniformInt(rng, 150);
      const k = 1 + uniformInt(rng, 12);
      const counts = someCounts(rng, m, k);
      const sequence = spreadLevels(rng, counts, m);
      expect(sequence.length).toBe(m);
      const held = new Array<number>(k).fill(0);
      for (const l of sequence) held[l]!++;
      expect(held).toEqual(counts);
      // Every run (start a, length L, wrapping at the end) against its proportional share.
      let worst = 0;
      for (let a = 0; a < m; a++) {
        const inRun = new Array<number>(k).fill(0);
        for (let length = 1; length <= m; length++) {
          inRun[sequence[(a + length - 1) % m]!]!++;
          for (let l = 0; l < k; l++)
            worst = Math.max(worst, Math.abs(inRun[l]! - (length * counts[l]!) / m));
        }
      }
      expect(worst, `counts ${counts.join(',')}`).toBeLessThan(2);
    }
  });

  it('builds the same sequence with a heap as by scanning every level, ties and many levels included', () => {
    const rng = new SeededRng('scan or heap');
    for (let trial = 0; trial < 60; trial++) {
      const m = 1 + uniformInt(rng, 300);
      const k = 1 + uniformInt(rng, trial < 30 ? 40 : 400);
      const counts =
        trial % 3 === 2
          ? // equal counts (every deadline tied across levels), the rest on level 0
            Array.from({ length: k }, (_, l) => Math.floor(m / k) + (l === 0 ? m % k : 0))
          : someCounts(rng, m, k);
      expect([...earliestDeadlineFirst(counts, m)]).toEqual([...earliestDeadlineByScan(counts, m)]);
    }
  });

  it('puts level l at any given position with probability c_l/m (the random rotation)', () => {
    // counts [1, 4] in m = 5 positions: before rotation the single level-0 row never comes first
    // (earliest deadline first puts the level-1 row due at position 1 there). With the rotation,
    // position 0 holds level 0 in 1 of 5 sequences: over 4,000 sequences the count is Binomial(4000,
    // 0.2), mean 800 and sd 25.3; 5 sd is 126.
    const rng = new SeededRng('spread rotation');
    let first = 0;
    for (let draw = 0; draw < 4000; draw++) if (spreadLevels(rng, [1, 4], 5)[0] === 0) first++;
    expect(Math.abs(first - 800)).toBeLessThan(126);
  });

  it('refuses counts that do not sum to the number of positions', () => {
    const rng = new SeededRng('spread refuse');
    expect(() => spreadLevels(rng, [2, 2], 5)).toThrow(/do not sum to 5/);
    expect(() => spreadLevels(rng, [3, 3], 5)).toThrow(/do not sum to 5/);
  });
});

describe('OccurrenceClock', () => {
  it('gives ⌊j·m/c⌋ and ⌈(j + 1)·m/c⌉ − 1 exactly where j·m is far above 2⁵³', () => {
    // m above 9.5·10⁷ is where a floating-point ⌊j·m/c⌋ can be wrong; BigInt is the reference.
    for (const [m, c] of [
      [150_000_007, 9_973],
      [2 ** 40 + 3, 4_099],
      [7, 3],
      [12, 4],
    ] as const) {
      const clock = new OccurrenceClock(m, c);
      for (let j = 0; j < c; j++) {
        const [big, bigC] = [BigInt(m), BigInt(c)];
        expect(BigInt(clock.release)).toBe((BigInt(j) * big) / bigC);
        const next = BigInt(j + 1) * big;
        const ceiling = (next + bigC - 1n) / bigC;
        expect(BigInt(clock.deadline()), `m ${m}, c ${c}, j ${j}`).toBe(ceiling - 1n);
        clock.advance();
      }
    }
  });
});

describe('unbiasedCounts', () => {
  it('gives each level the floor or the ceiling of its expected count, summing to the group size', () => {
    const rng = new SeededRng('unbiased counts');
    const weights = [0.3, 2.1, 0, 1.6, 0.05];
    const total = weights.reduce((a, b) => a + b, 0);
    for (let count = 1; count < 60; count++) {
      const rows = unbiasedCounts(rng, weights, count);
      expect(rows.reduce((a, b) => a + b, 0)).toBe(count);
      rows.forEach((c, l) => {
        const expected = (count * weights[l]!) / total;
        expect(
          c === Math.floor(expected) || c === Math.ceil(expected),
          `level ${l}: ${c} vs ${expected}`,
        ).toBe(true);
      });
    }
  });

  it('has mean exactly the expected count (where drawing one level after another does not)', () => {
    // Fractions 0.9, 0.5, 0.6 and 2 rows: level 0 must get its row with probability 0.9. Over 20,000
    // groups the count is Binomial(20000, 0.9): sd 42.4, 5 sd = 212 around 18,000. Drawing the two
    // rows one after another without replacement, ∝ the fractions, gives level 0 a row with
    // probability 0.787 (15,740 expected): far outside.
    const rng = new SeededRng('unbiased mean');
    let level0 = 0;
    for (let draw = 0; draw < 20_000; draw++) level0 += unbiasedCounts(rng, [0.9, 0.5, 0.6], 2)[0]!;
    expect(Math.abs(level0 - 18_000)).toBeLessThan(212);
  });
});

describe('RowOrder', () => {
  it('keeps the rows sorted by the attributes refined so far, the first most significant, ties at random', () => {
    const n = 400;
    const sizes = [3, 4, 2];
    const source = new SeededRng('row levels');
    const levels = sizes.map((k) => Uint32Array.from({ length: n }, () => uniformInt(source, k)));
    const orders = ['a', 'b'].map((seed) => {
      const rows = new RowOrder(new SeededRng(seed), n);
      rows.refine(levels[2]!, 2);
      rows.refine(levels[0]!, 3);
      return rows.order;
    });
    for (const order of orders) {
      expect([...order].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i));
      for (let r = 1; r < n; r++) {
        const [p, q] = [order[r - 1]!, order[r]!];
        const before = levels[2]![p]! * 3 + levels[0]![p]!;
        const after = levels[2]![q]! * 3 + levels[0]![q]!;
        expect(before).toBeLessThanOrEqual(after);
      }
    }
    // About 400/6 ≈ 67 rows share each key: two seeds order them alike with negligible probability.
    expect([...orders[0]!]).not.toEqual([...orders[1]!]);
  });

  it('matches a plain stable sort by (earlier keys, new key) with many levels and short runs', () => {
    const source = new SeededRng('refine reference');
    for (const [n, sizes] of [
      [500, [3, 200]],
      [300, [50, 7, 120]],
      [64, [1, 1000]],
    ] as const) {
      const levels = sizes.map((k) => Uint32Array.from({ length: n }, () => uniformInt(source, k)));
      const rows = new RowOrder(new SeededRng('refine'), n);
      const start = [...rows.order];
      levels.forEach((column, q) => rows.refine(column, sizes[q]!));
      // The reference: the starting (random) order, sorted stably by the levels, first key first.
      const expected = [...start].sort((a, b) => {
        for (const column of levels) if (column[a] !== column[b]) return column[a]! - column[b]!;
        return 0;
      });
      expect([...rows.order]).toEqual(expected);
    }
  });
});

describe('sampleRows under the balanced rule', () => {
  // A chain a — b — c (cliques {a, b} and {b, c}): the model holds a and c independent given b.
  const sizes = [4, 3, 4];
  const n = 30_000;
  const model = new CliqueTreeModel(
    buildJunctionTree(3, sizes, [
      [0, 1],
      [1, 2],
    ]),
    sizes,
    n,
  );
  // Log-potentials of moderate size on both cliques (12 cells each), so every cell is well filled.
  const theta = [
    Float64Array.from({ length: 12 }, (_, c) => 0.5 * Math.sin(1.7 * c)),
    Float64Array.from({ length: 12 }, (_, c) => 0.5 * Math.cos(2.3 * c)),
  ];
  const marginals = model.calibrate(theta);
  const expected = model.marginal(marginals, [0, 1, 2]);
  const worstCell = (rule: 'balanced' | 'round'): number => {
    const rows = sampleRows(new SeededRng(`chain ${rule}`), model, marginals, n, rule);
    const counts = countCells(rows, [0, 1, 2], sizes);
    let worst = 0;
    for (let c = 0; c < counts.length; c++) worst = Math.max(worst, Math.abs(counts[c]! - expected[c]!));
    return worst;
  };

  it('gives every cell of the 3-way table, which no clique holds, its model count to within 5 rows', () => {
    // Say b is drawn first and c last (the other orders are alike). Rounding keeps n_b within 1 of
    // n·p(b) and n_ab within 1 of n_b·p(a|b); c is drawn given b over rows sorted by a, so the
    // stratum (a, b) is a run of n_ab rows and gets level c within 2 of n_ab·c_{c|b}/n_b, itself within
    // n_ab/n_b ≤ 1 of n_ab·p(c|b). Adding up: |n_abc − n·p(a, b, c)| < 2 + 1 + 1 + 1 = 5.
    expect(worstCell('balanced')).toBeLessThan(5);
  });

  it('draws every 3-way cell with the model count on average', () => {
    // 400 seeds on a smaller table (n = 600). For each cell, z = mean deviation / (sd/√400), with sd
    // the cell's sample sd across seeds; unbiased, each z is about standard normal, and the largest of
    // 48 stays below 5 except with probability about 48 · 6e−7. The counts vary little (sd about half
    // a row per cell), so the standard error is about 0.026 and a bias of 0.15 row in a cell (the
    // size that drawing the leftover rows one after another, as 'round' does, can give) reaches z ≈ 6.
    const small = new CliqueTreeModel(
      buildJunctionTree(3, sizes, [
        [0, 1],
        [1, 2],
      ]),
      sizes,
      600,
    );
    const calibrated = small.calibrate(theta);
    const want = small.marginal(calibrated, [0, 1, 2]);
    const seeds = 400;
    const sum = new Float64Array(want.length);
    const squares = new Float64Array(want.length);
    for (let seed = 0; seed < seeds; seed++) {
      const rows = sampleRows(new SeededRng(`unbiased ${seed}`), small, calibrated, 600, 'balanced');
      const counts = countCells(rows, [0, 1, 2], sizes);
      for (let c = 0; c < want.length; c++) {
        const deviation = counts[c]! - want[c]!;
        sum[c] += deviation;
        squares[c] += deviation * deviation;
      }
    }
    let largest = 0;
    for (let c = 0; c < want.length; c++) {
      const mean = sum[c]! / seeds;
      const variance = (squares[c]! - seeds * mean * mean) / (seeds - 1);
      if (variance > 0) largest = Math.max(largest, Math.abs(mean) / Math.sqrt(variance / seeds));
    }
    expect(largest).toBeLessThan(5);
  });

  it('is closer than the shuffled rounding, whose 3-way cells drift by chance', () => {
    // Under 'round' n_abc is hypergeometric given n_ab and the counts of c in group b: with about 10,000
    // rows per level of b and 625 per cell, its sd is about √(625 · ¾ · ¾) ≈ 19, so each of the 27 free
    // deviations (3 × 3 per level of b) stays within 5 with probability about 0.21, all of them
    // with probability about 0.21²⁷ ≈ 5e−19.
    expect(worstCell('round')).toBeGreaterThan(5);
  });
});

import { describe, expect, it } from 'vitest';
import { sampleMultinomial } from '../../rng/multinomial';
import { SeededRng } from '../../rng/seeded-rng';
import { shuffleInPlace } from '../../rng/shuffle';
import type { Rng } from '../../rng/types';
import { uniformInt } from '../../rng/uniform-int';
import { CliqueTreeModel } from './clique-tree-model';
import { countCells } from './factor-index';
import { buildJunctionTree } from './junction-tree';
import { levelsForGroup, sampleRows } from './sample-model';

/** An Rng whose floats are given and whose words come from a seeded generator (for the shuffle). */
function floatsThen(floats: number[]): Rng {
  const words = new SeededRng('words');
  let next = 0;
  return {
    seeded: true,
    nextUint32: () => words.nextUint32(),
    nextFloat: () => {
      if (next >= floats.length) throw new Error('script exhausted');
      return floats[next++]!;
    },
  };
}

function countsOf(levels: Uint32Array, k: number): number[] {
  const counts = new Array<number>(k).fill(0);
  for (const l of levels) counts[l]!++;
  return counts;
}

describe('levelsForGroup', () => {
  it('"round" gives exact shares without drawing when count·w/Σw are whole', () => {
    const levels = levelsForGroup(floatsThen([]), Float64Array.of(1, 2, 0, 1), 8, 'round');
    expect(countsOf(levels, 4)).toEqual([2, 4, 0, 2]);
  });

  it('"round" gives a left-over row to a level with probability ∝ its fractional part', () => {
    // Weights (1, 0, 3), one row: shares 0.25, 0, 0.75, floors 0. The uniform times the fractional
    // mass 1 walks the levels with a positive fraction: u < 0.25 → level 0, else level 2.
    const weights = Float64Array.of(1, 0, 3);
    const draw = (u: number) => levelsForGroup(floatsThen([u]), weights, 1, 'round')[0];
    expect(draw(0)).toBe(0);
    expect(draw(0.2499)).toBe(0);
    expect(draw(0.25)).toBe(2);
    expect(draw(0.99)).toBe(2);
  });

  it('"round" weighs the left-over rows by the fractional parts alone, over the mass left', () => {
    // Weights (1, 3), two rows: shares 0.5 and 1.5, floors 0 and 1, fractions 0.5 and 0.5. With
    // u = 0.4 the left-over row goes to level 0 (0.4 < 0.5), giving (1, 1); weighing by the whole
    // shares (0.5, 1.5 of 2) would give it to level 1.
    expect(countsOf(levelsForGroup(floatsThen([0.4]), Float64Array.of(1, 3), 2, 'round'), 2)).toEqual([1, 1]);
    // Weights (1, 1, 1, 1), two rows: fractions 0.5 each, mass 2. u = 0.3 → 0.6 → level 1; its
    // fraction is then spent, mass 1.5, u = 0.9 → 1.35 → past levels 0 and 2 to level 3.
    expect(
      countsOf(levelsForGroup(floatsThen([0.3, 0.9]), Float64Array.of(1, 1, 1, 1), 2, 'round'), 4),
    ).toEqual([0, 1, 0, 1]);
  });

  it('"round" never gives a row to a level of weight zero, even past the last fraction', () => {
    // Weights (0.1, 1, 0), two rows: fractions 2/11 and 9/11 (in doubles 0.18181818181818182 and
    // 0.8181818181818181). The largest uniform, 1 − 2^−53, times their sum is not used up by
    // subtracting them in turn; the row then goes to the last level with a fraction, level 1.
    const levels = levelsForGroup(floatsThen([1 - 2 ** -53]), Float64Array.of(0.1, 1, 0), 2, 'round');
    expect(countsOf(levels, 3)).toEqual([0, 2, 0]);
  });

  it('"round" never gives two left-over rows to one level', () => {
    // Five equal weights, three rows: every share is 0.6, so three distinct levels get one row each.
    const rng = new SeededRng('no replacement');
    for (let trial = 0; trial < 200; trial++) {
      const counts = countsOf(levelsForGroup(rng, Float64Array.of(1, 1, 1, 1, 1), 3, 'round'), 5);
      expect(counts.filter((c) => c === 1)).toHaveLength(3);
    }
  });

  it('"round" chooses the level of a left-over row with the right frequencies', () => {
    // Weights (1, 3), one row: level 1 with probability 3/4. Over N = 40,000 groups its count is
    // Binomial(N, 3/4): mean 30,000, sd √(N·3/16) ≈ 86.6; 6 sd (520) bounds a false failure by 1e−8,
    // and a uniform choice (mean 20,000) or the level of the largest share alone (40,000) falls far outside.
    const rng = new SeededRng('left-over frequency');
    const weights = Float64Array.of(1, 3);
    let ones = 0;
    for (let i = 0; i < 40_000; i++) ones += levelsForGroup(rng, weights, 1, 'round')[0]!;
    expect(Math.abs(ones - 30_000)).toBeLessThan(520);
  });

  it('"sample" draws a multinomial of the weights, then shuffles the rows', () => {
    const weights = Float64Array.of(0.5, 2, 1.5);
    const levels = levelsForGroup(new SeededRng('sample rule'), weights, 25, 'sample');
    const again = new SeededRng('sample rule');
    const counts = sampleMultinomial(again, 25, weights);
    const expected = new Uint32Array(25);
    let r = 0;
    counts.forEach((c, l) => {
      for (let j = 0; j < c; j++) expected[r++] = l;
    });
    shuffleInPlace(again, expected);
    expect(Array.from(levels)).toEqual(Array.from(expected));
  });

  it('draws uniform levels, one word each, when every weight is zero', () => {
    const levels = levelsForGroup(new SeededRng('zero weights'), new Float64Array(3), 6, 'round');
    const again = new SeededRng('zero weights');
    expect(Array.from(levels)).toEqual(Array.from({ length: 6 }, () => uniformInt(again, 3)));
  });

  it('shuffles the rows it rounded', () => {
    // Shares (2, 2): unshuffled the rows would read 0, 0, 1, 1 every time. Shuffled, each of the 6
    // orders is missing from 200 groups with probability (5/6)^200 ≈ 1e−16.
    const rng = new SeededRng('shuffled');
    const orders = new Set<string>();
    for (let i = 0; i < 200; i++) orders.add(levelsForGroup(rng, Float64Array.of(1, 1), 4, 'round').join());
    expect(orders.size).toBe(6);
  });
});

describe('sampleRows', () => {
  it('draws a chain attribute by attribute, each given the one before it, to within rounding', () => {
    // Chain [0,1]–[1,2], 'round' rule, n = 600. The first attribute drawn gets its counts to within
    // one; each later one is split group by group within one more per cell, so every clique's
    // counts are within 2 of the model's (a conditional taken from the wrong attributes is far off).
    const sizes = [2, 3, 2];
    const tree = buildJunctionTree(3, sizes, [
      [0, 1],
      [1, 2],
    ]);
    const model = new CliqueTreeModel(tree, sizes, 600);
    const theta = [Float64Array.of(0, 1, 2, 0.5, 0.5, -1), Float64Array.of(1.5, 0, 0, 1, -2, 0.7)];
    const marginals = model.calibrate(theta);
    const rows = sampleRows(new SeededRng('chain sample'), model, marginals, 600, 'round');
    expect(rows).toHaveLength(3);
    expect(rows.every((column) => column.length === 600)).toBe(true);
    tree.cliques.forEach((clique, i) => {
      const counts = countCells(rows, clique, sizes);
      counts.forEach((c, cell) =>
        expect(
          Math.abs(c - marginals[i]![cell]!),
          `clique ${clique.join()} cell ${cell}`,
        ).toBeLessThanOrEqual(2),
      );
    });
  });

  it('draws the leaves of a star given its centre, and a clique of three given two attributes', () => {
    // Star [0,3], [1,3], [2,3]: the centre 3 is eliminated last, so it is drawn first and every leaf
    // is drawn given it. A clique [0,1,2] with sizes (2, 3, 2): the last attribute drawn is split by
    // groups of the other two. The rounding bound grows by one per attribute drawn: within 2 on the
    // pairs of the star, within 3 on the clique of three.
    const starSizes = [2, 3, 2, 3];
    const star = buildJunctionTree(4, starSizes, [
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    expect(star.eliminationOrder.at(-1)).toBe(3);
    const triple = buildJunctionTree(3, [2, 3, 2], [[0, 1, 2]]);
    for (const [tree, sizes, bound] of [
      [star, starSizes, 2],
      [triple, [2, 3, 2], 3],
    ] as const) {
      const model = new CliqueTreeModel(tree, sizes, 1200);
      const rng = new SeededRng(`sampling ${tree.cliques.length}`);
      const theta = model.cliqueCells.map((cells) =>
        Float64Array.from({ length: cells }, () => 2 * rng.nextFloat()),
      );
      const marginals = model.calibrate(theta);
      const rows = sampleRows(rng, model, marginals, 1200, 'round');
      tree.cliques.forEach((clique, i) => {
        countCells(rows, clique, sizes).forEach((c, cell) =>
          expect(
            Math.abs(c - marginals[i]![cell]!),
            `clique ${clique.join()} cell ${cell}`,
          ).toBeLessThanOrEqual(bound),
        );
      });
    }
  });

  it('stops when aborted', () => {
    const sizes = [2, 2];
    const model = new CliqueTreeModel(buildJunctionTree(2, sizes, [[0, 1]]), sizes, 4);
    const marginals = model.calibrate(model.zeroPotentials());
    expect(() => sampleRows(new SeededRng(1), model, marginals, 4, 'round', { aborted: true })).toThrow(
      expect.objectContaining({ name: 'AbortError' }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import type { CartColumn, CartInput, CartOptions } from './cart-types';
import { CartWorkspace } from './cart-workspace';
import { fitCart, nodeClass1Proportion, predictCart, predictInSample } from './fit-cart';
import { RpartTreeGrower } from './grow-rpart-tree';

const GROW_ALL: CartOptions = { maxDepth: 30, minSplit: 2, minBucket: 1, cp: 0 };

function numericInput(columns: number[][], y: number[]): CartInput {
  return {
    n: y.length,
    y: Uint8Array.from(y),
    columns: columns.map((values) => ({ kind: 'numeric', values: Float64Array.from(values) })),
  };
}

describe('fitCart: splits as rpart chooses them', () => {
  it('splits at the midpoint of consecutive distinct values, lower class-1 side on the left', () => {
    const tree = fitCart(numericInput([[1, 2, 3, 4]], [0, 0, 1, 1]), GROW_ALL);
    expect(tree.nodeCount).toBe(3);
    expect(tree.leafCount).toBe(2);
    expect(tree.splitColumn[0]).toBe(0);
    expect(tree.threshold[0]).toBe(2.5);
    expect(tree.lessGoesLeft[0]).toBe(1);
    expect(Array.from(predictInSample(tree))).toEqual([0, 0, 1, 1]);
  });

  it('sends x < threshold right when that side has the larger class-1 proportion (rpart direction)', () => {
    const tree = fitCart(numericInput([[1, 2, 3, 4]], [1, 1, 0, 0]), GROW_ALL);
    expect(tree.threshold[0]).toBe(2.5);
    expect(tree.lessGoesLeft[0]).toBe(0);
    // Left child (node 1) holds the class-0 rows x = 3, 4.
    expect(tree.nodeClass1[tree.left[0]!]).toBe(0);
    expect(Array.from(predictInSample(tree))).toEqual([1, 1, 0, 0]);
  });

  it('takes the lowest threshold among equally good splits', () => {
    // Splits at 1.5 and 3.5 both isolate one class-0 row; their costs are the same sums in
    // another order, so rpart keeps the first one met (strict <).
    const tree = fitCart(numericInput([[1, 2, 3, 4]], [0, 1, 1, 0]), { ...GROW_ALL, maxDepth: 1 });
    expect(tree.threshold[0]).toBe(1.5);
  });

  it('takes the first column among equally good columns', () => {
    const x = [3, 1, 4, 1, 5, 9, 2, 6];
    const y = [1, 0, 1, 0, 1, 1, 0, 1];
    const tree = fitCart(numericInput([x, x.slice()], y), { ...GROW_ALL, maxDepth: 1 });
    expect(tree.splitColumn[0]).toBe(0);
    const swapped = fitCart(numericInput([x.map((v) => -v), x], y), { ...GROW_ALL, maxDepth: 1 });
    // Mirrored values give the same partition and cost: still the first column.
    expect(swapped.splitColumn[0]).toBe(0);
  });

  it('makes no zero-improvement split, even with cp < 0', () => {
    const tree = fitCart(numericInput([[1, 1, 2, 2]], [0, 1, 0, 1]), { ...GROW_ALL, cp: -1 });
    expect(tree.nodeCount).toBe(1);
    expect(Array.from(predictInSample(tree))).toEqual([0.5, 0.5, 0.5, 0.5]);
  });

  it('never splits a constant column', () => {
    const tree = fitCart(numericInput([[7, 7, 7, 7, 7, 7]], [0, 0, 0, 1, 1, 1]), GROW_ALL);
    expect(tree.nodeCount).toBe(1);
  });

  it('splits a categorical column by the best subset of levels (levels ordered by class proportion)', () => {
    // Levels a and c are all class 0, b all class 1: the best subset split is {b} vs {a, c}.
    const codes = Uint32Array.from([0, 1, 2, 0, 1, 2, 0, 1, 2]);
    const y = Uint8Array.from([0, 1, 0, 0, 1, 0, 0, 1, 0]);
    const input: CartInput = { n: 9, y, columns: [{ kind: 'categorical', codes, nLevels: 3 }] };
    const tree = fitCart(input, GROW_ALL);
    expect(tree.leafCount).toBe(2);
    const sides = Array.from(tree.levelSides.subarray(tree.levelOffset[0]!, tree.levelOffset[0]! + 3));
    expect(sides).toEqual([1, 2, 1]); // a, c left (lower class-1 proportion), b right
    expect(Array.from(predictInSample(tree))).toEqual([0, 1, 0, 0, 1, 0, 0, 1, 0]);
  });
});

describe('fitCart: rpart controls', () => {
  const rng = new SeededRng(11);
  const n = 600;
  const x1 = Array.from({ length: n }, () => rng.nextFloat());
  const x2 = Array.from({ length: n }, () => Math.floor(rng.nextFloat() * 5));
  const y = x1.map((v, i) => (rng.nextFloat() < 0.3 + 0.4 * v - 0.05 * x2[i]! ? 1 : 0));
  const input = numericInput([x1, x2], y);

  it('keeps every leaf at least minBucket rows and no node deeper than maxDepth', () => {
    const tree = fitCart(input, { maxDepth: 4, minSplit: 20, minBucket: 7, cp: -1 });
    for (let t = 0; t < tree.nodeCount; t++) {
      expect(tree.depth[t]).toBeLessThanOrEqual(4);
      if (tree.splitColumn[t]! < 0) expect(tree.nodeSize[t]).toBeGreaterThanOrEqual(7);
      else expect(tree.nodeSize[t]).toBeGreaterThanOrEqual(20);
    }
  });

  it('prunes more with a larger cp (cp is relative to the root risk)', () => {
    const leaves = [-1, 0, 0.001, 0.01, 0.05].map(
      (cp) => fitCart(input, { maxDepth: 30, minSplit: 15, minBucket: 5, cp }).leafCount,
    );
    for (let i = 1; i < leaves.length; i++) expect(leaves[i]).toBeLessThanOrEqual(leaves[i - 1]!);
    expect(leaves[0]).toBeGreaterThan(leaves[4]!);
  });

  it('keeps a split only if it reduces the misclassification count by more than cp × R(root)', () => {
    // cp = 0 collapses every subtree whose splits do not lower the misclassified count at all.
    const tree = fitCart(input, { maxDepth: 30, minSplit: 15, minBucket: 5, cp: 0 });
    for (let t = 0; t < tree.nodeCount; t++) {
      if (tree.splitColumn[t]! >= 0) expect(tree.complexity[t]).toBeGreaterThan(0);
    }
  });

  it('gives the same tree when the workspace is reused, also after a fit of another shape', () => {
    const workspace = new CartWorkspace();
    const options: CartOptions = { maxDepth: 30, minSplit: 15, minBucket: 5, cp: 0.001 };
    const first = fitCart(input, options, workspace);
    fitCart(numericInput([[1, 2, 3, 4, 5, 6, 7, 8]], [0, 1, 0, 1, 1, 1, 0, 0]), GROW_ALL, workspace);
    const again = fitCart(input, options, workspace);
    expect(Array.from(again.threshold)).toEqual(Array.from(first.threshold));
    expect(Array.from(again.leafOfRow)).toEqual(Array.from(first.leafOfRow));
    expect(Array.from(predictInSample(again))).toEqual(Array.from(predictInSample(first)));
  });

  it('relabel (permutation nulls) grows the same tree as loading the relabelled data afresh', () => {
    const codes = Uint32Array.from(x2);
    const columns: CartColumn[] = [
      { kind: 'numeric', values: Float64Array.from(x1) },
      { kind: 'categorical', codes, nLevels: 5 },
      { kind: 'numeric', values: Float64Array.from(x2) },
    ];
    const options: CartOptions = { maxDepth: 30, minSplit: 15, minBucket: 5, cp: 0.001 };
    const flipped = Uint8Array.from(y, (v, i) => (i % 3 === 0 ? 1 - v : v));
    const fresh = new CartWorkspace();
    fresh.load({ n, y: flipped, columns });
    const reused = new CartWorkspace();
    reused.load({ n, y: Uint8Array.from(y), columns });
    new RpartTreeGrower(reused).grow(options);
    reused.relabel(flipped);
    const freshCount = new RpartTreeGrower(fresh).grow(options);
    const reusedCount = new RpartTreeGrower(reused).grow(options);
    expect(reusedCount).toBe(freshCount);
    expect(Array.from(reused.nodeClass1.subarray(0, reusedCount))).toEqual(
      Array.from(fresh.nodeClass1.subarray(0, freshCount)),
    );
    // Split columns and, at internal nodes, thresholds (a leaf's threshold slot is unused).
    const splits = (ws: CartWorkspace, count: number) =>
      Array.from({ length: count }, (_, t) =>
        ws.nodeSplitColumn[t]! < 0 ? -1 : `${ws.nodeSplitColumn[t]!}:${ws.nodeThreshold[t]!}`,
      );
    expect(splits(reused, reusedCount)).toEqual(splits(fresh, freshCount));
  });

  it('predicts the training rows exactly as the in-sample propensities (numeric and categorical)', () => {
    const codes = Uint32Array.from(x2, (v, i) => (v + (y[i]! === 1 ? 1 : 0)) % 6);
    const columns: CartColumn[] = [
      { kind: 'numeric', values: Float64Array.from(x1) },
      { kind: 'categorical', codes, nLevels: 6 },
    ];
    const tree = fitCart(
      { n, y: Uint8Array.from(y), columns },
      { maxDepth: 30, minSplit: 10, minBucket: 3, cp: 0 },
    );
    expect(tree.splitColumn.some((column) => column === 1)).toBe(true);
    const predicted = predictCart(tree, [Float64Array.from(x1), codes], n);
    expect(Array.from(predicted)).toEqual(Array.from(predictInSample(tree)));
  });

  it('sends a level unseen in a node to its larger child', () => {
    const codes = Uint32Array.from([0, 0, 0, 1, 1, 1, 1, 1]);
    const tree = fitCart(
      {
        n: 8,
        y: Uint8Array.from([0, 0, 0, 1, 1, 1, 1, 1]),
        columns: [{ kind: 'categorical', codes, nLevels: 3 }],
      },
      GROW_ALL,
    );
    const larger =
      tree.nodeSize[tree.left[0]!]! >= tree.nodeSize[tree.right[0]!]! ? tree.left[0]! : tree.right[0]!;
    const expected = nodeClass1Proportion(tree, larger);
    expect(predictCart(tree, [Uint32Array.from([2, 7])], 2)[0]).toBe(expected);
    expect(predictCart(tree, [Uint32Array.from([2, 7])], 2)[1]).toBe(expected);
  });
});

describe('fitCart: adjacent doubles, as rpart handles them', () => {
  it('makes the same empty leaves as rpart when the midpoint rounds to the lower value', () => {
    // Between 1 and 1 + 2^-52 the midpoint rounds to 1, so `x < 1` sends no row left: rpart still
    // makes the split, with an empty left child, again at every depth. R 4.2.2, rpart 4.1.19:
    //   x <- c(rep(1, 10), rep(1 + 2^-52, 10)); y <- factor(rep(0:1, each = 10))
    //   f <- rpart(y ~ x, method = "class", control = rpart.control(cp = -1, minbucket = 2,
    //        minsplit = 4, maxdepth = 5, xval = 0, maxcompete = 0, maxsurrogate = 0))
    //   f$frame$n → 20 0 20 0 20 0 20 0 20 0 20; 6 leaves; predict(f, type = "prob")[, 2] all 0.5
    const x = [...Array<number>(10).fill(1), ...Array<number>(10).fill(1 + 2 ** -52)];
    const y = x.map((_, i) => (i < 10 ? 0 : 1));
    const tree = fitCart(numericInput([x], y), { cp: -1, minBucket: 2, minSplit: 4, maxDepth: 5 });
    expect(Array.from(tree.nodeSize)).toEqual([20, 0, 20, 0, 20, 0, 20, 0, 20, 0, 20]);
    expect(tree.leafCount).toBe(6);
    expect(Array.from(predictInSample(tree))).toEqual(Array<number>(20).fill(0.5));
  });
});

describe('fitCart: input checks', () => {
  it('rejects settings rpart rejects and malformed data', () => {
    const input = numericInput([[1, 2, 3]], [0, 1, 0]);
    expect(() => fitCart(input, { ...GROW_ALL, maxDepth: 31 })).toThrow(RangeError);
    expect(() => fitCart(input, { ...GROW_ALL, minBucket: 0 })).toThrow(RangeError);
    expect(() => fitCart(input, { ...GROW_ALL, cp: NaN })).toThrow(RangeError);
    expect(() => fitCart(numericInput([[1, 2, 3]], [0, 2, 0]), GROW_ALL)).toThrow(RangeError);
    expect(() => fitCart(numericInput([[1, NaN, 3]], [0, 1, 0]), GROW_ALL)).toThrow(RangeError);
  });
});

describe("rpart's altered priors are exactly 1 with unit weights", () => {
  it('fl(c0/n) + fl(c1/n) = 1 for every split of every n <= 2000 (so the weights are the counts)', () => {
    // gini.c: aprior_j = prior_j / ((prior_0 + prior_1) · freq_j) with prior_j = freq_j = c_j/n.
    let failures = 0;
    for (let n = 2; n <= 2000; n++) {
      for (let c0 = 1; c0 < n; c0++) if (c0 / n + (n - c0) / n !== 1) failures++;
    }
    expect(failures).toBe(0);
  });
});

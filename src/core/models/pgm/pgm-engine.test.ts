import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { CliqueTreeModel } from './clique-tree-model';
import {
  addBroadcast,
  addExpanded,
  addProjected,
  cellCount,
  countCells,
  expShiftedProjected,
  indexMap,
  maxProjected,
  multiplyProjected,
  projection,
  sumOnto,
  sumProjected,
} from './factor-index';
import { buildJunctionTree } from './junction-tree';
import { estimateByMirrorDescent, type Measurement } from './mirror-descent';
import { levelsForGroup, sampleRows } from './sample-model';
import { projectOntoScaledSimplex } from './simplex-projection';

/** Every assignment of the attributes, in cell order (last attribute fastest). */
function assignments(sizes: number[]): number[][] {
  const out: number[][] = [[]];
  for (const size of sizes) {
    const next: number[][] = [];
    for (const prefix of out) for (let v = 0; v < size; v++) next.push([...prefix, v]);
    out.splice(0, out.length, ...next);
  }
  return out;
}

/** The cell of `x` restricted to `attrs` in a table over attrs. */
function cellOf(x: number[], attrs: number[], sizes: number[]): number {
  return attrs.reduce((cell, a) => cell * sizes[a]! + x[a]!, 0);
}

/** Brute force: the joint p(x) ∝ exp(Σ_C θ_C(x_C)) scaled to total, and its marginal on attrs. */
function bruteMarginal(
  sizes: number[],
  cliques: number[][],
  theta: Float64Array[],
  total: number,
  attrs: number[],
): Float64Array {
  const xs = assignments(sizes);
  const weights = xs.map((x) =>
    Math.exp(cliques.reduce((s, c, i) => s + theta[i]![cellOf(x, c, sizes)]!, 0)),
  );
  const z = weights.reduce((a, b) => a + b, 0);
  const out = new Float64Array(cellCount(attrs, sizes));
  xs.forEach((x, k) => (out[cellOf(x, attrs, sizes)] += (total * weights[k]!) / z));
  return out;
}

function randomPotentials(rng: SeededRng, model: CliqueTreeModel): Float64Array[] {
  return model.cliqueCells.map((cells) =>
    Float64Array.from({ length: cells }, () => 3 * (rng.nextFloat() - 0.5)),
  );
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < actual.length; i++) {
    expect(
      Math.abs(actual[i]! - expected[i]!),
      `cell ${i}: ${actual[i]} vs ${expected[i]}`,
    ).toBeLessThanOrEqual(tolerance);
  }
}

describe('index maps and counts', () => {
  it('map each cell of a clique to its cell on a subset', () => {
    const sizes = [2, 3, 4, 2];
    const attrs = [0, 2, 3];
    const sub = [0, 3];
    const map = indexMap(attrs, sub, sizes);
    assignments([2, 4, 2]).forEach(([a, , d], cell) => expect(map[cell]).toBe(a! * 2 + d!));
    expect(() => indexMap(attrs, [1], sizes)).toThrow(/not in the clique/);
  });

  it('broadcast a table on a subset onto every cell of the clique, as the index map does', () => {
    const sizes = [2, 3, 4, 2];
    const rng = new SeededRng('broadcast');
    for (const [big, small] of [
      [
        [0, 1, 2, 3],
        [1, 3],
      ],
      [
        [0, 2, 3],
        [0, 3],
      ],
      [[1, 2], []],
      [[2], [2]],
      [[], []],
    ] as number[][][]) {
      const table = Float64Array.from({ length: cellCount(small!, sizes) }, () => rng.nextFloat());
      const start = Float64Array.from({ length: cellCount(big!, sizes) }, () => rng.nextFloat());
      const expected = Float64Array.from(start);
      addExpanded(expected, indexMap(big!, small!, sizes), table);
      const actual = Float64Array.from(start);
      addBroadcast(actual, big!, small!, table, sizes);
      expect(Array.from(actual)).toEqual(Array.from(expected));
    }
  });

  it('walk a clique onto a subset without a map: the same sums, maxima, products and broadcasts, bit for bit', () => {
    // Exact equality: each cell of the subset receives the same terms in the same order as with the map.
    const sizes = [2, 3, 4, 2, 5];
    const rng = new SeededRng('projection');
    const pairs: number[][][] = [
      [
        [0, 1, 2, 3, 4],
        [1, 3],
      ],
      [
        [0, 1, 2, 3, 4],
        [3, 4],
      ],
      [
        [0, 1, 2, 3, 4],
        [0, 1],
      ],
      [
        [0, 1, 2, 3, 4],
        [0, 4],
      ],
      [
        [0, 1, 2, 3, 4],
        [0, 1, 2, 3, 4],
      ],
      [[0, 2, 3], [2]],
      [[1, 2], []],
      [[], []],
    ];
    for (const [big, small] of pairs) {
      const walk = projection(big!, small!, sizes);
      const map = indexMap(big!, small!, sizes);
      const subCells = cellCount(small!, sizes);
      expect(walk.subCells).toBe(subCells);
      const values = Float64Array.from({ length: map.length }, () => 10 * (rng.nextFloat() - 0.5));
      values[0] = -Infinity;
      const expectedSum = sumOnto(
        values.map((v) => (v === -Infinity ? 0.25 : v)),
        map,
        new Float64Array(subCells),
      );
      const actualSum = sumProjected(
        values.map((v) => (v === -Infinity ? 0.25 : v)),
        walk,
        new Float64Array(subCells),
      );
      expect(Array.from(actualSum)).toEqual(Array.from(expectedSum));
      const top = maxProjected(values, walk, new Float64Array(subCells));
      const expectedTop = new Float64Array(subCells).fill(-Infinity);
      for (let c = 0; c < map.length; c++) expectedTop[map[c]!] = Math.max(expectedTop[map[c]!]!, values[c]!);
      expect(Array.from(top)).toEqual(Array.from(expectedTop));
      const terms = Float64Array.from(values);
      const sum = new Float64Array(subCells);
      expShiftedProjected(terms, walk, top, sum);
      const expectedSumOfTerms = new Float64Array(subCells);
      for (let c = 0; c < map.length; c++) {
        const t = expectedTop[map[c]!]!;
        const term = t === -Infinity ? 0 : Math.exp(values[c]! - t);
        expect(terms[c]).toBe(term);
        expectedSumOfTerms[map[c]!] += term;
      }
      expect(Array.from(sum)).toEqual(Array.from(expectedSumOfTerms));
      const small_ = Float64Array.from({ length: subCells }, () => rng.nextFloat());
      const product = new Float64Array(map.length);
      multiplyProjected(terms, walk, small_, product);
      for (let c = 0; c < map.length; c++) expect(product[c]).toBe(terms[c]! * small_[map[c]!]!);
      const expanded = Float64Array.from(terms);
      addExpanded(expanded, map, small_, -0.5);
      const added = Float64Array.from(terms);
      addProjected(added, walk, small_, -0.5);
      expect(Array.from(added)).toEqual(Array.from(expanded));
    }
    expect(() => projection([0, 2], [1], sizes)).toThrow(/not in the clique/);
  });

  it('count rows per cell', () => {
    const levels = [Uint32Array.from([0, 1, 1, 0]), Uint32Array.from([2, 0, 2, 2])];
    expect(Array.from(countCells(levels, [0, 1], [2, 3]))).toEqual([0, 0, 2, 1, 0, 1]);
    expect(Array.from(countCells(levels, [], [2, 3]))).toEqual([4]);
  });
});

describe('belief propagation', () => {
  // Tolerance: the marginals are sums of at most 96 terms of size <= total = 100, each exact to a few
  // ulps (about 1e−14 relative), so 1e−9 absolute leaves a wide margin and still catches any wrong message.
  const TOLERANCE = 1e-9;

  it('on a tree of pairwise cliques matches the brute-force marginals', () => {
    const sizes = [3, 2, 4, 2];
    const edges = [
      [0, 1],
      [1, 2],
      [1, 3],
    ];
    const tree = buildJunctionTree(4, sizes, edges);
    expect(tree.cliques.map((c) => c.join())).toEqual(expect.arrayContaining(['0,1', '1,2', '1,3']));
    expect(tree.cliques).toHaveLength(3);
    const model = new CliqueTreeModel(tree, sizes, 100);
    const theta = randomPotentials(new SeededRng('tree bp'), model);
    const marginals = model.calibrate(theta);
    tree.cliques.forEach((clique, i) =>
      expectClose(marginals[i]!, bruteMarginal(sizes, tree.cliques, theta, 100, clique), TOLERANCE),
    );
  });

  it('on the junction tree of a loopy graph matches brute force, and marginals outside one clique are refused', () => {
    const sizes = [2, 3, 2, 2, 3];
    const cliques = [
      [0, 1],
      [1, 2],
      [0, 2],
      [2, 3],
      [3, 4],
    ];
    const tree = buildJunctionTree(5, sizes, cliques);
    // the triangle 0-1-2 becomes one clique; every clique of the input lies inside a maximal clique
    for (const clique of cliques)
      expect(tree.cliques.some((c) => clique.every((a) => c.includes(a)))).toBe(true);
    expect(tree.cliques.map((c) => c.join()).sort()).toEqual(['0,1,2', '2,3', '3,4']);
    expect(tree.cells).toBe(12 + 4 + 6);
    const model = new CliqueTreeModel(tree, sizes, 50);
    const theta = randomPotentials(new SeededRng('junction tree bp'), model);
    const marginals = model.calibrate(theta);
    tree.cliques.forEach((clique, i) =>
      expectClose(marginals[i]!, bruteMarginal(sizes, tree.cliques, theta, 50, clique), TOLERANCE),
    );
    expectClose(
      model.marginalFromCliques(marginals, [0, 2]),
      bruteMarginal(sizes, tree.cliques, theta, 50, [0, 2]),
      TOLERANCE,
    );
    expect(() => model.marginalFromCliques(marginals, [0, 4])).toThrow(/no clique/);
    // Outside every clique: variable elimination over the subtree joining the cliques of 0, 1 and 4,
    // alone and with the reduced clique tables shared across queries.
    const shared = model.marginalsOf(marginals);
    for (const attrs of [
      [0, 4],
      [1, 3, 4],
      [0, 1, 2, 4],
    ]) {
      const expected = bruteMarginal(sizes, tree.cliques, theta, 50, attrs);
      expectClose(model.marginal(marginals, attrs), expected, TOLERANCE);
      expectClose(shared(attrs), expected, TOLERANCE);
    }
  });

  it('gives marginals across a chain of cliques from one query function, as brute force does', () => {
    // One marginalsOf function answers every query, so its cached reduced tables (a clique at the top
    // of one subtree and below the top of another) are reused across queries.
    const sizes = [3, 2, 2, 2, 2, 4];
    const cliques = [
      [0, 1, 2],
      [1, 2, 3],
      [2, 3, 4],
      [3, 4, 5],
    ];
    const tree = buildJunctionTree(sizes.length, sizes, cliques);
    const model = new CliqueTreeModel(tree, sizes, 50);
    const theta = randomPotentials(new SeededRng('chain'), model);
    const query = model.marginalsOf(model.calibrate(theta));
    const queries: number[][] = [];
    for (let a = 0; a < 6; a++)
      for (let b = a + 1; b < 6; b++) {
        queries.push([a, b]);
        for (let c = b + 1; c < 6; c++) queries.push([a, b, c]);
      }
    for (const attrs of [...queries, ...[...queries].reverse()])
      expectClose(query(attrs), bruteMarginal(sizes, tree.cliques, theta, 50, attrs), TOLERANCE);
  });

  it('stays exact with potentials far outside the range of exp and with −∞ cells', () => {
    // A chain of three cliques with potentials in ±400 (joint log-weights up to ±1200, where exp
    // overflows) and one separator cell of a leaf at −∞ (that cell's marginal must be 0, not NaN).
    // The reference factors out the largest joint log-weight before exponentiating; both sides are
    // exact to a few ulps of the total, so the same 1e−9 applies.
    const sizes = [3, 2, 3, 2];
    const tree = buildJunctionTree(4, sizes, [
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    const model = new CliqueTreeModel(tree, sizes, 100);
    const rng = new SeededRng('extreme potentials');
    const theta = model.cliqueCells.map((cells) =>
      Float64Array.from({ length: cells }, () => 800 * (rng.nextFloat() - 0.5)),
    );
    const leaf = tree.cliques.findIndex((c) => c.join() === '2,3');
    theta[leaf]![0] = -Infinity;
    theta[leaf]![1] = -Infinity; // attribute 2 at level 0 is impossible
    const xs = assignments(sizes);
    const logWeights = xs.map((x) =>
      tree.cliques.reduce((s, c, i) => s + theta[i]![cellOf(x, c, sizes)]!, 0),
    );
    const top = Math.max(...logWeights);
    const weights = logWeights.map((w) => Math.exp(w - top));
    const z = weights.reduce((a, b) => a + b, 0);
    const marginals = model.calibrate(theta);
    tree.cliques.forEach((clique, i) => {
      const expected = new Float64Array(cellCount(clique, sizes));
      xs.forEach((x, k) => (expected[cellOf(x, clique, sizes)] += (100 * weights[k]!) / z));
      expectClose(marginals[i]!, expected, TOLERANCE);
      expect(marginals[i]!.every((v) => Number.isFinite(v))).toBe(true);
    });
    expect(model.marginalFromCliques(marginals, [2])[0]).toBe(0);
    // Marginals outside the cliques, by elimination over the clique marginals, stay exact too.
    const marginalOf = model.marginalsOf(marginals);
    for (const asked of [
      [0, 3],
      [0, 2],
      [1, 3],
      [0, 2, 3],
    ]) {
      const expected = new Float64Array(cellCount(asked, sizes));
      xs.forEach((x, k) => (expected[cellOf(x, asked, sizes)] += (100 * weights[k]!) / z));
      const actual = marginalOf(asked);
      expect(actual.every((v) => Number.isFinite(v))).toBe(true);
      expectClose(actual, expected, TOLERANCE);
    }
  });

  it('keeps marginals outside the cliques finite when a separator cell is subnormal', () => {
    // Chain [0,1]–[1,2] with n = 48,842 and attribute 1 at level 0 nearly impossible: its separator
    // marginal μ_S(1 = 0) ≈ 7e−311, far below the smallest normal double: its reciprocal is +∞. The
    // query [0, 2] must still come out finite, within 1e−9 of n·p(x0, x2) computed in the log domain.
    const sizes = [2, 2, 2];
    const tree = buildJunctionTree(3, sizes, [
      [0, 1],
      [1, 2],
    ]);
    const model = new CliqueTreeModel(tree, sizes, 48_842);
    const theta = model.cliqueCells.map((cells) => new Float64Array(cells));
    const first = tree.cliques.findIndex((c) => c.join() === '0,1');
    // Cells (x0, x1 = 0) of clique [0,1]: indices 0 and 2 with attribute 1 last.
    theta[first]![0] = -725;
    theta[first]![2] = -725;
    const marginals = model.calibrate(theta);
    const separator = model.marginalFromCliques(marginals, [1]);
    expect(separator[0]!).toBeGreaterThan(0);
    expect(1 / separator[0]!).toBe(Infinity);
    const xs = assignments(sizes);
    const logWeights = xs.map((x) =>
      tree.cliques.reduce((s, c, i) => s + theta[i]![cellOf(x, c, sizes)]!, 0),
    );
    const top = Math.max(...logWeights);
    const weights = logWeights.map((w) => Math.exp(w - top));
    const z = weights.reduce((a, b) => a + b, 0);
    const expected = new Float64Array(4);
    xs.forEach((x, k) => (expected[cellOf(x, [0, 2], sizes)] += (48_842 * weights[k]!) / z));
    const actual = model.marginalsOf(marginals)([0, 2]);
    expect(actual.every((v) => Number.isFinite(v))).toBe(true);
    expectClose(actual, expected, TOLERANCE);
  });

  it('joins disconnected attributes with empty separators', () => {
    const sizes = [2, 3, 2];
    const tree = buildJunctionTree(3, sizes, [[0, 1]]);
    const model = new CliqueTreeModel(tree, sizes, 10);
    const theta = randomPotentials(new SeededRng('forest'), model);
    const marginals = model.calibrate(theta);
    tree.cliques.forEach((clique, i) =>
      expectClose(marginals[i]!, bruteMarginal(sizes, tree.cliques, theta, 10, clique), TOLERANCE),
    );
  });
});

/**
 * Projected gradient descent on the 27 cells of a 3×3×3 table, the reference for the least-squares
 * optimum: x ← Π(x − ∇L(x)/L) with Π the Euclidean projection onto {x >= 0, Σx = n} and
 * L = Σ_m max w_m · 27/|cells of m| a Lipschitz constant of ∇L (Q_mᵀQ_m is block diagonal with blocks
 * of ones of the size of each marginal cell's preimage, whose largest eigenvalue is that size). Converges to
 * the optimum of the convex problem (Beck & Teboulle 2009).
 */
function leastSquaresReference(
  sizes: number[],
  measurements: Measurement[],
  total: number,
  steps: number,
): number {
  const all = [0, 1, 2];
  const maps = measurements.map((m) => indexMap(all, m.attrs, sizes));
  const lipschitz = measurements.reduce((s, m) => s + (Math.max(...m.weight) * 27) / m.y.length, 0);
  let x: Float64Array = new Float64Array(27).fill(total / 27);
  const loss = (v: Float64Array): number =>
    measurements.reduce((s, m, k) => {
      const projected = new Float64Array(m.y.length);
      v.forEach((value, c) => (projected[maps[k]![c]!] += value));
      return s + projected.reduce((t, p, c) => t + 0.5 * m.weight[c]! * (p - m.y[c]!) ** 2, 0);
    }, 0);
  const ones = new Float64Array(27).fill(1);
  for (let step = 0; step < steps; step++) {
    const gradient = new Float64Array(27);
    measurements.forEach((m, k) => {
      const projected = new Float64Array(m.y.length);
      x.forEach((value, c) => (projected[maps[k]![c]!] += value));
      x.forEach(
        (_, c) => (gradient[c] += m.weight[maps[k]![c]!]! * (projected[maps[k]![c]!]! - m.y[maps[k]![c]!]!)),
      );
    });
    x = projectOntoScaledSimplex(
      Float64Array.from(x, (v, c) => v - gradient[c]! / lipschitz),
      ones,
      total,
    );
  }
  return loss(x);
}

describe('mirror descent', () => {
  it('reaches the least-squares optimum on a 3×3×3 domain', () => {
    const sizes = [3, 3, 3];
    const rng = new SeededRng('least squares');
    const total = 300;
    // A positive joint, its two-way marginals, plus noise of variance 25 (weight 1/25) and one-ways with weight 1/4.
    const joint = Float64Array.from({ length: 27 }, () => 0.2 + rng.nextFloat());
    const scale = total / joint.reduce((a, b) => a + b, 0);
    joint.forEach((v, c) => (joint[c] = v * scale));
    const measurements: Measurement[] = [];
    for (const attrs of [[0, 1], [0, 2], [1, 2], [0], [2]]) {
      const map = indexMap([0, 1, 2], attrs, sizes);
      const y = new Float64Array(cellCount(attrs, sizes));
      joint.forEach((v, c) => (y[map[c]!] += v));
      const variance = attrs.length === 2 ? 25 : 4;
      for (let c = 0; c < y.length; c++) y[c] += Math.sqrt(variance) * 2 * (rng.nextFloat() - 0.5) * 1.7;
      measurements.push({ attrs, y, weight: new Float64Array(y.length).fill(1 / variance) });
    }
    const model = new CliqueTreeModel(buildJunctionTree(3, sizes, [[0, 1, 2]]), sizes, total);
    const estimate = estimateByMirrorDescent(model, measurements, { iterations: 5000 });
    const reference = leastSquaresReference(sizes, measurements, total, 20_000);
    // Both solve the same convex problem; 1e−6 relative is far above the rounding of either.
    expect(Math.abs(estimate.loss - reference) / reference, `${estimate.loss} vs ${reference}`).toBeLessThan(
      1e-6,
    );
    expect(estimate.iterations).toBeLessThan(5000); // the early stop fired
  });

  it('gives the same fit from a warm start whether or not its calibrated marginals are passed in', () => {
    // startMarginals only saves a calibration: iterations, loss, potentials and marginals must be
    // identical to the last bit (Object.is through toEqual on Float64Arrays).
    const sizes = [3, 2, 3];
    const model = new CliqueTreeModel(
      buildJunctionTree(3, sizes, [
        [0, 1],
        [1, 2],
      ]),
      sizes,
      200,
    );
    const rng = new SeededRng('warm start');
    const start = randomPotentials(rng, model);
    const measurements: Measurement[] = [[0, 1], [1, 2], [0]].map((attrs) => {
      const y = Float64Array.from({ length: cellCount(attrs, sizes) }, () => 30 * rng.nextFloat());
      return { attrs, y, weight: new Float64Array(y.length).fill(0.5) };
    });
    const cold = estimateByMirrorDescent(model, measurements, { iterations: 40, start });
    const warm = estimateByMirrorDescent(model, measurements, {
      iterations: 40,
      start,
      startMarginals: model.calibrate(start),
    });
    expect(warm.iterations).toBe(cold.iterations);
    expect(warm.loss).toBe(cold.loss);
    expect(warm.theta).toEqual(cold.theta);
    expect(warm.marginals).toEqual(cold.marginals);
    expect(cold.iterations).toBeGreaterThan(1);
  });

  it('stops at the iteration limit and checks the abort signal every iteration', () => {
    const sizes = [2, 2];
    const model = new CliqueTreeModel(buildJunctionTree(2, sizes, [[0, 1]]), sizes, 10);
    const measurement: Measurement = {
      attrs: [0, 1],
      y: Float64Array.from([1, 2, 3, 4]),
      weight: new Float64Array(4).fill(1),
    };
    expect(estimateByMirrorDescent(model, [measurement], { iterations: 3 }).iterations).toBe(3);
    expect(() =>
      estimateByMirrorDescent(model, [measurement], { iterations: 3, signal: { aborted: true } }),
    ).toThrow(expect.objectContaining({ name: 'AbortError' }));
  });
});

describe('weighted projection onto the scaled simplex', () => {
  it('solves the KKT conditions: x = max(0, y − λ/w) summing to the total', () => {
    const x = projectOntoScaledSimplex(
      Float64Array.from([10, -3, 5, 1]),
      Float64Array.from([1, 1, 0.5, 2]),
      12,
    );
    // By hand: λ = 1 gives 9 + 0 + 3 + 0.5 = 12.5; λ = 1.2 gives 8.8 + 0 + 2.6 + 0.4 = 11.8;
    // on [1, 1.2] all three positive: 16 − λ(1 + 2 + 0.5) = 12 ⇒ λ = 8/7.
    const lambda = 8 / 7;
    expectClose(x, [10 - lambda, 0, 5 - 2 * lambda, 1 - lambda / 2], 1e-9);
  });
});

describe('sampling', () => {
  it('"round" gives each level the floor or the ceiling of its expected count, summing to the group size', () => {
    const rng = new SeededRng('round');
    const weights = Float64Array.from([0.3, 2.1, 0, 1.6, 0.05]);
    const total = weights.reduce((a, b) => a + b, 0);
    for (let trial = 0; trial < 50; trial++) {
      const count = 7 + trial;
      const levels = levelsForGroup(rng, weights, count, 'round');
      const counts = new Array<number>(5).fill(0);
      for (const l of levels) counts[l]!++;
      counts.forEach((c, l) => {
        const expected = (count * weights[l]!) / total;
        expect(
          c === Math.floor(expected) || c === Math.ceil(expected),
          `level ${l}: ${c} vs ${expected}`,
        ).toBe(true);
      });
    }
  });

  it('draws each attribute given its parent in the tree: the round rule reproduces the model counts', () => {
    const sizes = [2, 3];
    const model = new CliqueTreeModel(buildJunctionTree(2, sizes, [[0, 1]]), sizes, 600);
    const theta = [Float64Array.from([0, 1, 2, 0.5, 0.5, -1])];
    const marginals = model.calibrate(theta);
    const rows = sampleRows(new SeededRng('tree sample'), model, marginals, 600, 'round');
    const counts = countCells(rows, [0, 1], sizes);
    // The first attribute drawn gets its counts to within one; each group's split within one more per cell.
    for (let c = 0; c < 6; c++)
      expect(Math.abs(counts[c]! - marginals[0]![c]!), `cell ${c}`).toBeLessThanOrEqual(2);
  });
});

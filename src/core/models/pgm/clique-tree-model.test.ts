import { describe, expect, it } from 'vitest';
import { CliqueTreeModel } from './clique-tree-model';
import { buildJunctionTree, type JunctionTree } from './junction-tree';

/** Cliques [0,1] (2×3 cells) and [1,2] (3×2) joined on attribute 1: a chain of two. */
function chain(): CliqueTreeModel {
  return new CliqueTreeModel(
    buildJunctionTree(
      3,
      [2, 3, 2],
      [
        [0, 1],
        [1, 2],
      ],
    ),
    [2, 3, 2],
    12,
  );
}

describe('CliqueTreeModel', () => {
  it('is uniform at zero potentials: every cell holds total / cells', () => {
    const model = chain();
    expect(model.cliques).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(model.cliqueCells).toEqual([6, 6]);
    const marginals = model.calibrate(model.zeroPotentials());
    for (const m of marginals) expect(Array.from(m)).toEqual(new Array<number>(6).fill(2));
  });

  it('calibrates a product of two independent cliques to its closed form', () => {
    // θ on [0,1] only through attribute 0, θ on [1,2] only through attribute 2: p factorises as
    // p(x0)·(1/3)·p(x2) with p(x0) ∝ (1, e) and p(x2) ∝ (e², 1).
    const model = chain();
    const e = Math.E;
    const theta = [Float64Array.of(0, 0, 0, 1, 1, 1), Float64Array.of(2, 0, 2, 0, 2, 0)];
    const marginals = model.calibrate(theta);
    const p0 = [1 / (1 + e), e / (1 + e)];
    const p2 = [(e * e) / (e * e + 1), 1 / (e * e + 1)];
    for (let x0 = 0; x0 < 2; x0++)
      for (let x1 = 0; x1 < 3; x1++) expect(marginals[0]![x0 * 3 + x1]!).toBeCloseTo((12 * p0[x0]!) / 3, 12);
    for (let x1 = 0; x1 < 3; x1++)
      for (let x2 = 0; x2 < 2; x2++) expect(marginals[1]![x1 * 2 + x2]!).toBeCloseTo((12 * p2[x2]!) / 3, 12);
    // Into given arrays, which it returns.
    const into = model.zeroPotentials();
    expect(model.calibrate(theta, into)).toBe(into);
    expect(into).toEqual(marginals);
    // Across the two cliques: p(x0, x2) = p(x0)·p(x2).
    const across = model.marginal(marginals, [0, 2]);
    for (let x0 = 0; x0 < 2; x0++)
      for (let x2 = 0; x2 < 2; x2++) expect(across[x0 * 2 + x2]!).toBeCloseTo(12 * p0[x0]! * p2[x2]!, 12);
  });

  it('finds the smallest clique holding a set of attributes', () => {
    // Cliques [0,1,2] (2·2·3 = 12 cells) and [2,3] (3·5 = 15): {2} is in both, the smaller wins.
    const model = new CliqueTreeModel(
      buildJunctionTree(
        4,
        [2, 2, 3, 5],
        [
          [0, 1, 2],
          [2, 3],
        ],
      ),
      [2, 2, 3, 5],
      1,
    );
    expect(model.cliques).toEqual([
      [0, 1, 2],
      [2, 3],
    ]);
    expect(model.cliqueContaining([2])).toBe(0);
    expect(model.cliqueContaining([3])).toBe(1);
    expect(model.cliqueContaining([2, 3])).toBe(1);
    expect(model.cliqueContaining([])).toBe(0);
    expect(model.cliqueContaining([1, 3])).toBe(-1);
    const reversed = new CliqueTreeModel(
      buildJunctionTree(
        4,
        [5, 3, 2, 2],
        [
          [0, 1],
          [1, 2, 3],
        ],
      ),
      [5, 3, 2, 2],
      1,
    );
    expect(reversed.cliques).toEqual([
      [1, 2, 3],
      [0, 1],
    ]);
    expect(reversed.cliqueContaining([1])).toBe(0);
  });

  it('takes the smallest clique holding the attributes wherever it is listed, the first on a tie', () => {
    // Cliques [0,1,2] (2·2·3 = 12 cells) and [2,3] (3·2 = 6), listed largest first.
    const tree: JunctionTree = {
      cliques: [
        [0, 1, 2],
        [2, 3],
      ],
      edges: [{ a: 0, b: 1, separator: [2] }],
      eliminationOrder: [3, 0, 1, 2],
      cells: 18,
    };
    expect(new CliqueTreeModel(tree, [2, 2, 3, 2], 1).cliqueContaining([2])).toBe(1);
    // With sizes (1, 2, 3, 2) both have 6 cells: the first listed is taken.
    expect(new CliqueTreeModel(tree, [1, 2, 3, 2], 1).cliqueContaining([2])).toBe(0);
  });

  it('normalises the root clique by its largest log-potential, so exp never overflows', () => {
    // One clique, θ = (800, 0): exp(800) is +∞ in doubles, exp(0 − 800) is 0, so μ = (n, 0).
    const model = new CliqueTreeModel(buildJunctionTree(1, [2], [[0]]), [2], 7);
    expect(Array.from(model.calibrate([Float64Array.of(800, 0)])[0]!)).toEqual([7, 0]);
  });

  it('joins only the cliques on the paths between the ones asked about', () => {
    // Root A = [0,1] with children E = [0,5] and B = [1,2]; B has children C = [2,3] and D = [2,4].
    // [3, 4] lies in no clique: the subtree is B, C, D. A and E are outside it; a table of E (a
    // branch off an ancestor) joined as well would multiply the answer by n.
    const sizes = [2, 2, 3, 2, 2, 2];
    const tree: JunctionTree = {
      cliques: [
        [0, 1],
        [0, 5],
        [1, 2],
        [2, 3],
        [2, 4],
      ],
      edges: [
        { a: 0, b: 1, separator: [0] },
        { a: 0, b: 2, separator: [1] },
        { a: 2, b: 3, separator: [2] },
        { a: 2, b: 4, separator: [2] },
      ],
      eliminationOrder: [5, 0, 1, 3, 4, 2],
      cells: 4 + 4 + 6 + 6 + 6,
    };
    const model = new CliqueTreeModel(tree, sizes, 20);
    // θ_C depends on x3 and θ_D on x4, each through x2: p(x3, x4) = Σ_x2 p(x2) p(x3|x2) p(x4|x2).
    const theta = model.zeroPotentials();
    theta[3] = Float64Array.of(0, 1, 1, 0, 0.5, 0.5); // [2,3]: x2 = 0 favours x3 = 1, x2 = 1 favours x3 = 0
    theta[4] = Float64Array.of(1, 0, 0, 2, 0, 0); // [2,4]
    const marginals = model.calibrate(theta);
    const expected = new Float64Array(4);
    let z = 0;
    for (let x2 = 0; x2 < 3; x2++)
      for (let x3 = 0; x3 < 2; x3++)
        for (let x4 = 0; x4 < 2; x4++) {
          const w = Math.exp(theta[3]![x2 * 2 + x3]! + theta[4]![x2 * 2 + x4]!);
          expected[x3 * 2 + x4] += w;
          z += w;
        }
    const actual = model.marginal(marginals, [3, 4]);
    for (let c = 0; c < 4; c++) expect(actual[c]!).toBeCloseTo((20 * expected[c]!) / z, 10);
  });

  it('broadcasts a table on part of a clique onto all of its cells', () => {
    const model = chain();
    // A table on attribute 1 (3 levels) onto clique [0,1]: cell (x0, x1) takes its value at x1.
    expect(Array.from(model.expandOnto(0, [1], Float64Array.of(5, 6, 7)))).toEqual([5, 6, 7, 5, 6, 7]);
    expect(Array.from(model.expandOnto(1, [2], Float64Array.of(1, 2)))).toEqual([1, 2, 1, 2, 1, 2]);
  });

  it('refuses a tree whose cliques are not connected, and attributes in no clique', () => {
    const broken: JunctionTree = {
      cliques: [[0], [1]],
      edges: [],
      eliminationOrder: [0, 1],
      cells: 4,
    };
    expect(() => new CliqueTreeModel(broken, [2, 2], 1)).toThrow('the junction tree is not connected');
    const partial: JunctionTree = {
      cliques: [[0], [1]],
      edges: [{ a: 0, b: 1, separator: [] }],
      eliminationOrder: [0, 1],
      cells: 4,
    };
    const model = new CliqueTreeModel(partial, [2, 2, 2], 1);
    const marginals = model.calibrate(model.zeroPotentials());
    expect(() => model.marginal(marginals, [0, 2])).toThrow('attribute 2 is in no clique of the model');
    expect(() => model.marginalFromCliques(marginals, [0, 1])).toThrow(
      'no clique of the model contains attributes [0, 1]',
    );
    // Independent cliques: p(x0, x1) = p(x0)·p(x1) = 1/4 each.
    expect(Array.from(model.marginal(marginals, [0, 1]))).toEqual([0.25, 0.25, 0.25, 0.25]);
  });
});

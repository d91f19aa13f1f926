import { describe, expect, it } from 'vitest';
import { buildJunctionTree, junctionTreeCells, type JunctionTree } from './junction-tree';

/** Running intersection: the cliques holding any one attribute are joined by edges among themselves. */
function expectRunningIntersection(tree: JunctionTree, d: number): void {
  for (let a = 0; a < d; a++) {
    const holding = tree.cliques.map((c, i) => (c.includes(a) ? i : -1)).filter((i) => i >= 0);
    const reached = new Set([holding[0]!]);
    for (let grown = true; grown;) {
      grown = false;
      for (const { a: x, b: y } of tree.edges) {
        if (!holding.includes(x) || !holding.includes(y)) continue;
        if (reached.has(x) !== reached.has(y)) {
          reached.add(x);
          reached.add(y);
          grown = true;
        }
      }
    }
    expect(reached.size, `attribute ${a}`).toBe(holding.length);
  }
}

describe('buildJunctionTree', () => {
  it('eliminates the attribute with the smallest elimination clique first', () => {
    // Chain 0–1–2 with sizes 2, 3, 4: eliminating 0 costs 2·3 = 6 cells, 1 costs 3·2·4 = 24, 2 costs
    // 4·3 = 12, so 0 goes first; then 1 and 2 cost 3·4 = 12 each (a tie, to the lower, 1), then 2.
    const tree = buildJunctionTree(
      3,
      [2, 3, 4],
      [
        [0, 1],
        [1, 2],
      ],
    );
    expect(tree.eliminationOrder).toEqual([0, 1, 2]);
    expect(tree.cliques).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(tree.edges).toEqual([{ a: 0, b: 1, separator: [1] }]);
    expect(tree.cells).toBe(6 + 12);
    expect(
      junctionTreeCells(
        3,
        [2, 3, 4],
        [
          [0, 1],
          [1, 2],
        ],
      ),
    ).toBe(18);
  });

  it('breaks a tie of cells towards the lowest attribute and keeps clique attributes ascending', () => {
    // Chain 2–1–0 with equal sizes: 0 and 2 both cost 4 cells; 0 is eliminated first.
    const tree = buildJunctionTree(
      3,
      [2, 2, 2],
      [
        [2, 1],
        [1, 0],
      ],
    );
    expect(tree.eliminationOrder).toEqual([0, 1, 2]);
    expect(tree.cliques).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });

  it('triangulates a 4-cycle into two triangles joined on a chord', () => {
    // Cycle 0–1–2–3–0 with sizes 2, 5, 2, 5: eliminating 0 or 2 costs 2·5·5 = 50, 1 or 3 costs
    // 5·2·2 = 20; 1 goes first, adding the chord 0–2, leaving the triangle {0, 2, 3}.
    const tree = buildJunctionTree(
      4,
      [2, 5, 2, 5],
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [0, 3],
      ],
    );
    expect(tree.eliminationOrder[0]).toBe(1);
    expect(tree.cliques).toEqual([
      [0, 1, 2],
      [0, 2, 3],
    ]);
    expect(tree.edges).toEqual([{ a: 0, b: 1, separator: [0, 2] }]);
    expect(tree.cells).toBe(20 + 20);
  });

  it('keeps attributes no clique names, joined by empty separators', () => {
    // Attribute 2 alone costs 4 cells, less than the 6 of 0 or 1: it is eliminated first.
    const tree = buildJunctionTree(3, [2, 3, 4], [[0, 1]]);
    expect(tree.eliminationOrder).toEqual([2, 0, 1]);
    expect(tree.cliques).toEqual([[2], [0, 1]]);
    expect(tree.edges).toEqual([{ a: 0, b: 1, separator: [] }]);
    expect(tree.cells).toBe(6 + 4);
    const none = buildJunctionTree(2, [3, 4], []);
    expect(none.cliques).toEqual([[0], [1]]);
    expect(none.edges).toHaveLength(1);
    expect(none.cells).toBe(7);
  });

  it('joins the cliques by their largest separators, so every attribute’s cliques stay connected', () => {
    // A star of triangles around the edge {1, 2} plus a pendant clique on 3: a spanning tree that
    // took a zero or one-attribute separator where a two-attribute one exists breaks the property.
    const cases: [number, number[], number[][]][] = [
      [
        5,
        [2, 2, 2, 2, 2],
        [
          [0, 1, 2],
          [1, 2, 3],
          [1, 2, 4],
          [3, 4],
        ],
      ],
      [
        6,
        [3, 2, 2, 2, 2, 4],
        [
          [0, 1, 2],
          [1, 2, 3],
          [2, 3, 4],
          [3, 4, 5],
        ],
      ],
      [
        6,
        [2, 3, 2, 3, 2, 3],
        [
          [0, 1],
          [1, 2],
          [2, 0],
          [2, 3],
          [3, 4],
          [4, 5],
          [5, 3],
        ],
      ],
    ];
    for (const [d, sizes, cliques] of cases) {
      const tree = buildJunctionTree(d, sizes, cliques);
      expect(tree.edges).toHaveLength(tree.cliques.length - 1);
      for (const clique of cliques)
        expect(tree.cliques.some((c) => clique.every((a) => c.includes(a)))).toBe(true);
      // No maximal clique lies inside another.
      for (const c of tree.cliques)
        expect(tree.cliques.filter((o) => c.every((a) => o.includes(a)))).toHaveLength(1);
      for (const { a, b, separator } of tree.edges)
        expect(separator).toEqual(tree.cliques[a]!.filter((x) => tree.cliques[b]!.includes(x)));
      expect(new Set(tree.eliminationOrder).size).toBe(d);
      expectRunningIntersection(tree, d);
    }
  });
});

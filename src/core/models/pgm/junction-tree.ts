import { cellCount } from './factor-index';

/**
 * A junction tree of a model over d attributes: maximal cliques of a triangulation of the graph whose
 * edges join the attributes of each given clique, joined into a tree by a maximum spanning tree on
 * separator sizes (so every attribute's cliques form a connected subtree: the running intersection
 * property that makes belief propagation exact; Koller & Friedman 2009, §10.4).
 */
export interface JunctionTree {
  /** Maximal cliques, attributes ascending. */
  cliques: number[][];
  /** Tree edges [i, j] between cliques, with their separators (attributes ascending). */
  edges: { a: number; b: number; separator: number[] }[];
  /** The order in which the greedy triangulation eliminated the attributes. */
  eliminationOrder: number[];
  /** Σ cells of the maximal cliques: the size of the model. */
  cells: number;
}

/**
 * Greedy elimination: repeatedly eliminate the attribute whose elimination clique (it and its current
 * neighbours) has the fewest cells, ties to the lowest attribute, joining its neighbours; the
 * elimination cliques that are not inside another are the maximal cliques of the triangulated graph.
 * Every attribute is in the model even when no clique names it. Cost O(d² · d) plus the clique sizes.
 */
export function buildJunctionTree(
  d: number,
  sizes: readonly number[],
  cliques: readonly number[][],
): JunctionTree {
  const neighbours = Array.from({ length: d }, () => new Set<number>());
  for (const clique of cliques) {
    for (const a of clique) for (const b of clique) if (a !== b) neighbours[a]!.add(b);
  }
  const eliminated = new Array<boolean>(d).fill(false);
  const order: number[] = [];
  const eliminationCliques: number[][] = [];
  for (let step = 0; step < d; step++) {
    let best = -1;
    let bestCells = Infinity;
    for (let v = 0; v < d; v++) {
      if (eliminated[v]) continue;
      let cells = sizes[v]!;
      for (const u of neighbours[v]!) cells *= sizes[u]!;
      if (cells < bestCells) {
        best = v;
        bestCells = cells;
      }
    }
    const around = [...neighbours[best]!];
    eliminationCliques.push([best, ...around].sort((x, y) => x - y));
    for (const u of around) {
      neighbours[u]!.delete(best);
      for (const w of around) if (w !== u) neighbours[u]!.add(w);
    }
    eliminated[best] = true;
    order.push(best);
  }
  const maximal = eliminationCliques.filter(
    (clique, i) =>
      !eliminationCliques.some(
        (other, j) =>
          j !== i &&
          other.length >= clique.length &&
          clique.every((a) => other.includes(a)) &&
          (other.length > clique.length || j < i),
      ),
  );
  const edges = maximumSpanningTree(maximal);
  const cells = maximal.reduce((total, clique) => total + cellCount(clique, sizes), 0);
  return { cliques: maximal, edges, eliminationOrder: order, cells };
}

/** Kruskal's algorithm on separator sizes (largest first, ties by index); zero-size separators join components. */
function maximumSpanningTree(cliques: number[][]): JunctionTree['edges'] {
  const candidates: { a: number; b: number; separator: number[] }[] = [];
  for (let a = 0; a < cliques.length; a++) {
    for (let b = a + 1; b < cliques.length; b++) {
      candidates.push({ a, b, separator: cliques[a]!.filter((x) => cliques[b]!.includes(x)) });
    }
  }
  candidates.sort((x, y) => y.separator.length - x.separator.length);
  const parent = cliques.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const edges: JunctionTree['edges'] = [];
  for (const candidate of candidates) {
    const ra = find(candidate.a);
    const rb = find(candidate.b);
    if (ra === rb) continue;
    parent[ra] = rb;
    edges.push(candidate);
  }
  return edges;
}

/** Cells of the junction tree the cliques would give (the model size AIM limits), without building maps. */
export function junctionTreeCells(d: number, sizes: readonly number[], cliques: readonly number[][]): number {
  return buildJunctionTree(d, sizes, cliques).cells;
}

import {
  addProjected,
  cellCount,
  divideProjected,
  expShiftedProjected,
  maxProjected,
  multiplyProjected,
  projection,
  sumProjected,
  type Projection,
} from './factor-index';
import { eliminateToMarginal, type Factor } from './variable-elimination';

import type { JunctionTree } from './junction-tree';

/**
 * A distribution over d discrete attributes given by log-potentials θ_C on the maximal cliques of a
 * junction tree, p(x) ∝ exp(Σ_C θ_C(x_C)), scaled to a public total n (the model's row count).
 * `calibrate` runs sum-product belief propagation on the tree in the log domain (Koller & Friedman
 * 2009, §10.2: an upward pass from the leaves to the root, then a downward pass), which gives every
 * clique's exact marginal because the tree has the running intersection property. The walks between
 * cliques and their separators (factor-index.ts `projection`) are built once here and reused by every
 * calibration.
 */
export class CliqueTreeModel {
  readonly sizes: readonly number[];
  readonly total: number;
  readonly cliques: number[][];
  readonly cliqueCells: number[];
  readonly eliminationOrder: number[];
  /** Cliques in breadth-first order from clique 0; parent[order[0]] = −1. */
  private readonly order: number[];
  private readonly parent: number[];
  private readonly children: number[][];
  /** For clique i ≠ root: its cells onto its separator with its parent. */
  private readonly toParentSeparator: Projection[] = [];
  /** For clique i ≠ root: its parent's cells onto the same separator. */
  private readonly parentToSeparator: Projection[] = [];
  private readonly upward: Float64Array[] = [];
  /** For clique i ≠ root: the separator's marginal, then its ratio to the kept terms' sums. */
  private readonly downward: Float64Array[] = [];
  /** For clique i ≠ root, per separator cell: the largest upward belief and the sum of exp(β − largest). */
  private readonly separatorTop: Float64Array[] = [];
  private readonly separatorSum: Float64Array[] = [];
  /** Per clique: its upward log-belief, then (non-root) the kept terms exp(β_i(x) − t_s). */
  private readonly beliefs: Float64Array[];

  constructor(tree: JunctionTree, sizes: readonly number[], total: number) {
    this.sizes = sizes;
    this.total = total;
    this.cliques = tree.cliques;
    this.eliminationOrder = tree.eliminationOrder;
    this.cliqueCells = tree.cliques.map((clique) => cellCount(clique, sizes));
    const m = tree.cliques.length;
    const adjacent = Array.from({ length: m }, () => [] as { other: number; separator: number[] }[]);
    for (const edge of tree.edges) {
      adjacent[edge.a]!.push({ other: edge.b, separator: edge.separator });
      adjacent[edge.b]!.push({ other: edge.a, separator: edge.separator });
    }
    this.parent = new Array<number>(m).fill(-1);
    this.children = Array.from({ length: m }, () => []);
    this.order = [0];
    const seen = new Array<boolean>(m).fill(false);
    seen[0] = true;
    for (let head = 0; head < this.order.length; head++) {
      const i = this.order[head]!;
      for (const { other, separator } of adjacent[i]!) {
        if (seen[other]) continue;
        seen[other] = true;
        this.parent[other] = i;
        this.children[i]!.push(other);
        this.order.push(other);
        this.toParentSeparator[other] = projection(tree.cliques[other]!, separator, sizes);
        this.parentToSeparator[other] = projection(tree.cliques[i]!, separator, sizes);
        const separatorCells = cellCount(separator, sizes);
        this.upward[other] = new Float64Array(separatorCells);
        this.downward[other] = new Float64Array(separatorCells);
        this.separatorTop[other] = new Float64Array(separatorCells);
        this.separatorSum[other] = new Float64Array(separatorCells);
      }
    }
    if (this.order.length !== m) throw new Error('the junction tree is not connected');
    this.beliefs = this.cliqueCells.map((cells) => new Float64Array(cells));
  }

  /** Zero log-potentials (the uniform distribution), one array per clique. */
  zeroPotentials(): Float64Array[] {
    return this.cliqueCells.map((cells) => new Float64Array(cells));
  }

  /**
   * Sum-product on the tree: writes each clique's marginal, scaled to `total`, into `marginals`
   * (allocated when absent) and returns them. Upward, from the leaves: clique i's belief
   * β_i = θ_i + Σ_children m_c (log domain) and its message m_i(s) = log Σ_{x→s} exp β_i(x), computed
   * as t_s + log Σ exp(β_i(x) − t_s) with t_s the largest β_i(x) of separator cell s; the terms
   * exp(β_i(x) − t_s) are kept. Downward, from the root: μ_root = n · exp β_root / Σ exp β_root, and
   * for a child, μ_i(x) = μ_S(s) · exp(β_i(x) − m_i(s)) (its conditional given the separator times the
   * separator's marginal, summed from the parent's; Koller & Friedman 2009, §10.3), which reuses the kept
   * terms. One exp per cell and one log per separator cell; no allocation.
   * Cost O(Σ cells × (1 + neighbours)) per call.
   */
  calibrate(theta: readonly Float64Array[], marginals?: Float64Array[]): Float64Array[] {
    const out = marginals ?? this.cliqueCells.map((cells) => new Float64Array(cells));
    for (let k = this.order.length - 1; k >= 1; k--) {
      const i = this.order[k]!;
      const terms = this.beliefs[i]!;
      this.upwardBelief(i, theta[i]!, terms);
      const walk = this.toParentSeparator[i]!;
      const top = maxProjected(terms, walk, this.separatorTop[i]!);
      const sum = this.separatorSum[i]!;
      const message = this.upward[i]!;
      expShiftedProjected(terms, walk, top, sum);
      for (let s = 0; s < message.length; s++)
        message[s] = top[s] === -Infinity ? -Infinity : top[s]! + Math.log(sum[s]!);
    }
    const rootIndex = this.order[0]!;
    const root = this.beliefs[rootIndex]!;
    this.upwardBelief(rootIndex, theta[rootIndex]!, root);
    let top = -Infinity;
    for (let c = 0; c < root.length; c++) if (root[c]! > top) top = root[c]!;
    const rootMarginal = out[rootIndex]!;
    let sum = 0;
    for (let c = 0; c < root.length; c++) {
      const term = Math.exp(root[c]! - top);
      rootMarginal[c] = term;
      sum += term;
    }
    const scale = this.total / sum;
    for (let c = 0; c < root.length; c++) rootMarginal[c] = rootMarginal[c]! * scale;
    for (let k = 1; k < this.order.length; k++) {
      const i = this.order[k]!;
      // ratio(s) = μ_S(s) / Σ_{x→s} exp(β_i(x) − t_s); μ_S from the parent's marginal.
      const ratio = sumProjected(out[this.parent[i]!]!, this.parentToSeparator[i]!, this.downward[i]!);
      const sumOfTerms = this.separatorSum[i]!;
      for (let s = 0; s < ratio.length; s++) ratio[s] = sumOfTerms[s]! > 0 ? ratio[s]! / sumOfTerms[s]! : 0;
      multiplyProjected(this.beliefs[i]!, this.toParentSeparator[i]!, ratio, out[i]!);
    }
    return out;
  }

  /** belief = θ_i + the upward messages of i's children, each broadcast onto i's cells. */
  private upwardBelief(i: number, theta: Float64Array, belief: Float64Array): void {
    belief.set(theta);
    for (const child of this.children[i]!)
      addProjected(belief, this.parentToSeparator[child]!, this.upward[child]!);
  }

  /** The index of the smallest clique containing every attribute of `attrs`, or −1 when none does. */
  cliqueContaining(attrs: readonly number[]): number {
    let best = -1;
    for (let i = 0; i < this.cliques.length; i++) {
      if (!attrs.every((a) => this.cliques[i]!.includes(a))) continue;
      if (best < 0 || this.cliqueCells[i]! < this.cliqueCells[best]!) best = i;
    }
    return best;
  }

  /**
   * The marginal on any `attrs` (ascending) of the calibrated model: projected from the smallest
   * clique containing them, or else by variable elimination over the smallest subtree of cliques
   * covering them, where p(x) = Π_C μ_C / Π_S μ_S (the junction-tree factorisation; cliques outside
   * the subtree sum out to its separators). Cost O(cells of the subtree's factors and their joins).
   * For many marginals of one calibration, `marginalsOf` reuses the reduced clique tables.
   */
  marginal(marginals: readonly Float64Array[], attrs: readonly number[]): Float64Array {
    return this.marginalsOf(marginals)(attrs);
  }

  /**
   * A function giving `marginal(marginals, attrs)` for any attrs. Over the subtree joining the
   * attributes, p(x) = μ_R Π_{C ≠ R} μ_C / μ_{S(C)} with R the subtree's top clique and S(C) the
   * separator of C with its parent. An attribute of C that is neither asked for nor in a separator
   * of C with a neighbour in the subtree occurs in no other clique of the subtree (running
   * intersection), so it is summed out of μ_C first, and below the top clique the reduced table is
   * divided by μ_S(C) (0 where μ_S is 0, where every μ_C term is 0 too; a division, so every entry
   * stays at most 1 even where μ_S is subnormal);
   * variable elimination then joins only these tables. Each is computed at most once per function
   * (the calibrated marginals must not change while it is used).
   */
  marginalsOf(marginals: readonly Float64Array[]): (attrs: readonly number[]) => Float64Array {
    const reducedTables = new Map<string, Factor>();
    const separators: (Float64Array | undefined)[] = [];
    return (attrs) => {
      if (this.cliqueContaining(attrs) >= 0) return this.marginalFromCliques(marginals, attrs);
      const chosen = new Set<number>();
      for (const a of attrs) {
        let best = -1;
        for (let i = 0; i < this.cliques.length; i++) {
          if (this.cliques[i]!.includes(a) && (best < 0 || this.cliqueCells[i]! < this.cliqueCells[best]!))
            best = i;
        }
        if (best < 0) throw new Error(`attribute ${a} is in no clique of the model`);
        chosen.add(best);
      }
      const subtree = this.steinerSubtree(chosen);
      const asked = new Set(attrs);
      const factors: Factor[] = [];
      for (const i of subtree) {
        const needed = new Set<number>();
        const p = this.parent[i]!;
        const hasParent = p >= 0 && subtree.has(p);
        if (hasParent) for (const a of this.separatorOf(i)) needed.add(a);
        for (const child of this.children[i]!)
          if (subtree.has(child)) for (const a of this.separatorOf(child)) needed.add(a);
        const keep = this.cliques[i]!.filter((a) => asked.has(a) || needed.has(a));
        const key = `${i}${hasParent ? '|' : ':'}${keep.join()}`;
        let reduced = reducedTables.get(key);
        if (!reduced) {
          const whole = keep.length === this.cliques[i]!.length;
          const values = whole
            ? hasParent
              ? Float64Array.from(marginals[i]!)
              : marginals[i]!
            : sumProjected(
                marginals[i]!,
                projection(this.cliques[i]!, keep, this.sizes),
                new Float64Array(cellCount(keep, this.sizes)),
              );
          // Below the top clique: the conditional μ_C / μ_S(C), S(C) ⊂ keep (every entry ≤ 1).
          if (hasParent)
            divideProjected(
              values,
              projection(keep, this.separatorOf(i), this.sizes),
              this.parentSeparator(marginals, i, separators),
              values,
            );
          reduced = { attrs: keep, values };
          reducedTables.set(key, reduced);
        }
        factors.push(reduced);
      }
      return eliminateToMarginal(factors, attrs, this.sizes);
    };
  }

  /** μ_S on clique i's separator with its parent, computed once per cache. */
  private parentSeparator(
    marginals: readonly Float64Array[],
    i: number,
    cache: (Float64Array | undefined)[],
  ): Float64Array {
    let separator = cache[i];
    if (!separator) {
      separator = sumProjected(
        marginals[i]!,
        this.toParentSeparator[i]!,
        new Float64Array(this.upward[i]!.length),
      );
      cache[i] = separator;
    }
    return separator;
  }

  /** A table over `attrs` (a subset of clique i) broadcast onto the clique's cells. */
  expandOnto(i: number, attrs: readonly number[], values: Float64Array): Float64Array {
    const out = new Float64Array(this.cliqueCells[i]!);
    addProjected(out, projection(this.cliques[i]!, attrs, this.sizes), values);
    return out;
  }

  /** The separator of clique i with its parent (attributes ascending). */
  private separatorOf(i: number): number[] {
    const parentClique = this.cliques[this.parent[i]!]!;
    return this.cliques[i]!.filter((a) => parentClique.includes(a));
  }

  /** The cliques on the tree paths between the chosen cliques (the smallest subtree holding them all). */
  private steinerSubtree(chosen: Set<number>): Set<number> {
    const below = new Array<number>(this.cliques.length).fill(0);
    for (let k = this.order.length - 1; k >= 0; k--) {
      const i = this.order[k]!;
      if (chosen.has(i)) below[i]!++;
      const p = this.parent[i]!;
      if (p >= 0) below[p]! += below[i]!;
    }
    const total = chosen.size;
    const subtree = new Set<number>();
    // Every clique with some but not all chosen cliques below it is on a path; the deepest clique
    // with all of them below is where those paths meet.
    let meeting = this.order[0]!;
    for (const i of this.order) {
      if (below[i]! > 0 && below[i]! < total) subtree.add(i);
      if (below[i] === total) meeting = i;
    }
    subtree.add(meeting);
    return subtree;
  }

  /** The marginal on `attrs` (ascending) of calibrated clique marginals; throws when no clique contains them. */
  marginalFromCliques(marginals: readonly Float64Array[], attrs: readonly number[]): Float64Array {
    const i = this.cliqueContaining(attrs);
    if (i < 0) throw new Error(`no clique of the model contains attributes [${attrs.join(', ')}]`);
    return sumProjected(
      marginals[i]!,
      projection(this.cliques[i]!, attrs, this.sizes),
      new Float64Array(cellCount(attrs, this.sizes)),
    );
  }
}

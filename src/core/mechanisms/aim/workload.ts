import { cellCount } from '../../models/pgm/factor-index';

/** A marginal query: attributes ascending. */
export type Clique = number[];

/** The workload as planned from public facts: the marginals kept, those dropped, and the problems. */
export interface WorkloadPlan {
  workload: Clique[];
  /** Marginals of the workload with more than maxCells cells, left out. */
  dropped: Clique[];
  problems: string[];
}

/** All k-subsets of 0 … d − 1 in lexicographic order. */
export function combinations(d: number, k: number): Clique[] {
  const out: Clique[] = [];
  const current: number[] = [];
  const extend = (start: number): void => {
    if (current.length === k) {
      out.push([...current]);
      return;
    }
    for (let a = start; a < d; a++) {
      current.push(a);
      extend(a + 1);
      current.pop();
    }
  };
  extend(0);
  return out;
}

/**
 * The workload: the marginals named in `text` ("a,b,c; d,e": sets of column names separated by ";"),
 * or when it is empty all `degree`-way marginals (all columns when there are fewer). Marginals with
 * more than `maxCells` cells are dropped (AIM paper §5; private-pgm `mechanisms/aim.py`).
 */
export function planWorkload(
  names: readonly string[],
  sizes: readonly number[],
  degree: number,
  maxCells: number,
  text: string,
): WorkloadPlan {
  const problems: string[] = [];
  let queries: Clique[];
  if (text.trim() === '') {
    queries = combinations(names.length, Math.min(degree, names.length));
  } else {
    queries = [];
    for (const part of text.split(';')) {
      const entry = part.trim();
      if (entry === '') continue;
      const attrs: number[] = [];
      for (const raw of entry.split(',')) {
        const name = raw.trim();
        const index = names.indexOf(name);
        if (index < 0)
          problems.push(`workload entry "${entry}" names \`${name}\`, which is not in the schema.`);
        else if (attrs.includes(index)) problems.push(`workload entry "${entry}" names \`${name}\` twice.`);
        else attrs.push(index);
      }
      if (attrs.length > 0) queries.push(attrs.sort((a, b) => a - b));
    }
    if (queries.length === 0 && problems.length === 0) problems.push('the workload names no marginal.');
  }
  const seen = new Set<string>();
  const unique = queries.filter((q) => !seen.has(q.join()) && seen.add(q.join()));
  const workload = unique.filter((q) => cellCount(q, sizes) <= maxCells);
  const dropped = unique.filter((q) => cellCount(q, sizes) > maxCells);
  if (problems.length === 0 && unique.length > 0 && workload.length === 0) {
    problems.push(
      `every workload marginal has more than maxCells = ${maxCells} cells: raise \`maxCells\`, choose fewer bins or name smaller marginals.`,
    );
  }
  return { workload, dropped, problems };
}

/**
 * The candidates: every non-empty subset of a workload marginal, each weighted by
 * w_r = Σ_{s ∈ workload} |r ∩ s| (AIM paper, Alg. 1, line 1; private-pgm `compile_workload`).
 */
export function candidatesOf(workload: readonly Clique[]): { cliques: Clique[]; weights: number[] } {
  const byKey = new Map<string, Clique>();
  for (const query of workload) {
    const k = query.length;
    for (let mask = 1; mask < 1 << k; mask++) {
      const subset = query.filter((_, bit) => (mask >> bit) & 1);
      byKey.set(subset.join(), subset);
    }
  }
  const cliques = [...byKey.values()].sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
  const weights = cliques.map((r) => workload.reduce((w, s) => w + r.filter((a) => s.includes(a)).length, 0));
  return { cliques, weights };
}

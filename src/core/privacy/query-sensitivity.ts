import { Rational } from '../rng/rational';

/**
 * Which datasets are neighbours (DESIGN.md §3 rule 1). `replace-one`: one row replaced, n public (the
 * default and, for now, the only relation a run uses). `add-remove`: one row added or removed, n private.
 */
export type Neighbouring = 'replace-one' | 'add-remove';

/**
 * The kinds of query a mechanism answers with privacy noise or a private selection. A metered primitive
 * takes one of these, never a sensitivity number: the sensitivity comes from {@link querySensitivity}
 * under the run's relation.
 * - `partition-counts`: the counts of the rows in the cells of a partition fixed without looking at the
 *   data (a histogram, a marginal over a public domain).
 * - `count`: one count of the rows that satisfy a public predicate.
 * - `l1-error-score`: a selection score w·‖M(D) − m‖₁ (+ a term that does not depend on the data), with
 *   M(D) the counts of a partition and m a public vector (a DP output), the scores kept as integers on a
 *   grid of `grid` units per count (`grid` = 2^20 for the graphical-model mechanisms). `weight` ≥ 0.
 * - `rank-score`: a selection score −|#{rows with value < t} − r| with a public target rank r that does
 *   not depend on n (quantile selection).
 * - `clipped-sum`: Σ clip(xᵢ, lower, upper), a sum of values clipped to public bounds.
 */
export type QueryKind =
  | { kind: 'partition-counts' }
  | { kind: 'count' }
  | { kind: 'l1-error-score'; weight: number; grid: number }
  | { kind: 'rank-score' }
  | { kind: 'clipped-sum'; lower: Rational; upper: Rational };

/** The most a query's answer moves between neighbours: L1 and squared L2 norms of the change, exact. */
export interface Sensitivity {
  l1: Rational;
  /** Δ₂², exact (Δ₂ itself can be irrational: √2 for a histogram under replace-one). */
  l2Squared: Rational;
}

const ONE = Rational.ONE;
const TWO = Rational.of(2);

function scalar(delta: Rational): Sensitivity {
  return { l1: delta, l2Squared: delta.mul(delta) };
}

function wholeNonNegative(what: string, value: number): Rational {
  if (!(Number.isSafeInteger(value) && value >= 0)) {
    throw new RangeError(`${what} must be a whole number >= 0; got ${value}`);
  }
  return Rational.of(value);
}

/**
 * The sensitivity of a query kind under a neighbouring relation, derived here once (the one table of
 * query kinds, DESIGN.md §3 rule 1):
 *
 * | kind                      | replace-one                      | add-remove                      |
 * | ------------------------- | -------------------------------- | ------------------------------- |
 * | partition-counts          | L1 = 2, L2 = √2: one cell −1, one +1 (or none when the cell stays) | L1 = L2 = 1: one cell ±1 |
 * | count                     | 1: the row leaves or joins the counted set | 1                        |
 * | l1-error-score (w, grid)  | 2·w·grid: ‖·‖₁ moves by ≤ the counts' L1 change, 2 | w·grid          |
 * | rank-score                | 1: #{< t} moves by at most 1, r fixed | 1 (r must not depend on n) |
 * | clipped-sum [a, b]        | b − a: one clipped value replaced by another | max(|a|, |b|)          |
 *
 * For a score, "sensitivity" is the most any one candidate's score moves (what the exponential
 * mechanism needs); its L1 and L2 entries are that same number.
 */
export function querySensitivity(query: QueryKind, neighbouring: Neighbouring): Sensitivity {
  const replaceOne = neighbouring === 'replace-one';
  switch (query.kind) {
    case 'partition-counts':
      return replaceOne ? { l1: TWO, l2Squared: TWO } : { l1: ONE, l2Squared: ONE };
    case 'count':
      return scalar(ONE);
    case 'l1-error-score': {
      const weight = wholeNonNegative('the weight of an L1-error score', query.weight);
      const grid = wholeNonNegative('the grid of an L1-error score', query.grid);
      const perCount = weight.mul(grid);
      return scalar(replaceOne ? TWO.mul(perCount) : perCount);
    }
    case 'rank-score':
      return scalar(ONE);
    case 'clipped-sum': {
      if (query.upper.compare(query.lower) < 0) {
        throw new RangeError(`a clipped sum needs lower <= upper; got [${query.lower}, ${query.upper}]`);
      }
      if (replaceOne) return scalar(query.upper.sub(query.lower));
      const a = query.lower.abs();
      const b = query.upper.abs();
      return scalar(a.compare(b) > 0 ? a : b);
    }
  }
}

/** A short name of the query for messages ("counts over a partition", "L1-error score (weight 3)"). */
export function describeQuery(query: QueryKind): string {
  switch (query.kind) {
    case 'partition-counts':
      return 'counts over a partition';
    case 'count':
      return 'a count';
    case 'l1-error-score':
      return `an L1-error score (weight ${query.weight})`;
    case 'rank-score':
      return 'a rank score';
    case 'clipped-sum':
      return `a sum clipped to [${query.lower}, ${query.upper}]`;
  }
}

import { Rational } from '../rng/rational';
import type { Neighbouring } from './neighbouring-relation';
import {
  describeVectorQuery,
  vectorQuerySensitivity,
  type VectorQueryKind,
} from './vector-query-sensitivity';

/** Defined in neighbouring-relation.ts (a type both query tables use); re-exported for their callers. */
export type { Neighbouring };

/**
 * The kinds of query a mechanism answers with privacy noise or a private selection. A metered primitive
 * takes one of these, never a sensitivity number: the sensitivity comes from {@link querySensitivity}
 * under the run's relation.
 * - `partition-counts`: the counts of the rows in the cells of a partition fixed without looking at the
 *   data (a histogram, a marginal over a public domain).
 * - `count`: one count of the rows that satisfy a public predicate.
 * - `count-difference`: yes − no, the counts of the rows that satisfy two disjoint public predicates
 *   (a majority vote: cells that read as numbers against the other cells present).
 * - `l1-error-score`: a selection score w·‖M(D) − m‖₁ (+ a term that does not depend on the data), with
 *   M(D) the counts of a partition and m a public vector (a DP output), the scores kept as integers on a
 *   grid of `grid` units per count (`grid` = 2^20 for the graphical-model mechanisms). `weight` ≥ 0.
 * - `rank-score`: a selection score −|#{rows with value < t} − r| with a public target rank r that does
 *   not depend on n (quantile selection).
 * - `quantile-cell-score`: −(distance from a target rank r(m) to the interval of ranks [a(gᵢ), a(gᵢ₊₁)] a
 *   public grid cell holds), a(g) = #{counted values < g}, m the number of counted values (present and
 *   not a point mass), r(m) never falling and rising by at most 1 when m rises by 1 (⌈j·m/B⌉, j <= B):
 *   the score of a quantile bin edge (mechanisms/common/binning/quantile-bins.ts, domain/dp-quantile.ts).
 * - `clipped-sum`: Σ clip(xᵢ, lower, upper), a sum of values clipped to public bounds.
 * - `ball-sums`, `partition-bounded-sums`, `ball-gram`, `grid-entropies`: integer vectors summed per cell,
 *   bounded integers summed per cell, a Gram matrix of integer vectors, entropies on a grid
 *   (derived in vector-query-sensitivity.ts).
 * - `on-grid`: a real statistic (below) rounded to a grid, as the integer vector k = round(v/g) with
 *   g = Δ/G, Δ the statistic's L1 sensitivity and G = `gridSteps` (DESIGN.md privacy rule 4).
 * - `pmse-score`: the pMSE quality u(X, θ) of a synthetic dataset of `rows` rows against the `rows` real
 *   ones (pmse-mechanism), a score to minimise; `partitions` says how its propensity trees are chosen:
 *   `fixed-before-data` (a maximum over partitions fixed from the synthetic data only: proven) or
 *   `greedy-tree` (the paper's value for optimal trees, not proven for greedy ones; the claim says so).
 */
export type QueryKind =
  | { kind: 'partition-counts' }
  | { kind: 'count' }
  | { kind: 'count-difference' }
  | { kind: 'l1-error-score'; weight: number; grid: number }
  | { kind: 'rank-score' }
  | { kind: 'quantile-cell-score' }
  | { kind: 'clipped-sum'; lower: Rational; upper: Rational }
  | { kind: 'on-grid'; of: RealStatistic; gridSteps: number }
  | { kind: 'pmse-score'; rows: number; partitions: 'fixed-before-data' | 'greedy-tree' }
  | VectorQueryKind;

/**
 * Real statistics that are released only rounded to a grid (`on-grid`), each of values clipped to public
 * bounds (a missing value counted at a fixed point inside them):
 * - `clipped-mean`: (1/rows)·Σ clip(xᵢ, lower, upper), `rows` the public row count the sum is divided by;
 * - `partition-clipped-sums`: the vector of Σ_{i in k} clip(xᵢ, lower, upper) over the cells k of a
 *   partition fixed without looking at the data;
 * - `covariance-entry`: Σᵢ (xᵢ − x̄)(zᵢ − z̄)/(rows − 1) for two columns (or one: a variance) whose values
 *   lie in intervals of widths `widths`;
 * - `pooled-scatter-entry`: Σ_k Σ_{i in k} (xᵢ − x̄_k)(zᵢ − z̄_k), the within-cell scatter over a partition
 *   fixed without looking at the data, of two columns with values in intervals of widths `widths`;
 *   `diagonal` when both are the same column.
 */
export type RealStatistic =
  | { kind: 'clipped-mean'; lower: Rational; upper: Rational; rows: number }
  | { kind: 'partition-clipped-sums'; lower: Rational; upper: Rational }
  | { kind: 'covariance-entry'; widths: readonly [Rational, Rational]; rows: number }
  | { kind: 'pooled-scatter-entry'; widths: readonly [Rational, Rational]; diagonal: boolean };

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
 * | count-difference          | 2: the row leaves one of yes, no, neither and joins one (yes → no) | 1: one group gains or loses the row |
 * | l1-error-score (w, grid)  | 2·w·grid: ‖·‖₁ moves by ≤ the counts' L1 change, 2 | w·grid          |
 * | rank-score                | 1: #{< t} moves by at most 1, r fixed | 1 (r must not depend on n) |
 * | quantile-cell-score       | 1 (below)                        | 1 (below)                       |
 * | clipped-sum [a, b]        | b − a: one clipped value replaced by another | max(|a|, |b|)          |
 * | on-grid (statistic, G)    | L1 = G + c, L2² = (G + 1)² + c − 1 (see onGridSensitivity) | same, c per relation |
 * | pmse-score, fixed-before-data | 1/(2n) (pmse-mechanism README, "Quality functions")  | refused: n is private |
 * | pmse-score, greedy-tree   | 1/n (Snoke & Slavković 2018, Thm 2; not proven for greedy trees) | refused      |
 *
 * quantile-cell-score, score −max(lo − r, r − hi, 0) with [lo, hi] = [a(gᵢ), a(gᵢ₊₁)] (the last cell ends
 * at m). A row is "counted" (a value present, not a point mass) or not. Replace-one: a counted value x
 * → a counted y leaves m and r alone and moves every a(g) by at most 1, so lo − r and r − hi move by at
 * most 1; a counted x → an uncounted row (or back) moves m by 1, r by ρ ∈ {0, 1} in the same direction,
 * every a(g) by some e ∈ {0, 1} and the end m by 1 in that direction, so lo − r moves by e − ρ and r − hi
 * by ρ − e′, each in [−1, 1]; an uncounted row → an uncounted one changes nothing. Add/remove: adding
 * or removing a counted row is the second case, an uncounted one changes nothing. The maximum of terms
 * that each move by at most 1 moves by at most 1: Δ = 1 under both (brute force in
 * domain/dp-quantile.test.ts and mechanisms/common/binning/quantile-bins.test.ts). The domain's bounds add
 * further terms to the maximum, min(r(m) + j − 1, R(m)) − a(gᵢ₊ⱼ) for j >= 2 with R(m) = min(s, m)
 * (domain/dp-quantile.ts, boundScores): each threshold never falls and rises by at most 1 when m rises
 * by 1, as r does, and meets a count, so each term moves by at most 1 in every case above: Δ = 1 still.
 *
 * For a score, "sensitivity" is the most any one candidate's score moves (what the exponential
 * mechanism needs); its L1 and L2 entries are that same number. The pMSE compares n real rows with n
 * synthetic ones, n the public row count; with add/remove neighbours n is private, so that score has no
 * bound here and asking for one throws.
 */
export function querySensitivity(query: QueryKind, neighbouring: Neighbouring): Sensitivity {
  const replaceOne = neighbouring === 'replace-one';
  switch (query.kind) {
    case 'partition-counts':
      return replaceOne ? { l1: TWO, l2Squared: TWO } : { l1: ONE, l2Squared: ONE };
    case 'count':
      return scalar(ONE);
    case 'count-difference':
      return scalar(replaceOne ? TWO : ONE);
    case 'l1-error-score': {
      const weight = wholeNonNegative('the weight of an L1-error score', query.weight);
      const grid = wholeNonNegative('the grid of an L1-error score', query.grid);
      const perCount = weight.mul(grid);
      return scalar(replaceOne ? TWO.mul(perCount) : perCount);
    }
    case 'rank-score':
    case 'quantile-cell-score':
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
    case 'on-grid':
      return onGridSensitivity(query.of, query.gridSteps, neighbouring);
    case 'ball-sums':
    case 'partition-bounded-sums':
    case 'ball-gram':
    case 'grid-entropies':
      return vectorQuerySensitivity(query, neighbouring);
    case 'pmse-score': {
      if (!replaceOne) {
        throw new RangeError(
          'the pMSE score compares n real rows with n synthetic ones, n public: it has no bound when n is private (add/remove neighbours)',
        );
      }
      const rows = wholeNonNegative('the rows of a pMSE score', query.rows);
      if (rows.isZero()) throw new RangeError('a pMSE score needs at least one row');
      return scalar(ONE.div(query.partitions === 'fixed-before-data' ? TWO.mul(rows) : rows));
    }
  }
}

function larger(a: Rational, b: Rational): Rational {
  return a.compare(b) >= 0 ? a : b;
}

/**
 * The L1 sensitivity Δ of a real statistic and c, the most entries one neighbour changes, derived here:
 *
 * | statistic                     | replace-one (n public)              | add-remove                       |
 * | ----------------------------- | ----------------------------------- | -------------------------------- |
 * | clipped-mean [a, b], rows n   | (b − a)/n, c = 1                    | refused: n is private            |
 * | partition-clipped-sums [a, b] | max(b − a, 2·max(|a|, |b|)), c = 2  | max(|a|, |b|), c = 1             |
 * | covariance-entry w, v, rows n | w·v/n, c = 1                        | refused: n is private            |
 * | pooled-scatter-entry w, v     | w² diagonal, 2·w·v off, c = 1       | w² diagonal, w·v off, c = 1      |
 *
 * - clipped mean: the clipped sum (see the table above) divided by the public n. Under add/remove n is
 *   not public (the divisor itself changes with the neighbour), so no bound is stated and asking throws.
 * - cell sums: a row that stays in its cell moves one sum by ≤ b − a; one that moves leaves one cell
 *   (≤ max(|a|, |b|)) and joins another (same); add/remove touches one cell.
 * - covariance entry: with μ the mean of the other n − 1 rows, the scatter is W₀ + (n − 1)/n·(x − μ)(z − μ)
 *   for the row (x, z), so replacing it moves the entry by |P − P′|/n with P = (x − μ_x)(z − μ_z), which spans
 *   at most w·v over the box (dp-sequential-regression/numeric-block.ts; S² of modips's normal model is the
 *   diagonal case, Liu 2016b). Under add/remove the divisor n − 1 is not public, so no bound is stated
 *   and asking throws (until a mechanism needs it with a DP row count or a fixed public divisor).
 * - pooled scatter: adding a point to a cell of m adds m/(m + 1)·(x − μ)(z − μ), each term below w·v in
 *   absolute value and non-negative on the diagonal; a replacement removes one such term and adds one:
 *   below w² on the diagonal, 2·w·v off it (modips/glom-model.ts).
 */
/** The refusal of a statistic whose bound needs the row count public, under add/remove. */
function NO_PUBLIC_N(what: string): string {
  return `${what}, n public: it has no bound when n is private (add/remove neighbours)`;
}

export function realStatisticSensitivity(
  statistic: RealStatistic,
  neighbouring: Neighbouring,
): { l1: Rational; changedEntries: number } {
  const replaceOne = neighbouring === 'replace-one';
  switch (statistic.kind) {
    case 'clipped-mean': {
      if (!replaceOne) throw new RangeError(NO_PUBLIC_N('a clipped mean divides by n'));
      const rows = wholeNonNegative('the rows of a clipped mean', statistic.rows);
      if (rows.isZero()) throw new RangeError('a clipped mean needs at least one row');
      const sum = querySensitivity(
        { kind: 'clipped-sum', lower: statistic.lower, upper: statistic.upper },
        neighbouring,
      );
      return { l1: sum.l1.div(rows), changedEntries: 1 };
    }
    case 'partition-clipped-sums': {
      if (statistic.upper.compare(statistic.lower) < 0) {
        throw new RangeError(
          `clipped sums need lower <= upper; got [${statistic.lower}, ${statistic.upper}]`,
        );
      }
      const far = larger(statistic.lower.abs(), statistic.upper.abs());
      return replaceOne
        ? { l1: larger(statistic.upper.sub(statistic.lower), TWO.mul(far)), changedEntries: 2 }
        : { l1: far, changedEntries: 1 };
    }
    case 'covariance-entry': {
      if (!replaceOne) throw new RangeError(NO_PUBLIC_N('a covariance entry divides by n − 1'));
      const rows = wholeNonNegative('the rows of a covariance entry', statistic.rows);
      if (rows.compare(TWO) < 0) throw new RangeError('a covariance entry needs at least two rows');
      const product = positiveWidth(statistic.widths[0]).mul(positiveWidth(statistic.widths[1]));
      return { l1: product.div(rows), changedEntries: 1 };
    }
    case 'pooled-scatter-entry': {
      const product = positiveWidth(statistic.widths[0]).mul(positiveWidth(statistic.widths[1]));
      return { l1: statistic.diagonal || !replaceOne ? product : TWO.mul(product), changedEntries: 1 };
    }
  }
}

function positiveWidth(width: Rational): Rational {
  if (!width.isPositive()) throw new RangeError(`a width must be > 0; got ${width.toString()}`);
  return width;
}

/**
 * The integer vector k = round(v/g), g = Δ/G (`gridUnit`), of a real statistic v of L1 sensitivity Δ of
 * which at most c entries change: each changed entry has |k − k′| <= |v − v′|/g + 1, so
 * L1 = Σ|k − k′| <= G + c, a whole number (DESIGN.md rule 4); L2² <= max Σ(aᵢ + 1)² over aᵢ >= 0,
 * Σaᵢ <= G, which is convex, so at a vertex: (G + 1)² + (c − 1).
 */
function onGridSensitivity(
  statistic: RealStatistic,
  gridSteps: number,
  neighbouring: Neighbouring,
): Sensitivity {
  const steps = wholeNonNegative('the grid steps of a statistic', gridSteps);
  if (steps.isZero()) throw new RangeError('a grid needs at least one step per sensitivity');
  const { changedEntries } = realStatisticSensitivity(statistic, neighbouring);
  const c = Rational.of(changedEntries);
  const plusOne = steps.add(ONE);
  return { l1: steps.add(c), l2Squared: plusOne.mul(plusOne).add(c.sub(ONE)) };
}

/** g = Δ/G, the grid of an `on-grid` query under a relation, exact. */
export function gridUnit(
  query: Extract<QueryKind, { kind: 'on-grid' }>,
  neighbouring: Neighbouring,
): Rational {
  return realStatisticSensitivity(query.of, neighbouring).l1.div(Rational.of(query.gridSteps));
}

/** A short name of the query for messages ("counts over a partition", "L1-error score (weight 3)"). */
export function describeQuery(query: QueryKind): string {
  switch (query.kind) {
    case 'partition-counts':
      return 'counts over a partition';
    case 'count':
      return 'a count';
    case 'count-difference':
      return 'a difference of two counts';
    case 'l1-error-score':
      return `an L1-error score (weight ${query.weight})`;
    case 'rank-score':
      return 'a rank score';
    case 'quantile-cell-score':
      return 'a quantile cell score';
    case 'clipped-sum':
      return `a sum clipped to [${query.lower}, ${query.upper}]`;
    case 'on-grid':
      return `a ${query.of.kind.replace(/-/g, ' ')} on a grid of ${query.gridSteps} steps per sensitivity`;
    case 'ball-sums':
    case 'partition-bounded-sums':
    case 'ball-gram':
    case 'grid-entropies':
      return describeVectorQuery(query);
    case 'pmse-score':
      return `a pMSE score of ${query.rows} rows (${query.partitions === 'fixed-before-data' ? 'proven' : 'greedy trees'})`;
  }
}

/**
 * Queries answered with a real vector under noise measured in the L2 norm only (their L1 change can be
 * irrational, so they are not in {@link QueryKind}):
 * - `regularized-logistic-coefficients`: β_T, the result of a fixed number of solver steps on
 *   J(β) = (1/n)·Σᵢ ℓ(β; xᵢ, yᵢ) + (λ/2)·‖β‖², ℓ the (multinomial) logistic loss over `classes` classes with
 *   class 0 the reference, every predictor vector of norm <= 1, n = `rows` the public row count, λ =
 *   `lambda` public; the solver is proven to end within gap = Δ₀/`gapPerSensitivity` of the exact
 *   minimiser, Δ₀ = 2G/(nλ) (dp-sequential-regression/sensitivity.ts).
 */
export type L2QueryKind = {
  kind: 'regularized-logistic-coefficients';
  rows: number;
  lambda: number;
  classes: number;
  gapPerSensitivity: number;
};

/** The exact value of a finite double, as a rational (its binary fraction). */
export function exactRationalOfDouble(x: number): Rational {
  if (!Number.isFinite(x)) throw new RangeError(`a finite number is needed; got ${x}`);
  let scaled = x;
  let exponent = 0n;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    exponent += 1n;
  }
  return Rational.of(BigInt(scaled), 2n ** exponent);
}

/**
 * The L2 sensitivity of a coefficient query, Δ₂² exact and Δ₂ as a double at least as large (the one the
 * sampler divides by ε), derived here:
 *
 * | kind                              | replace-one                 | add-remove                  |
 * | --------------------------------- | --------------------------- | --------------------------- |
 * | regularized-logistic-coefficients | 2G/(nλ) + 2·gap             | refused: n is private       |
 *
 * with G = 1 for two classes and √2 for more (the largest norm of one row's loss gradient,
 * dp-sequential-regression/sensitivity.ts) and gap = 2G/(nλ·gapPerSensitivity) the solver's proven
 * distance from the exact minimiser. Replace-one: J′ = J + (ℓ′ − ℓ)/n, J is λ-strongly convex, so
 * ‖β̂ − β̂′‖ <= ‖∇(ℓ′ − ℓ)/n‖/λ <= 2G/(nλ) (Chaudhuri, Monteleoni & Sarwate 2011, Corollary 8, whose
 * neighbours differ in one row with n fixed). Add-remove: the objective's mean loss divides by n, which is
 * not public then (the divisor changes with the neighbour), so no bound is stated and asking throws. Both
 * solver results are within gap of their minimisers, hence + 2·gap. The double is the mechanism's own formula with a relative margin of
 * 10⁻¹² for its rounding; it is checked against the exact Δ₂² (throws RangeError if it falls short).
 */
export function l2QuerySensitivity(
  query: L2QueryKind,
  neighbouring: Neighbouring,
): { l2Squared: Rational; l2Upper: number } {
  const { rows, lambda, classes, gapPerSensitivity } = query;
  if (!(Number.isSafeInteger(rows) && rows >= 1))
    throw new RangeError(`rows must be a whole number >= 1; got ${rows}`);
  if (!(Number.isFinite(lambda) && lambda > 0)) throw new RangeError(`λ must be > 0; got ${lambda}`);
  if (!(Number.isSafeInteger(classes) && classes >= 2))
    throw new RangeError(`classes must be >= 2; got ${classes}`);
  if (!(Number.isSafeInteger(gapPerSensitivity) && gapPerSensitivity >= 1))
    throw new RangeError(
      `the solver gap must be a whole fraction of the sensitivity; got ${gapPerSensitivity}`,
    );
  if (neighbouring !== 'replace-one')
    throw new RangeError(NO_PUBLIC_N('the regularized logistic objective divides by n'));
  // G² exactly, and G as the double the mechanism uses (Math.SQRT2 lies above √2).
  const gSquared = classes <= 2 ? ONE : TWO;
  const g = classes <= 2 ? 1 : Math.SQRT2;
  // Δ = 2G/(nλ) + 2·(2G/(nλ))/gap = (G/(nλ))·(m + 4/gap) with m = 2.
  const m = TWO;
  const nLambda = Rational.of(rows).mul(exactRationalOfDouble(lambda));
  const factor = m.add(Rational.of(4).div(Rational.of(gapPerSensitivity)));
  const l2Squared = factor.mul(factor).mul(gSquared).div(nLambda.mul(nLambda));
  const exact = (2 * g) / (rows * lambda);
  const gap = exact / gapPerSensitivity;
  const l2Upper = (exact + 2 * gap) * (1 + 1e-12);
  const upper = exactRationalOfDouble(l2Upper);
  if (upper.mul(upper).compare(l2Squared) < 0) {
    throw new RangeError('the floating-point sensitivity of the coefficients fell below the exact one');
  }
  return { l2Squared, l2Upper };
}

/** A short name of a coefficient query for messages. */
export function describeL2Query(query: L2QueryKind): string {
  return `the coefficients of a regularized logistic regression (${query.classes} classes, n = ${query.rows}, λ = ${query.lambda})`;
}

import { Rational } from '../rng/rational';
import type { Neighbouring } from './neighbouring-relation';

/**
 * Sensitivities of integer statistics summed per cell of a public partition from one bounded
 * contribution per row (ClustMix's cluster statistics and random-feature moments), and of plug-in
 * entropies rounded to a grid (the Bayesian network's structure). Each row of the query table
 * (`querySensitivity`) that needs more than one line of reasoning is derived here.
 */

/** The query kinds derived in this file (members of `QueryKind`). */
export type VectorQueryKind =
  | { kind: 'ball-sums'; radius: number }
  | { kind: 'partition-bounded-sums'; upper: number }
  | { kind: 'ball-gram'; radius: number }
  | { kind: 'grid-entropies'; entropies: number; gridSteps: number };

function positiveWhole(what: string, value: number): Rational {
  if (!(Number.isSafeInteger(value) && value >= 1)) {
    throw new RangeError(`${what} must be a whole number >= 1; got ${value}`);
  }
  return Rational.of(value);
}

/**
 * | kind                          | replace-one                      | add-remove              |
 * | ----------------------------- | -------------------------------- | ----------------------- |
 * | ball-sums, radius r           | L2² = 4r², L1 = 2r²              | L2² = r², L1 = r²       |
 * | partition-bounded-sums, U     | L2² = 2U², L1 = 2U               | L2² = U², L1 = U        |
 * | ball-gram, radius r           | L2² = 2r⁴, L1 = r⁴ + r²          | L2² = r⁴, L1 = (r⁴+r²)/2 |
 * | grid-entropies, e, G          | per entropy G + 1: L1 = e(G + 1), L2² = e(G + 1)² | refused: the grid is made from n |
 *
 * - `ball-sums`: S_k = Σ_{i in k} vᵢ over the cells k of a partition fixed without the data (clusters of
 *   public centroids, classes of a label), vᵢ an integer vector with ‖vᵢ‖₂ <= r. Replace-one: the row
 *   stays in its cell (v′ − v, norm <= 2r) or leaves cell a (−v) and joins b (+v′), squared norm
 *   <= 2r² <= 4r². For integers |v_j| <= v_j², so ‖v‖₁ <= ‖v‖₂² <= r²: L1 <= 2r². Add-remove: one v.
 * - `partition-bounded-sums`: Q_k = Σ_{i in k} qᵢ, qᵢ an integer in [0, U]. Replace-one: within a cell
 *   |q′ − q| <= U; across cells q leaves a and q′ joins b: L1 <= 2U, L2² <= 2U². Add-remove: one q.
 * - `ball-gram`: the upper triangle (diagonal included) of A = Σᵢ vᵢvᵢᵀ, ‖vᵢ‖₂ <= r integers. For
 *   M = aaᵀ − ccᵀ, ‖upper(M)‖² = (‖M‖_F² + Σ M_jj²)/2 with ‖M‖_F² = ‖a‖⁴ + ‖c‖⁴ − 2(aᵀc)² <= 2r⁴ and
 *   Σ (a_j² − c_j²)² <= Σ a_j⁴ + c_j⁴ <= 2r⁴: L2² <= 2r⁴. ‖upper(vvᵀ)‖₁ = (‖v‖₁² + ‖v‖₂²)/2
 *   <= (r⁴ + r²)/2 per row. Add-remove: (‖v‖⁴ + Σ v_j⁴)/2 <= r⁴.
 * - `grid-entropies`: e plug-in entropies (bits) of the same n rows, each released as round(H/g) with
 *   g = ΔH⁺(n)/G, ΔH⁺(n) >= ΔH(n) the replace-one sensitivity of one entropy (models/bayes-net/entropy.ts).
 *   H moves by at most G grid steps and the rounding by one more, so each integer moves by <= G + 1
 *   (every entropy can move: L1 = e(G + 1), L2² = e(G + 1)²). Under add-remove n is private and the grid
 *   is made from it, so the query is refused.
 */
export function vectorQuerySensitivity(
  query: VectorQueryKind,
  neighbouring: Neighbouring,
): { l1: Rational; l2Squared: Rational } {
  const replaceOne = neighbouring === 'replace-one';
  switch (query.kind) {
    case 'ball-sums': {
      const r = positiveWhole('the radius of ball sums', query.radius);
      const r2 = r.mul(r);
      return replaceOne
        ? { l1: r2.mul(Rational.of(2)), l2Squared: r2.mul(Rational.of(4)) }
        : { l1: r2, l2Squared: r2 };
    }
    case 'partition-bounded-sums': {
      const u = positiveWhole('the bound of partition sums', query.upper);
      const u2 = u.mul(u);
      return replaceOne
        ? { l1: u.mul(Rational.of(2)), l2Squared: u2.mul(Rational.of(2)) }
        : { l1: u, l2Squared: u2 };
    }
    case 'ball-gram': {
      const r = positiveWhole('the radius of a ball Gram matrix', query.radius);
      const r2 = r.mul(r);
      const r4 = r2.mul(r2);
      const l1 = r4.add(r2);
      return replaceOne
        ? { l1, l2Squared: r4.mul(Rational.of(2)) }
        : { l1: l1.div(Rational.of(2)), l2Squared: r4 };
    }
    case 'grid-entropies': {
      if (!replaceOne) {
        throw new RangeError(
          'entropies rounded to a grid made from the public n have no bound when n is private (add/remove neighbours)',
        );
      }
      const e = positiveWhole('the number of entropies', query.entropies);
      const perEntropy = positiveWhole('the grid steps per entropy sensitivity', query.gridSteps).add(
        Rational.ONE,
      );
      return { l1: e.mul(perEntropy), l2Squared: e.mul(perEntropy).mul(perEntropy) };
    }
  }
}

/** A short name of the query for messages. */
export function describeVectorQuery(query: VectorQueryKind): string {
  switch (query.kind) {
    case 'ball-sums':
      return `sums of integer vectors of norm at most ${query.radius} per cell`;
    case 'partition-bounded-sums':
      return `sums of integers in [0, ${query.upper}] per cell`;
    case 'ball-gram':
      return `a Gram matrix of integer vectors of norm at most ${query.radius}`;
    case 'grid-entropies':
      return `${query.entropies} entropies on a grid of ${query.gridSteps} steps per sensitivity`;
  }
}

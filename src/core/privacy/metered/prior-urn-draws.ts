import type { AbortSignalLike } from '../../abort';
import { priorWeightFor, type PriorDraw } from '../dirichlet-prior';
import { drawFromPriorAndBalls, type UrnBalls } from '../../rng/polya-urn';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { ChargeableStep } from '../meter';
import { describeQuery, type QueryKind } from '../query-sensitivity';
import { pureCost } from './costs';

/**
 * m = `rows` cells drawn from the prior weight α in each of K cells plus the real rows' counts (the
 * sampling is the mechanism), metered. α is computed HERE from ε and m, α = priorWeightFor(draw, m, ε)
 * (privacy/dirichlet-prior.ts; rounded up), and the draw then charges `step` exactly ε — (ε, 0), or ε²/2 on a zCDP step:
 * - posterior: P(ñ | n) ∝ Π_k Γ(α + n_k + ñ_k)/Γ(α + n_k) · Γ(Kα + n)/Γ(Kα + n + m); a row moved from
 *   cell a to cell b (replace-one) changes it by at most (1 + ñ_a/α) ≤ 1 + m/α = e^ε at α = m/(e^ε − 1);
 *   a row added or removed (add-remove) by at most max(1 + m/α, 1 + m/(Kα + n)) — the same bound;
 * - posterior mean: each row's probability p_k = (n_k + α)/(n + Kα) moves by at most the factor 1 + 1/α
 *   under either relation (replace-one: only p_a and p_b move; add-remove: one numerator +1, the common
 *   denominator +1), so m rows by (1 + 1/α)^m = e^ε at α = 1/(e^(ε/m) − 1).
 * Both rest on each cell count moving by at most 1, so `query` must be counts over a partition; m is a
 * public number of rows (under add-remove it must not be n). Draws exactly (integer arithmetic,
 * rng/polya-urn.ts). Returns the m cells and α.
 */
export function meteredPriorUrnDraws(
  step: ChargeableStep,
  query: QueryKind,
  balls: UrnBalls,
  options: { domainCells: number; rows: number; draw: PriorDraw; epsilon: Rational },
  rng: Rng,
  signal?: AbortSignalLike,
): { cells: Uint32Array; prior: Rational } {
  if (query.kind !== 'partition-counts') {
    throw new RangeError(`a prior-weighted draw is over counts of a partition, not ${describeQuery(query)}`);
  }
  const prior = priorWeightFor(options.draw, options.rows, options.epsilon);
  step.charge(pureCost(step, options.epsilon, false));
  const cells = drawFromPriorAndBalls(rng, {
    domainCells: options.domainCells,
    prior,
    balls,
    draws: options.rows,
    reinforce: options.draw === 'posterior',
    ...(signal === undefined ? {} : { signal }),
  });
  return { cells, prior };
}

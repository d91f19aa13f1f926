import type { MeterStep } from '../../../privacy/meter';
import type { Rational } from '../../../rng/rational';
import type { Rng } from '../../../rng/types';
import type { Table } from '../../../table/types';
import type { ColumnCoding } from '../column-coding';
import {
  learnQuantileEdges,
  planQuantileBinStep,
  reserveQuantileBinStep,
  rhoAfterBinning,
  type QuantileBinPlan,
} from '../quantile-bins';
import type { PgmDomain } from './pgm-domain';

/** The binning step of a graphical-model mechanism's domain, or undefined without quantile bins. */
export function pgmBinPlan(rhoBudget: Rational, domain: PgmDomain): QuantileBinPlan | undefined {
  return domain.binningShare === undefined
    ? undefined
    : planQuantileBinStep(rhoBudget, domain.codings, domain.binningShare);
}

/** The ρ the mechanism's own steps may plan with: the budget less the binning step's. */
export function pgmRhoAfterBinning(rhoBudget: Rational, domain: PgmDomain): Rational {
  return rhoAfterBinning(rhoBudget, pgmBinPlan(rhoBudget, domain));
}

/** Reserves the binning step (when the domain has one) before the mechanism's own steps; claim() calls it. */
export function reservePgmBinStep(
  accountant: { rhoBudget: Rational; reserve(what: string, rho: Rational): MeterStep },
  domain: PgmDomain,
): { plan: QuantileBinPlan; step: MeterStep } | undefined {
  const plan = pgmBinPlan(accountant.rhoBudget, domain);
  return plan === undefined
    ? undefined
    : { plan, step: reserveQuantileBinStep(accountant, plan, domain.codings) };
}

/**
 * The run's codings: with quantile bins, the step is reserved (first, as claim() does) and every edge
 * is drawn through it; without, the planned codings as they are, and nothing is reserved.
 */
export function learnPgmCodings(
  table: Table,
  domain: PgmDomain,
  accountant: { rhoBudget: Rational; reserve(what: string, rho: Rational): MeterStep },
  rng: Rng,
): ColumnCoding[] {
  const reserved = reservePgmBinStep(accountant, domain);
  if (reserved === undefined) return domain.codings;
  return learnQuantileEdges(table, domain.codings, reserved.step, reserved.plan.epsilonPerEdge, rng);
}

/** The sentence refusing quantile bins where the rows are not at hand (a count source). */
export function quantileNeedsRowsProblem(domain: PgmDomain): string | undefined {
  return domain.binningShare === undefined
    ? undefined
    : 'quantile bins learn their edges from the rows, so they need the data in memory: use equal-width bins with a count source.';
}

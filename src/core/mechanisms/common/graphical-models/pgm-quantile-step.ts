import type { MeterStep } from '../../../privacy/meter';
import type { Neighbouring } from '../../../privacy/query-sensitivity';
import type { Rational } from '../../../rng/rational';
import type { Rng } from '../../../rng/types';
import type { Table } from '../../../table/types';
import type { ColumnCoding } from '../coding/column-coding';
import {
  learnQuantileEdges,
  planQuantileBinStep,
  reserveQuantileBinStep,
  rhoAfterBinning,
  type QuantileBinPlan,
} from '../binning/quantile-bins';
import type { PgmDomain } from './pgm-domain';

/** What the binning step needs of a zCDP accountant: its budget, its relation, reserve. */
interface BinAccountant {
  rhoBudget: Rational;
  meter: { neighbouring: Neighbouring };
  reserve(what: string, rho: Rational): MeterStep;
}

/** The binning step of a graphical-model mechanism's domain, or undefined without quantile bins. */
export function pgmBinPlan(
  rhoBudget: Rational,
  domain: PgmDomain,
  neighbouring: Neighbouring = 'replace-one',
): QuantileBinPlan | undefined {
  return domain.binningShare === undefined
    ? undefined
    : planQuantileBinStep(
        rhoBudget,
        domain.codings,
        domain.binningShare,
        neighbouring,
        domain.pointMassShare,
      );
}

/** The ρ the mechanism's own steps may plan with: the budget less the binning step's. */
export function pgmRhoAfterBinning(
  rhoBudget: Rational,
  domain: PgmDomain,
  neighbouring: Neighbouring = 'replace-one',
): Rational {
  return rhoAfterBinning(rhoBudget, pgmBinPlan(rhoBudget, domain, neighbouring));
}

/** Reserves the binning step (when the domain has one) before the mechanism's own steps; claim() calls it. */
export function reservePgmBinStep(
  accountant: BinAccountant,
  domain: PgmDomain,
): { plan: QuantileBinPlan; step: MeterStep } | undefined {
  const plan = pgmBinPlan(accountant.rhoBudget, domain, accountant.meter.neighbouring);
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
  accountant: BinAccountant,
  rng: Rng,
): ColumnCoding[] {
  const reserved = reservePgmBinStep(accountant, domain);
  if (reserved === undefined) return domain.codings;
  return learnQuantileEdges(table, domain.codings, reserved.step, reserved.plan, rng);
}

/** The sentence refusing quantile bins where the rows are not at hand (a count source). */
export function quantileNeedsRowsProblem(domain: PgmDomain): string | undefined {
  return domain.binningShare === undefined
    ? undefined
    : 'quantile bins learn their edges from the rows, so they need the data in memory: use equal-width bins with a count source.';
}

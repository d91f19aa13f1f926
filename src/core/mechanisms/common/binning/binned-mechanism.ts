import { standardAssumptions } from '../../../privacy/assumptions';
import { InputError } from '../../../table/errors';
import type { Table } from '../../../table/types';
import type { PublicContext } from '../../types';
import type { BinnedDomain } from './binned-domain';
import { binnedDomainAssumptions } from '../claims/public-assumptions';

/**
 * The skeleton the binned mechanisms share (laplace-histogram, smoothed-histogram, dp-marginals, and
 * any new one over the same coded domain): the claim's assumptions, the run's preamble and the public
 * diagnostics of the domain. Page-safe: no sampling here.
 */

/** The standard sentences (inferred schema facts, seed), the binned domain's, then the mechanism's own. */
export function binnedMechanismAssumptions(
  domain: BinnedDomain,
  context: PublicContext,
  own: readonly string[] = [],
): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...binnedDomainAssumptions(domain.codings, context.schema),
    ...own,
  ];
}

/**
 * The run's preamble, before any budget is reserved: refuses with the same problems `check` reports
 * (an InputError), and a table whose row count is not the public n the claim was made for.
 */
export function refuseUnplannedRun(
  id: string,
  domain: BinnedDomain,
  table: Table,
  context: PublicContext,
): void {
  if (domain.problems.length > 0) throw new InputError(`${id} cannot run: ${domain.problems.join(' ')}`);
  if (table.nRows !== context.n)
    throw new Error(`${id}: the table has ${table.nRows} rows but the context says n = ${context.n}.`);
}

/** Levels per column (bins or categories, plus the missing level): public, from the schema and parameters. */
export function levelsPerColumn(domain: BinnedDomain): Record<string, number> {
  return Object.fromEntries(domain.codings.map((coding) => [coding.name, coding.levels]));
}

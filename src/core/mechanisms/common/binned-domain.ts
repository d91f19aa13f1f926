import type { Schema } from '../../table/types';
import type { BinningChoice } from './binning-params';
import { domainCellCount, domainLimitProblem, planColumnCodings, type ColumnCoding } from './column-coding';

/** The codings of a schema, the size of their cross-tabulation and every reason it cannot be used. */
export interface BinnedDomain {
  codings: ColumnCoding[];
  domainCells: number;
  problems: string[];
}

/**
 * Plans the binned domain from public facts only. With `limitCrossTabulation`, a full
 * cross-tabulation above DOMAIN_CELL_LIMIT cells is a problem (its sentence suggests fewer bins or
 * columns). When n is unknown (a check without context) Scott's rule cannot be evaluated, so the
 * size check is skipped; run() always knows n and checks again.
 */
export function planBinnedDomain(
  schema: Schema,
  choice: BinningChoice,
  n: number | undefined,
  limitCrossTabulation: boolean,
): BinnedDomain {
  const { codings, problems } = planColumnCodings(schema, choice, n ?? 0);
  if (schema.columns.length === 0) problems.push('the schema has no columns to synthesize.');
  const sizeKnown = n !== undefined || choice.rule === 'fixed';
  if (problems.length === 0 && limitCrossTabulation && sizeKnown) {
    const tooLarge = domainLimitProblem(codings);
    if (tooLarge) problems.push(tooLarge);
  }
  return { codings, domainCells: domainCellCount(codings), problems };
}

import type { Schema } from '../../../table/types';
import type { BinningChoice } from '../coding/binning-params';
import { scottBinCountFromPublicRange } from '../coding/bin-count-rules';
import {
  DOMAIN_CELL_LIMIT,
  INTEGER_LEVEL_CAP,
  domainCellCount,
  domainLimitProblem,
  planColumnCodings,
  type ColumnCoding,
} from '../coding/column-coding';

/** The codings of a schema, the size of their cross-tabulation and every reason it cannot be used. */
export interface BinnedDomain {
  codings: ColumnCoding[];
  domainCells: number;
  problems: string[];
  /**
   * Set when the default (Scott's rule) was lowered to fit the cell limit: Scott's count and the
   * most bins a rule-following numeric column got instead.
   */
  scottLowered?: { scott: number; cap: number };
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
  const lowered =
    limitCrossTabulation && choice.rule === 'scott' && n !== undefined
      ? scottCapThatFits(schema, choice, n)
      : undefined;
  const planned = lowered ? { ...choice, scottCap: lowered.cap } : choice;
  const { codings, problems } = planColumnCodings(schema, planned, n ?? 0);
  if (schema.columns.length === 0) problems.push('the schema has no columns to synthesize.');
  const sizeKnown = n !== undefined || choice.rule === 'fixed';
  if (problems.length === 0 && limitCrossTabulation && sizeKnown) {
    const tooLarge = domainLimitProblem(codings);
    if (tooLarge) problems.push(tooLarge);
  }
  return {
    codings,
    domainCells: domainCellCount(codings),
    problems,
    ...(lowered ? { scottLowered: lowered } : {}),
  };
}

/**
 * The default binning is Scott's rule, ceil(6·n^(1/3)/3.49) bins per numeric column; with several
 * numeric columns the cross-tabulation soon passes DOMAIN_CELL_LIMIT (100,000 rows and four numeric
 * columns: 81⁴ ≈ 4.3·10⁷ numeric levels alone). Rather than refuse the default, the columns that follow the
 * rule get at most `cap` bins, the largest cap whose cross-tabulation fits — computed from n, the
 * schema and the parameters only, so it is as public as the rule. Undefined when no lowering is
 * needed or none helps (then check() reports the limit with its advice). Cost O(scott · columns).
 */
function scottCapThatFits(
  schema: Schema,
  choice: BinningChoice,
  n: number,
): { scott: number; cap: number } | undefined {
  const scott = scottBinCountFromPublicRange(n);
  const cellsWithCap = (cap: number) => {
    const plan = planColumnCodings(schema, { ...choice, scottCap: cap }, n);
    return plan.problems.length > 0 ? Infinity : domainCellCount(plan.codings);
  };
  // Without a cap, whole-number columns of at most INTEGER_LEVEL_CAP integers get a level per integer.
  if (cellsWithCap(Infinity) <= DOMAIN_CELL_LIMIT) return undefined;
  for (let cap = Math.max(scott, INTEGER_LEVEL_CAP); cap >= 1; cap--) {
    if (cellsWithCap(cap) <= DOMAIN_CELL_LIMIT) return { scott, cap };
  }
  return undefined;
}

import { drawLaplaceHistogramFromCounts, laplaceHistogramCountPlan } from '../mechanisms/laplace-histogram';
import { LAPLACE_HISTOGRAM_ID } from '../mechanisms/laplace-histogram/meta';
import { rowBlocks } from '../mechanisms/common/dataset-form';
import { blockRowsOf } from '../mechanisms/release-blocks';
import type { ParamValues, PublicContext, ReleaseInBlocks, RunContext } from '../mechanisms/types';
import { Accountant } from '../privacy/accountant';
import { parseBudget } from '../privacy/budget';
import { withDomainSteps } from '../privacy/domain-claim';
import type { Schema } from '../table/types';
import type { CountQueryPlan, PlannedCounts } from './count-source';

/**
 * A mechanism that can run on counts from a count source: the plan of the counts it reads (from the
 * schema, the parameters and n only) and its run on those counts, with the same budget, draws and
 * claim as its run on a table in memory. Only the source of the exact counts differs; the release
 * report says where they were computed.
 */
export interface CountMechanism {
  countPlan(schema: Schema, params: ParamValues, context: PublicContext): CountQueryPlan;
  runOnCounts(
    counts: PlannedCounts,
    schema: Schema,
    params: ParamValues,
    ctx: RunContext,
    options?: { blockRows?: number },
  ): Promise<ReleaseInBlocks>;
}

/** The mechanisms that read counts from any source, by id. */
export const COUNT_MECHANISMS: Readonly<Record<string, CountMechanism>> = {
  [LAPLACE_HISTOGRAM_ID]: {
    countPlan: laplaceHistogramCountPlan,
    async runOnCounts(counts, schema, params, ctx, options) {
      const release = await drawLaplaceHistogramFromCounts(
        counts,
        schema,
        params,
        ctx,
        new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
        rowBlocks(blockRowsOf(options)),
      );
      return { ...release, claim: withDomainSteps(release.claim, schema) };
    },
  },
};

/** Why each mechanism that reads rows cannot run on counts computed elsewhere. */
const READS_ROWS: Readonly<Record<string, string>> = {
  'pmse-mechanism': 'it scores candidate models by fitting propensity trees to the real rows',
  clustmix: 'it runs k-means iterations and residual sums over the real rows',
  'dp-sequential-regression': 'it fits regressions on the real rows',
  'plausible-deniability': 'it tests each synthetic row against the real rows as seeds',
  modips: 'its sufficient statistics (means, covariances) are sums over the real rows, not only counts',
  'binomial-beta-mr': 'it has not been moved to counts from a count source yet',
};

/**
 * The problems of running this mechanism on a count source (empty when it can): a mechanism that
 * reads rows refuses with its reason, as its `check` would.
 */
export function countSourceProblems(mechanismId: string, where: string): string[] {
  if (COUNT_MECHANISMS[mechanismId] !== undefined) return [];
  const reason = READS_ROWS[mechanismId] ?? 'it reads rows, not only counts over the coded domain';
  return [
    `cannot take its data from a count source (${where}): ${reason}. ` +
      `Mechanisms that run on counts: ${Object.keys(COUNT_MECHANISMS).join(', ')}.`,
  ];
}

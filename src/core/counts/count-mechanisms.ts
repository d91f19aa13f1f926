import { laplaceHistogram, laplaceHistogramCountPlan } from '../mechanisms/laplace-histogram';
import { MST_ID } from '../mechanisms/mst/meta';
import { mstCountPlan } from '../mechanisms/mst/run-mst';
import { mst } from '../mechanisms/mst';
import { PrivacyMeter } from '../privacy/meter';
import { LAPLACE_HISTOGRAM_ID } from '../mechanisms/laplace-histogram/meta';
import { rowBlocks } from '../mechanisms/common/rows/dataset-form';
import { blockRowsOf } from '../mechanisms/release-blocks';
import type { ParamValues, PublicContext, ReleaseInBlocks, RunContext } from '../mechanisms/types';
import { withDomainSteps } from '../privacy/domain-claim';
import { spending } from '../mechanisms/domain-composition';
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

/**
 * The run as the registry's wrapper makes it (domain-composition.ts): a privacy meter in the context,
 * settled against the claim's steps (or nothing is released), any failure after the first draw
 * turned into a FailedAfterSpendingError (ledgers count the budget), and the claim composed with the
 * schema's DP domain steps.
 */
async function composedRun(
  schema: Schema,
  given: RunContext,
  run: (ctx: RunContext) => Promise<ReleaseInBlocks>,
): Promise<ReleaseInBlocks> {
  const meter = given.meter ?? new PrivacyMeter(given.neighbouring ?? 'replace-one');
  // A failure after the first draw is a FailedAfterSpendingError: the budget counts, as in memory.
  const release = await spending(meter, () => run({ ...given, meter }));
  meter.settle(release.claim.steps);
  return { ...release, claim: withDomainSteps(release.claim, schema) };
}

/** The mechanisms that read counts from any source, by id. */
export const COUNT_MECHANISMS: Readonly<Record<string, CountMechanism>> = {
  [LAPLACE_HISTOGRAM_ID]: {
    countPlan: laplaceHistogramCountPlan,
    runOnCounts: (counts, schema, params, given, options) =>
      composedRun(schema, given, (ctx) =>
        laplaceHistogram.drawFrom(counts, schema, params, ctx, rowBlocks(blockRowsOf(options))),
      ),
  },
  [MST_ID]: {
    countPlan: mstCountPlan,
    runOnCounts: (counts, schema, params, given, options) =>
      composedRun(schema, given, (ctx) =>
        mst.drawFrom(counts, schema, params, ctx, rowBlocks(blockRowsOf(options))),
      ),
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
  'dp-marginals': 'it reads counts only, but has not been moved to a count plan yet',
  'smoothed-histogram': 'it reads counts only, but has not been moved to a count plan yet',
  'multinomial-dirichlet': 'it reads counts only, but has not been moved to a count plan yet',
  aim: 'it reads counts only (its workload is fixed before any data is read), but has not been moved to a count plan yet',
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

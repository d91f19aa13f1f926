import { priorDrawMechanism, runPriorDraw } from '../common/prior-draw/run';
import type { BudgetReserver } from '../common/prior-draw/plan';
import type { Schema, Table } from '../../table/types';
import type { Mechanism, ParamValues, Release, RunContext } from '../types';
import { BINOMIAL_BETA_MR_ID, binomialBetaMrMeta } from './meta';

/** The Binomial–Beta synthesizer of McClure & Reiter (2012), DIPS §3.2.1: n independent rows per release. */
export const binomialBetaMr: Mechanism = priorDrawMechanism(binomialBetaMrMeta, 'posterior-mean');

/** Its run with the accountant made explicit (tests pass a recorder). */
export function runBinomialBetaMr(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: BudgetReserver,
): Promise<Release> {
  return runPriorDraw(BINOMIAL_BETA_MR_ID, 'posterior-mean', table, schema, params, ctx, accountant);
}

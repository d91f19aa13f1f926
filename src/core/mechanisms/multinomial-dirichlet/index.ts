import { priorDrawMechanism, runPriorDraw } from '../common/prior-draw/run';
import type { BudgetReserver } from '../common/prior-draw/plan';
import type { Schema, Table } from '../../table/types';
import type { Mechanism, ParamValues, Release, RunContext } from '../types';
import { MULTINOMIAL_DIRICHLET_ID, multinomialDirichletMeta } from './meta';

/** The Multinomial–Dirichlet synthesizer (Abowd & Vilhuber 2008; DIPS §3.2.1): a posterior draw per release. */
export const multinomialDirichlet: Mechanism = priorDrawMechanism(multinomialDirichletMeta, 'posterior');

/** Its run with the accountant made explicit (tests pass a recorder). */
export function runMultinomialDirichlet(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: BudgetReserver,
): Promise<Release> {
  return runPriorDraw(MULTINOMIAL_DIRICHLET_ID, 'posterior', table, schema, params, ctx, accountant);
}

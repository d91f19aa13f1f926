import type { Accountant } from '../../privacy/accountant';
import { priorDrawMechanism, runPriorDraw } from '../common/prior-draw/run';
import type { Schema, Table } from '../../table/types';
import type { ParamValues, RunContext } from '../types';
import { multinomialDirichletMeta } from './meta';

export type { PriorDrawDiagnostics } from '../common/prior-draw/run';

/** The Multinomial–Dirichlet synthesizer (Abowd & Vilhuber 2008; DIPS §3.2.1): a posterior draw per release. */
export const multinomialDirichlet = priorDrawMechanism(multinomialDirichletMeta, 'posterior');

/** Its run with the accountant made explicit (tests pass a recorder). */
export function runMultinomialDirichlet(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: Accountant,
) {
  return runPriorDraw(multinomialDirichlet, table, schema, params, ctx, accountant);
}

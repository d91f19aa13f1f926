import type { Accountant } from '../../privacy/accountant';
import { priorDrawMechanism, runPriorDraw } from '../common/prior-draw/run';
import type { Schema, Table } from '../../table/types';
import type { ParamValues, RunContext } from '../types';
import { binomialBetaMrMeta } from './meta';

export type { PriorDrawDiagnostics } from '../common/prior-draw/run';

/** The Binomial–Beta synthesizer of McClure & Reiter (2012), DIPS §3.2.1: n independent rows per release. */
export const binomialBetaMr = priorDrawMechanism(binomialBetaMrMeta, 'posterior-mean');

/** Its run with the accountant made explicit (tests pass a recorder). */
export function runBinomialBetaMr(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: Accountant,
) {
  return runPriorDraw(binomialBetaMr, table, schema, params, ctx, accountant);
}

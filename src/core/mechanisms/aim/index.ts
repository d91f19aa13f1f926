import type { Schema, Table } from '../../table/types';
import { WHOLE_TABLES } from '../common/rows/dataset-form';
import type { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import { defineMechanism } from '../shape/define-mechanism';
import type { ParamValues, RunContext } from '../types';
import { aimMeta } from './meta';
import { drawAim, readAim } from './run-aim';

export type { AimDiagnostics } from './run-aim';

/**
 * AIM: adaptive, iterative selection and measurement of marginals, fitted by a graphical model. It
 * reads each column's levels, reserves its two steps (meta.ts) and draws (run-aim.ts).
 */
export const aim = defineMechanism(aimMeta, { read: readAim, draw: drawAim });

/** The run on whole tables, optionally on a given accountant (tests record its reservations). */
export function runAim(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: ZcdpAccountant,
) {
  return aim.drawFromTable(table, schema, params, ctx, WHOLE_TABLES, accountant);
}

import type { Mechanism } from '../types';
import { aimMeta } from './meta';
import { drawAim, runAim } from './run-aim';
import { rowBlocks } from '../common/dataset-form';
import { zcdpAccountantFor } from '../common/pgm/pgm-budget';
import { blockRowsOf } from '../release-blocks';
import { AIM_ID } from './meta';

/** AIM: adaptive, iterative selection and measurement of marginals, fitted by a graphical model. */
export const aim: Mechanism = {
  ...aimMeta,
  run: (table, schema, params, ctx) => runAim(table, schema, params, ctx),
  runInBlocks: (table, schema, params, ctx, options) =>
    drawAim(
      table,
      schema,
      params,
      ctx,
      zcdpAccountantFor(ctx, AIM_ID, ctx.meter),
      rowBlocks(blockRowsOf(options)),
    ),
};

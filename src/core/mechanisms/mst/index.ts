import type { Mechanism } from '../types';
import { mstMeta } from './meta';
import { drawMst, runMst } from './run-mst';
import { rowBlocks } from '../common/dataset-form';
import { zcdpAccountantFor } from '../common/pgm/pgm-budget';
import { blockRowsOf } from '../release-blocks';
import { MST_ID } from './meta';

/** MST: noisy one- and two-way marginals on a privately chosen spanning tree, fitted by a graphical model. */
export const mst: Mechanism = {
  ...mstMeta,
  run: (table, schema, params, ctx) => runMst(table, schema, params, ctx),
  runInBlocks: (table, schema, params, ctx, options) =>
    drawMst(
      table,
      schema,
      params,
      ctx,
      zcdpAccountantFor(ctx, MST_ID, ctx.meter),
      rowBlocks(blockRowsOf(options)),
    ),
};

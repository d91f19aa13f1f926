import type { Mechanism } from '../types';
import { mstMeta } from './meta';
import { runMst } from './run-mst';

/** MST: noisy one- and two-way marginals on a privately chosen spanning tree, fitted by a graphical model. */
export const mst: Mechanism = {
  ...mstMeta,
  run: (table, schema, params, ctx) => runMst(table, schema, params, ctx),
};

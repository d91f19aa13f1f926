import type { Mechanism } from '../types';
import { aimMeta } from './meta';
import { runAim } from './run-aim';

/** AIM: adaptive, iterative selection and measurement of marginals, fitted by a graphical model. */
export const aim: Mechanism = {
  ...aimMeta,
  run: (table, schema, params, ctx) => runAim(table, schema, params, ctx),
};

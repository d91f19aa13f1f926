/**
 * MST: noisy one- and two-way marginals on a privately chosen spanning tree, fitted by a graphical
 * model; `defineMechanism(mstMeta, { read, draw })` in run-mst.ts, beside the draw.
 */
export { mst, runMst } from './run-mst';

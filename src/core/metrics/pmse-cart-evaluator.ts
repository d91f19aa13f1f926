import type { CartOptions } from '../models/cart/cart-types';
import { CartWorkspace } from '../models/cart/cart-workspace';
import { RpartTreeGrower, validateCartOptions } from '../models/cart/grow-rpart-tree';
import { cartPmseFromLeaves } from './pmse-helpers';

/** A reusable CART pMSE for a fixed real table and a stream of synthetic tables of one size. */
export interface CartPmseEvaluator {
  readonly nReal: number;
  readonly nSynth: number;
  /** pMSE of the real table against `synthColumns` (same column count and order, nSynth rows each). */
  evaluate(synthColumns: readonly Float64Array[]): number;
  /** Leaf count of the tree of the last `evaluate` call. */
  lastLeafCount(): number;
}

/**
 * Fast CART pMSE for an MCMC loop (Snoke & Slavković 2018, Algorithm 1, with an rpart tree):
 * rows = real (label 0) then synthetic (label 1), N = n_real + n_synth, c = n_synth / N; a
 * Gini tree with rpart semantics (grow-rpart-tree.ts) is fitted to the labels and
 *   pMSE = (1/N) Σ_i (p̂_i − c)² = (1/N) Σ_leaves n_t (n1_t/n_t − c)².
 *
 * Numeric columns only, no missing values (every value must be finite), no constant-column
 * handling needed (a constant column never splits). The real columns are sorted once here; each
 * call sorts the synthetic columns (radix, O(n_synth)), merges them with the presorted real rows
 * (O(N)) and grows the tree in buffers reused across calls: no allocation per call.
 * Matches `pmse_ref.R --model cart` to rounding (fixtures in tests/fixtures/pmse).
 *
 * Throws a RangeError for empty or ragged columns or invalid options; `evaluate` throws on a
 * column count or length mismatch or a non-finite synthetic value.
 */
export function makeCartPmseEvaluator(
  realColumns: readonly Float64Array[],
  nSynth: number,
  options: CartOptions,
): CartPmseEvaluator {
  validateCartOptions(options);
  const q = realColumns.length;
  if (q === 0) throw new RangeError('makeCartPmseEvaluator needs at least one column');
  const nReal = realColumns[0]!.length;
  if (nReal < 1 || !Number.isInteger(nSynth) || nSynth < 1) {
    throw new RangeError(
      `makeCartPmseEvaluator needs rows on both sides (n_real = ${nReal}, n_synth = ${nSynth})`,
    );
  }
  for (const column of realColumns) {
    if (column.length !== nReal) throw new RangeError('makeCartPmseEvaluator: real columns differ in length');
    for (let i = 0; i < nReal; i++) {
      if (!Number.isFinite(column[i]!))
        throw new RangeError(`makeCartPmseEvaluator: real value ${i} is not finite`);
    }
  }
  const total = nReal + nSynth;
  const share = nSynth / total;
  const frozenOptions: CartOptions = { ...options };

  const workspace = new CartWorkspace();
  workspace.prepare(
    total,
    realColumns.map(() => false),
    realColumns.map(() => 0),
  );
  for (let i = 0; i < total; i++) workspace.labels[i] = i < nReal ? 0 : 1;
  const grower = new RpartTreeGrower(workspace);

  const realSortedRows = realColumns.map(() => new Int32Array(nReal));
  const realSortedValues = realColumns.map(() => new Float64Array(nReal));
  realColumns.forEach((column, j) =>
    workspace.sorter.sort(column, nReal, realSortedRows[j]!, realSortedValues[j]!),
  );
  const synthSortedRows = new Int32Array(nSynth);
  const synthSortedValues = new Float64Array(nSynth);
  let leafCount = 0;

  const mergeColumn = (j: number, synthColumn: Float64Array): void => {
    for (let i = 0; i < nSynth; i++) {
      if (!Number.isFinite(synthColumn[i]!)) {
        throw new RangeError(`CART pMSE: synthetic column ${j} row ${i} is not finite`);
      }
    }
    workspace.sorter.sort(synthColumn, nSynth, synthSortedRows, synthSortedValues);
    const values = workspace.sortedValuesScratch;
    const rows = workspace.rowBuffers[0][j]!;
    const realValues = realSortedValues[j]!;
    const realRows = realSortedRows[j]!;
    let a = 0;
    let b = 0;
    let k = 0;
    while (a < nReal && b < nSynth) {
      if (realValues[a]! <= synthSortedValues[b]!) {
        values[k] = realValues[a]!;
        rows[k++] = realRows[a++]!;
      } else {
        values[k] = synthSortedValues[b]!;
        rows[k++] = nReal + synthSortedRows[b++]!;
      }
    }
    while (a < nReal) {
      values[k] = realValues[a]!;
      rows[k++] = realRows[a++]!;
    }
    while (b < nSynth) {
      values[k] = synthSortedValues[b]!;
      rows[k++] = nReal + synthSortedRows[b++]!;
    }
    workspace.encodeSortedSlot(j);
  };

  return {
    nReal,
    nSynth,
    evaluate(synthColumns: readonly Float64Array[]): number {
      if (synthColumns.length !== q) {
        throw new RangeError(`CART pMSE: expected ${q} synthetic columns, got ${synthColumns.length}`);
      }
      for (let j = 0; j < q; j++) {
        const column = synthColumns[j]!;
        if (column.length < nSynth)
          throw new RangeError(`CART pMSE: synthetic column ${j} has fewer than ${nSynth} rows`);
        mergeColumn(j, column);
      }
      const nodeCount = grower.grow(frozenOptions);
      leafCount = 0;
      for (let t = 0; t < nodeCount; t++) if (workspace.nodeSplitColumn[t]! < 0) leafCount++;
      return cartPmseFromLeaves(workspace, share);
    },
    lastLeafCount: () => leafCount,
  };
}

import { poolPredictors, type PooledPredictors } from '../../models/design-matrix';
import type { Table } from '../../table/types';
import { selectRows } from '../select-rows';

/** Training rows then test rows, predictors pooled over all parts so codes and dummies agree. */
export interface TrainTestData {
  pooled: PooledPredictors;
  nTrain: number;
  nTest: number;
  yTrain: Uint8Array;
  yTest: Uint8Array;
}

/** A table and one 0/1 label per row (255 = missing label: the row is left out). */
export interface LabelledTable {
  table: Table;
  labels: Uint8Array;
}

function labelledRows(labels: Uint8Array): Uint32Array {
  let count = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i] !== 255) count++;
  const rows = new Uint32Array(count);
  for (let i = 0, k = 0; i < labels.length; i++) if (labels[i] !== 255) rows[k++] = i;
  return rows;
}

/**
 * Stacks training parts then test parts for a classifier: rows with a missing label are dropped, and
 * the predictor columns are pooled with the normative preprocessing (design-matrix.ts: levels in
 * code-point order with missing as "<NA>", numeric missing as 0 plus an indicator, constant columns
 * dropped), so all parts share one encoding. O(total rows · m).
 */
export function stackForClassifier(
  trainParts: LabelledTable[],
  testParts: LabelledTable[],
  predictors: string[],
): TrainTestData {
  const parts = [...trainParts, ...testParts].map(({ table, labels }) => {
    const rows = labelledRows(labels);
    return { table: selectRows(table, rows), labels: Uint8Array.from(rows, (i) => labels[i]!) };
  });
  const pooled = poolPredictors(
    parts.map((part) => part.table),
    { columns: predictors },
  );
  const concat = (list: typeof parts) => {
    const out = new Uint8Array(list.reduce((s, part) => s + part.labels.length, 0));
    let offset = 0;
    for (const part of list) {
      out.set(part.labels, offset);
      offset += part.labels.length;
    }
    return out;
  };
  const yTrain = concat(parts.slice(0, trainParts.length));
  const yTest = concat(parts.slice(trainParts.length));
  return { pooled, nTrain: yTrain.length, nTest: yTest.length, yTrain, yTest };
}

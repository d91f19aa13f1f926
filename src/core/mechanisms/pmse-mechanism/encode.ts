import type { Table } from '../../table/types';
import type { SynthesisModel } from './model';

/**
 * Real data in the model's space: one Float64Array per model column (model order), numeric values
 * as stored, categorical values as the index of their label in the schema's category list; NaN
 * where the value is missing or its label is not a declared category. A row-wise map, so replacing
 * one real row changes one encoded row and the sensitivity argument is unaffected.
 * Throws RangeError when the table lacks a model column or a column has the wrong kind.
 */
export function encodeTableInModelSpace(table: Table, model: SynthesisModel): Float64Array[] {
  return model.columns.map((modelColumn) => {
    const column = table.columns.find((candidate) => candidate.name === modelColumn.name);
    if (!column) throw new RangeError(`The table has no column \`${modelColumn.name}\`.`);
    if (column.kind !== modelColumn.kind) {
      throw new RangeError(
        `Column \`${modelColumn.name}\` is ${column.kind} in the table but ${modelColumn.kind} in the schema.`,
      );
    }
    const out = new Float64Array(table.nRows);
    if (column.kind === 'numeric') {
      for (let i = 0; i < table.nRows; i++) out[i] = column.missing[i] ? NaN : column.values[i]!;
      return out;
    }
    const levelOfCode = column.dictionary.map((label) => {
      const level = modelColumn.categories.indexOf(label);
      return level >= 0 ? level : NaN;
    });
    for (let i = 0; i < table.nRows; i++)
      out[i] = column.missing[i] ? NaN : (levelOfCode[column.codes[i]!] ?? NaN);
    return out;
  });
}

/**
 * Number of predictor columns given to the pMSE classifier: per numeric column its value, per
 * categorical column with K levels one 0/1 column per level (a single one when K = 2, none when
 * K = 1), plus a 0/1 missing indicator for columns declared able to be missing.
 */
export function countPmseFeatures(model: SynthesisModel): number {
  let count = 0;
  for (const column of model.columns)
    count += pmseFeatureWidth(column.kind, column.categories.length) + (column.mayBeMissing ? 1 : 0);
  return count;
}

function pmseFeatureWidth(kind: 'numeric' | 'categorical', levels: number): number {
  if (kind === 'numeric') return 1;
  return levels <= 1 ? 0 : levels === 2 ? 1 : levels;
}

export function makePmseFeatureColumns(model: SynthesisModel, rows: number): Float64Array[] {
  return Array.from({ length: countPmseFeatures(model) }, () => new Float64Array(rows));
}

/**
 * Writes the pMSE classifier's predictors for model-space columns into `features`
 * (countPmseFeatures(model) arrays of the same length). A missing numeric value becomes the
 * column's standardisation centre (its indicator, when modelled, tells it apart); a missing or
 * undeclared category has all its level columns 0. The same map is applied to real and synthetic
 * rows. CART only uses the order of values, so the original units are kept. No allocation.
 */
export function writePmseFeatures(
  model: SynthesisModel,
  modelSpace: Float64Array[],
  features: Float64Array[],
): void {
  let f = 0;
  for (let t = 0; t < model.columns.length; t++) {
    const column = model.columns[t]!;
    const values = modelSpace[t]!;
    const rows = values.length;
    if (column.kind === 'numeric') {
      const target = features[f++]!;
      for (let i = 0; i < rows; i++) {
        const value = values[i]!;
        target[i] = value === value ? value : column.center;
      }
    } else {
      const levels = column.categories.length;
      const width = pmseFeatureWidth('categorical', levels);
      if (width === 1) {
        const target = features[f]!;
        for (let i = 0; i < rows; i++) target[i] = values[i] === 1 ? 1 : 0;
      } else {
        for (let k = 0; k < width; k++) {
          const target = features[f + k]!;
          for (let i = 0; i < rows; i++) target[i] = values[i] === k ? 1 : 0;
        }
      }
      f += width;
    }
    if (column.mayBeMissing) {
      const target = features[f++]!;
      for (let i = 0; i < rows; i++) target[i] = values[i] === values[i] ? 0 : 1;
    }
  }
}

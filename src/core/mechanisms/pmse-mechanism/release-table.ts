import { makeNormalSampler, type Rng } from '../../rng';
import type { Column, Schema, Table } from '../../table/types';
import type { SynthesisModel } from './model';
import {
  drawModelNoise,
  makeModelSpaceColumns,
  makeSynthesisScratch,
  synthesizeModelSpace,
} from './synthesize';

/**
 * One released synthetic table X^s ~ g(θ̃) with `rows` rows, drawn with fresh noise from `rng`
 * (post-processing of the DP parameter θ̃: Snoke & Slavković 2018, Proposition 1 and Algorithm 2,
 * step 2). Columns come back in schema order; categorical columns use the declared categories as
 * their dictionary; missing values are NaN / code 0 with the missing flag set.
 */
export function synthesizeReleaseTable(
  model: SynthesisModel,
  schema: Schema,
  theta: ArrayLike<number>,
  rows: number,
  rng: Rng,
): Table {
  const normal = makeNormalSampler(rng);
  const noise = drawModelNoise(model, rows, rng, () => normal(0, 1));
  const modelSpace = makeModelSpaceColumns(model, rows);
  synthesizeModelSpace(model, theta, noise, makeSynthesisScratch(model), modelSpace);
  const columns = schema.columns.map((spec): Column => {
    const t = model.columns.findIndex((column) => column.name === spec.name);
    const values = modelSpace[t]!;
    const missing = Uint8Array.from(values, (value) => (value === value ? 0 : 1));
    if (spec.type === 'numeric') return { kind: 'numeric', name: spec.name, values, missing };
    const codes = Uint32Array.from(values, (value) => (value === value ? value : 0));
    return {
      kind: 'categorical',
      name: spec.name,
      codes,
      dictionary: [...model.columns[t]!.categories],
      missing,
    };
  });
  return { nRows: rows, columns };
}

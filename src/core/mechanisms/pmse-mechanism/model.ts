import type { ColumnSchema, Schema } from '../../table/types';
import { factSource, isPublicSource } from '../../table/schema-facts';

/**
 * The synthesis model g(θ) of the pMSE mechanism: a sequential (fully conditional) parametric model
 * over the columns in a chosen order (Snoke & Slavković 2018, §5: X1 ~ N(θ1, θ2),
 * X2 ~ N(θ3 + θ4·x1, θ5)). Column t is modelled given the design
 * d_t = (1, features of columns 1 … t−1):
 *   – numeric:      z_t ~ N(β·d_t, σ²) on the standardised scale z = (x − center)/scale, with
 *                   parameters β (|d_t| of them) and log σ;
 *   – categorical:  multinomial logit, P(level k) ∝ exp(β_k·d_t) for k = 1 … K−1, level 0 the
 *                   reference (K−1 blocks of |d_t| parameters);
 *   – missing flag: for a column declared able to be missing, P(missing) = logistic(γ·d_t) comes
 *                   first (|d_t| parameters) and the value model applies to present rows only.
 * Features a column contributes to later designs: numeric → z (0 when missing); categorical →
 * K−1 treatment dummies (all 0 when missing); plus a 0/1 missing indicator when it may be missing.
 *
 * Everything here is built from the schema and parameters only, never from the data: the
 * standardisation uses declared bounds (center = midpoint, scale = width/4) and is the identity
 * without them, so the paper's example is reproduced exactly when no bounds are declared.
 */
export interface ModelColumn {
  name: string;
  kind: 'numeric' | 'categorical';
  /** Declared able to hold missing values (parameter `missingColumns`), so a missing flag is modelled. */
  mayBeMissing: boolean;
  /** Standardisation of a numeric column: z = (x − center) / scale. */
  center: number;
  scale: number;
  /** Bounds synthetic values are clamped to (declared or inferred), or null. */
  bounds: [number, number] | null;
  integer: boolean;
  /** Levels of a categorical column (code k ↔ categories[k]); empty for numeric columns. */
  categories: string[];
  /** Length of d_t: 1 + the features of the earlier columns. */
  designWidth: number;
  /** Where this column's own features start in the full design row. */
  featureOffset: number;
  /** Number of features this column adds to later designs. */
  featureWidth: number;
  /** Index in θ of the first missing-flag coefficient, or −1. */
  missingOffset: number;
  /** Index in θ of the first value-model parameter. */
  valueOffset: number;
  /** Parameters of this column (missing flag included). */
  parameterCount: number;
}

export interface SynthesisModel {
  columns: ModelColumn[];
  /** k, the dimension of θ. */
  parameterCount: number;
  /** 1 + the features of every column: the width of a full design row. */
  fullDesignWidth: number;
}

/**
 * Builds g(θ) for `schema` with the columns in `order` (every schema column exactly once) and a
 * missing flag for the columns in `mayBeMissing`. Throws RangeError naming the problem when the
 * order is not a permutation of the schema's columns or a categorical column has no categories
 * (check() reports the same problems as sentences before a run).
 * Example: two numeric columns without bounds, no missing flags → 2 + 3 = 5 parameters.
 */
export function buildSynthesisModel(
  schema: Schema,
  order: string[],
  mayBeMissing: ReadonlySet<string>,
): SynthesisModel {
  const problems = describeOrderProblems(schema, order);
  if (problems.length > 0) throw new RangeError(problems.join(' '));
  const columns: ModelColumn[] = [];
  let designWidth = 1;
  let parameterCount = 0;
  for (const name of order) {
    const spec = schema.columns.find((column) => column.name === name)!;
    const missing = mayBeMissing.has(name);
    const column = describeColumn(spec, missing, designWidth, parameterCount);
    columns.push(column);
    designWidth += column.featureWidth;
    parameterCount += column.parameterCount;
  }
  return { columns, parameterCount, fullDesignWidth: designWidth };
}

/** k = dim θ: Σ_t [|d_t| (missing flag) + |d_t| + 1 (numeric) or (K−1)|d_t| (categorical)]. */
export function countModelParameters(model: SynthesisModel): number {
  return model.parameterCount;
}

/** Sentences describing why `order` is not a permutation of the schema's columns (empty if it is). */
export function describeOrderProblems(schema: Schema, order: string[]): string[] {
  const problems: string[] = [];
  const known = new Set(schema.columns.map((column) => column.name));
  const seen = new Set<string>();
  for (const name of order) {
    if (!known.has(name)) problems.push(`Column order names \`${name}\`, which is not in the schema.`);
    else if (seen.has(name)) problems.push(`Column order names \`${name}\` twice.`);
    seen.add(name);
  }
  for (const column of schema.columns) {
    if (!seen.has(column.name)) problems.push(`Column order leaves out \`${column.name}\`.`);
  }
  for (const column of schema.columns) {
    if (column.type === 'categorical' && (column.categories?.length ?? 0) === 0) {
      problems.push(`Categorical column \`${column.name}\` needs its list of categories.`);
    }
  }
  return problems;
}

function describeColumn(
  spec: ColumnSchema,
  mayBeMissing: boolean,
  designWidth: number,
  parametersBefore: number,
): ModelColumn {
  const missingParameters = mayBeMissing ? designWidth : 0;
  const missingOffset = mayBeMissing ? parametersBefore : -1;
  const valueOffset = parametersBefore + missingParameters;
  const indicator = mayBeMissing ? 1 : 0;
  if (spec.type === 'numeric') {
    const declaredBounds = isPublicSource(factSource(spec, 'bounds')) && spec.bounds ? spec.bounds : null;
    const width = declaredBounds ? declaredBounds[1] - declaredBounds[0] : 0;
    return {
      name: spec.name,
      kind: 'numeric',
      mayBeMissing,
      center: declaredBounds && width > 0 ? (declaredBounds[0] + declaredBounds[1]) / 2 : 0,
      scale: declaredBounds && width > 0 ? width / 4 : 1,
      // Only declared or DP-learned bounds clamp: inferred ones are the data's own extremes (the paper needs no bounds).
      bounds: declaredBounds ? [declaredBounds[0], declaredBounds[1]] : null,
      integer: spec.integer === true,
      categories: [],
      designWidth,
      featureOffset: designWidth,
      featureWidth: 1 + indicator,
      missingOffset,
      valueOffset,
      parameterCount: missingParameters + designWidth + 1,
    };
  }
  const categories = spec.categories ?? [];
  const levels = categories.length;
  return {
    name: spec.name,
    kind: 'categorical',
    mayBeMissing,
    center: 0,
    scale: 1,
    bounds: null,
    integer: false,
    categories: [...categories],
    designWidth,
    featureOffset: designWidth,
    featureWidth: Math.max(0, levels - 1) + indicator,
    missingOffset,
    valueOffset,
    parameterCount: missingParameters + Math.max(0, levels - 1) * designWidth,
  };
}

/** Names of the design features: "intercept", then each column's features in order. */
export function designFeatureNames(model: SynthesisModel): string[] {
  const names = ['intercept'];
  for (const column of model.columns) {
    if (column.kind === 'numeric') names.push(column.name);
    else
      for (let k = 1; k < column.categories.length; k++) names.push(`${column.name}=${column.categories[k]}`);
    if (column.mayBeMissing) names.push(`${column.name} missing`);
  }
  return names;
}

/**
 * A readable name for every θ coordinate, e.g. "x2 | intercept", "x2 | x1", "x2 | log σ",
 * "sex=M | intercept", "age missing | intercept".
 */
export function modelParameterNames(model: SynthesisModel): string[] {
  const features = designFeatureNames(model);
  const names: string[] = [];
  for (const column of model.columns) {
    const design = features.slice(0, column.designWidth);
    if (column.mayBeMissing) for (const feature of design) names.push(`${column.name} missing | ${feature}`);
    if (column.kind === 'numeric') {
      for (const feature of design) names.push(`${column.name} | ${feature}`);
      names.push(`${column.name} | log σ`);
    } else {
      for (let k = 1; k < column.categories.length; k++) {
        for (const feature of design) names.push(`${column.name}=${column.categories[k]} | ${feature}`);
      }
    }
  }
  return names;
}

/**
 * The data-independent centre of the chains' starting points: every coefficient 0 and every log σ 0,
 * i.e. each standardised numeric column N(0, 1) (the middle of its declared bounds with a quarter of
 * their width as standard deviation), uniform categories and a missing probability of ½.
 */
export function modelNeutralPoint(model: SynthesisModel): Float64Array {
  return new Float64Array(model.parameterCount);
}

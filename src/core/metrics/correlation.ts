import type { CategoricalColumn, Column, NumericColumn, Table } from '../table/types';
import { alignColumnsByName } from './align-columns';

/** Which association measure a matrix cell holds. */
export type AssociationMeasure = 'pearson' | 'cramers-v' | 'correlation-ratio';

/** Association matrix of one table: values[i][j] for columns i, j (null where undefined). */
export interface AssociationMatrix {
  columns: string[];
  measures: AssociationMeasure[][];
  values: (number | null)[][];
}

/** Real, synthetic and difference matrices over the same columns. */
export interface AssociationComparison {
  columns: string[];
  measures: AssociationMeasure[][];
  real: (number | null)[][];
  synth: (number | null)[][];
  /** synth − real, null where either is undefined. */
  difference: (number | null)[][];
  /** Mean |synth − real| over the defined pairs above the diagonal; null if there are none. */
  meanAbsoluteDifference: number | null;
}

/** Largest dense contingency table (r · c cells) before switching to a sparse count. */
const DENSE_CONTINGENCY_MAX_CELLS = 4_000_000;

/**
 * Pearson correlation r = Σ(x − x̄)(y − ȳ) / √(Σ(x − x̄)² Σ(y − ȳ)²) over the rows where both values
 * are present (pairwise complete observations, as pandas `DataFrame.corr`; Pearson 1896). Two passes
 * (means, then centred sums). null with fewer than two rows or when either variable is constant.
 * Example: x = [1, 2, 3], y = [2, 4, 7] → 0.9933992677987828.
 */
export function pearsonCorrelation(x: NumericColumn, y: NumericColumn): number | null {
  const n = x.values.length;
  let count = 0;
  let sumX = 0;
  let sumY = 0;
  for (let i = 0; i < n; i++) {
    if (x.missing[i] === 1 || y.missing[i] === 1) continue;
    sumX += x.values[i]!;
    sumY += y.values[i]!;
    count++;
  }
  if (count < 2) return null;
  const meanX = sumX / count;
  const meanY = sumY / count;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    if (x.missing[i] === 1 || y.missing[i] === 1) continue;
    const dx = x.values[i]! - meanX;
    const dy = y.values[i]! - meanY;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  const r = sxy / Math.sqrt(sxx * syy);
  return Math.max(-1, Math.min(1, r));
}

/** Renumbers the observed codes of a categorical column among the given rows to 0 … k − 1. */
function observedLevelIndex(
  column: CategoricalColumn,
  rows: Uint32Array,
): { index: Int32Array; levels: number } {
  const index = new Int32Array(column.dictionary.length).fill(-1);
  let levels = 0;
  for (let k = 0; k < rows.length; k++) {
    const code = column.codes[rows[k]!]!;
    if (index[code] === -1) index[code] = levels++;
  }
  return { index, levels };
}

/**
 * Cramér's V = √(χ² / (n · (min(r, c) − 1))) for two categorical columns (Cramér 1946, §21.9), with
 * χ² = Σ (O − E)² / E the Pearson statistic without continuity correction over the r × c table of
 * the levels observed in the rows where both are present (as scipy.stats.contingency.association,
 * method "cramer", correction=False). null with no such rows or fewer than two observed levels on a
 * side. Cost O(n + r·c).
 */
export function cramersV(a: CategoricalColumn, b: CategoricalColumn): number | null {
  const n = a.codes.length;
  let count = 0;
  for (let i = 0; i < n; i++) if (a.missing[i] !== 1 && b.missing[i] !== 1) count++;
  if (count === 0) return null;
  const rows = new Uint32Array(count);
  for (let i = 0, k = 0; i < n; i++) if (a.missing[i] !== 1 && b.missing[i] !== 1) rows[k++] = i;
  const levelsA = observedLevelIndex(a, rows);
  const levelsB = observedLevelIndex(b, rows);
  const r = levelsA.levels;
  const c = levelsB.levels;
  if (Math.min(r, c) < 2) return null;
  const rowTotals = new Float64Array(r);
  const columnTotals = new Float64Array(c);
  const cellCounts = new Map<number, number>();
  const dense = r * c <= DENSE_CONTINGENCY_MAX_CELLS ? new Float64Array(r * c) : null;
  for (let k = 0; k < count; k++) {
    const i = levelsA.index[a.codes[rows[k]!]!]!;
    const j = levelsB.index[b.codes[rows[k]!]!]!;
    rowTotals[i]!++;
    columnTotals[j]!++;
    if (dense) dense[i * c + j]!++;
    else cellCounts.set(i * c + j, (cellCounts.get(i * c + j) ?? 0) + 1);
  }
  let chiSquare = 0;
  if (dense) {
    for (let i = 0; i < r; i++) {
      for (let j = 0; j < c; j++) {
        const expected = (rowTotals[i]! * columnTotals[j]!) / count;
        const deviation = dense[i * c + j]! - expected;
        chiSquare += (deviation * deviation) / expected;
      }
    }
  } else {
    // Σ over all cells = Σ_observed (O − E)²/E + Σ_empty E, and Σ_empty E = n − Σ_observed E.
    let observedExpected = 0;
    for (const [key, observed] of cellCounts) {
      const expected = (rowTotals[Math.floor(key / c)]! * columnTotals[key % c]!) / count;
      observedExpected += expected;
      chiSquare += ((observed - expected) * (observed - expected)) / expected;
    }
    chiSquare += count - observedExpected;
  }
  return Math.min(1, Math.sqrt(chiSquare / (count * (Math.min(r, c) - 1))));
}

/**
 * Correlation ratio η = √(SS_between / SS_total) of a numeric column y across the groups of a
 * categorical column (Pearson 1903; Fisher 1925 §45): SS_between = Σ_g n_g (ȳ_g − ȳ)²,
 * SS_total = Σ (y − ȳ)², over the rows where both are present. η ∈ [0, 1]; η² is the R² of a one-way
 * ANOVA. null with fewer than two rows or when y is constant there. Cost O(n).
 * Example: y = [1, 2, 3, 4], groups = [a, a, b, b] → √(4/5) = 0.8944271909999159.
 */
export function correlationRatio(y: NumericColumn, groups: CategoricalColumn): number | null {
  const n = y.values.length;
  const groupSums = new Float64Array(groups.dictionary.length);
  const groupCounts = new Float64Array(groups.dictionary.length);
  let count = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (y.missing[i] === 1 || groups.missing[i] === 1) continue;
    groupSums[groups.codes[i]!]! += y.values[i]!;
    groupCounts[groups.codes[i]!]!++;
    sum += y.values[i]!;
    count++;
  }
  if (count < 2) return null;
  const mean = sum / count;
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (y.missing[i] === 1 || groups.missing[i] === 1) continue;
    const deviation = y.values[i]! - mean;
    total += deviation * deviation;
  }
  if (total === 0) return null;
  let between = 0;
  for (let g = 0; g < groupCounts.length; g++) {
    if (groupCounts[g] === 0) continue;
    const deviation = groupSums[g]! / groupCounts[g]! - mean;
    between += groupCounts[g]! * deviation * deviation;
  }
  return Math.min(1, Math.sqrt(between / total));
}

function associationOf(a: Column, b: Column): { measure: AssociationMeasure; value: number | null } {
  if (a.kind === 'numeric' && b.kind === 'numeric')
    return { measure: 'pearson', value: pearsonCorrelation(a, b) };
  if (a.kind === 'categorical' && b.kind === 'categorical')
    return { measure: 'cramers-v', value: cramersV(a, b) };
  const value =
    a.kind === 'numeric'
      ? correlationRatio(a, b as CategoricalColumn)
      : correlationRatio(b as NumericColumn, a);
  return { measure: 'correlation-ratio', value };
}

/**
 * Association matrix of one table over the given columns: Pearson r for numeric pairs, Cramér's V
 * for categorical pairs, the correlation ratio η for mixed pairs (all on pairwise complete rows).
 * The diagonal is 1 where the column's measure with itself is defined (non-constant), else null.
 * Cost O(m² · n) plus the contingency tables.
 */
export function associationMatrix(columns: Column[]): AssociationMatrix {
  const m = columns.length;
  const measures: AssociationMeasure[][] = [];
  const values: (number | null)[][] = [];
  for (let i = 0; i < m; i++) {
    measures.push(new Array<AssociationMeasure>(m));
    values.push(new Array<number | null>(m).fill(null));
  }
  for (let i = 0; i < m; i++) {
    for (let j = i; j < m; j++) {
      const { measure, value } = associationOf(columns[i]!, columns[j]!);
      const stored = i === j && value !== null ? 1 : value;
      measures[i]![j] = measure;
      measures[j]![i] = measure;
      values[i]![j] = stored;
      values[j]![i] = stored;
    }
  }
  return { columns: columns.map((column) => column.name), measures, values };
}

/**
 * Association matrices of a real and a synthetic table over the same columns (matched by name, real
 * order), their difference synth − real, and the mean absolute difference over defined pairs above
 * the diagonal — the "pairwise correlation difference" summary used for synthetic data utility.
 */
export function compareAssociations(real: Table, synth: Table): AssociationComparison {
  const pairs = alignColumnsByName(real, synth);
  const realMatrix = associationMatrix(pairs.map((pair) => pair.real));
  const synthMatrix = associationMatrix(pairs.map((pair) => pair.synth));
  const m = pairs.length;
  let absoluteSum = 0;
  let defined = 0;
  const difference = realMatrix.values.map((row, i) =>
    row.map((realValue, j) => {
      const synthValue = synthMatrix.values[i]![j]!;
      if (realValue === null || synthValue === null) return null;
      const d = synthValue - realValue;
      if (j > i) {
        absoluteSum += Math.abs(d);
        defined++;
      }
      return d;
    }),
  );
  return {
    columns: realMatrix.columns,
    measures: realMatrix.measures,
    real: realMatrix.values,
    synth: synthMatrix.values,
    difference,
    meanAbsoluteDifference: m > 1 && defined > 0 ? absoluteSum / defined : null,
  };
}

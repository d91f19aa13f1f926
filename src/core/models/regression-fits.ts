/** The user's regression fitted on several tables with terms pooled over all of them; shared by the regression comparison (metrics) and release inference. */
import { buildDesignMatrix, poolPredictors, type PooledPredictors } from './design-matrix';
import { fitLinearRegression } from './linear';
import { fitLogisticRegression } from './logistic';
import { normalQuantile } from '../stats/normal-quantile';
import { studentTQuantile } from '../stats/student-t';
import { compareByCodePoint } from '../table/code-point-order';
import { dropIncompleteRows } from '../table/drop-incomplete-rows';
import type { Column, Table } from '../table/types';

/** The model a user picks for the regression comparison. */
export interface RegressionSpec {
  /** Response column: numeric for 'linear'; binary (or with `positiveLevel`) for 'logistic'. */
  target: string;
  /** Predictor columns; categorical ones are treatment-coded (first code-point level = reference). */
  predictors: string[];
  /** Default: 'linear' for a numeric target, 'logistic' for a categorical one. */
  family?: 'linear' | 'logistic';
  /** Logistic with a categorical target: the level coded 1 (default: the second of exactly two levels). */
  positiveLevel?: string;
  /** Confidence level of the intervals (default 0.95). */
  level?: number;
}

/** One fitted model in JSON-friendly form: arrays follow `terms`, null where not estimable. */
export interface RegressionFitSummary {
  /** Complete cases used (rows with a missing target or predictor are dropped, as R's na.omit). */
  rowsUsed: number;
  rank: number;
  /** n − rank for linear models; null for logistic (Wald intervals use the normal quantile). */
  residualDf: number | null;
  coefficients: (number | null)[];
  standardErrors: (number | null)[];
  ciLower: (number | null)[];
  ciUpper: (number | null)[];
  /** Logistic only: whether the fit converged. */
  converged?: boolean;
  /**
   * Logistic only: some fitted probabilities are within 1e−8 of 0 or 1 — (quasi-)separation, the
   * maximum likelihood estimate does not exist and coefficients and SEs are not meaningful.
   */
  quasiSeparated?: boolean;
}

interface RawFit {
  coefficients: Float64Array;
  standardErrors: Float64Array;
  rank: number;
  residualDf: number | null;
  converged?: boolean;
  quasiSeparated?: boolean;
  /** Quantile q for the intervals β̂ ∓ q·se. */
  criticalValue: number;
}

/**
 * IRLS stops when |dev − dev_old| / (|dev| + 0.1) is below this (R's glm.control default is 1e−8;
 * a tighter rule costs one or two iterations and makes the coefficients converged to ~1e−12).
 */
const LOGISTIC_DEVIANCE_TOLERANCE = 1e-12;

const finiteOrNull = (x: number | undefined): number | null =>
  x !== undefined && Number.isFinite(x) ? x : null;

function selectColumns(table: Table, names: string[]): Table {
  return {
    nRows: table.nRows,
    columns: names.map((name) => {
      const column = table.columns.find((candidate) => candidate.name === name);
      if (column === undefined) throw new Error(`Column "${name}" is not in the table.`);
      return column;
    }),
  };
}

/** Labels of the design columns, in buildDesignMatrix's order (intercept, then variable blocks). */
function termLabels(pooled: PooledPredictors): string[] {
  const labels = ['(Intercept)'];
  for (const variable of pooled.variables) {
    if (variable.kind === 'numeric') labels.push(variable.name);
    else for (const level of variable.levels.slice(1)) labels.push(`${variable.name}=${level}`);
  }
  return labels;
}

/** Response vectors of the complete-case tables, and the positive level for a categorical logistic target. */
function responses(
  targets: Column[],
  family: 'linear' | 'logistic',
  positiveLevelOption: string | undefined,
): { ys: Float64Array[]; positiveLevel: string | null } {
  if (family === 'linear') {
    return {
      ys: targets.map((column) => {
        if (column.kind !== 'numeric')
          throw new Error(`Linear regression needs a numeric target, "${column.name}" is categorical.`);
        return Float64Array.from(column.values);
      }),
      positiveLevel: null,
    };
  }
  if (targets[0]!.kind === 'numeric') {
    const ys = targets.map((column) => Float64Array.from((column as Column & { kind: 'numeric' }).values));
    if (ys.some((y) => y.some((v) => v !== 0 && v !== 1))) {
      throw new Error(`Logistic regression needs a 0/1 target; "${targets[0]!.name}" has other values.`);
    }
    return { ys, positiveLevel: null };
  }
  const levels = new Set<string>();
  for (const column of targets as (Column & { kind: 'categorical' })[]) {
    for (let i = 0; i < column.codes.length; i++) levels.add(column.dictionary[column.codes[i]!]!);
  }
  const sorted = [...levels].sort(compareByCodePoint);
  const positiveLevel = positiveLevelOption ?? (sorted.length === 2 ? sorted[1]! : undefined);
  if (positiveLevel === undefined) {
    throw new Error(
      `Logistic regression on "${targets[0]!.name}" needs the level to model: it has ${sorted.length} levels (${sorted.slice(0, 5).join(', ')}…).`,
    );
  }
  const ys = (targets as (Column & { kind: 'categorical' })[]).map((column) =>
    Float64Array.from(column.codes, (code) => (column.dictionary[code] === positiveLevel ? 1 : 0)),
  );
  return { ys, positiveLevel };
}

function fitOne(
  family: 'linear' | 'logistic',
  X: Float64Array,
  n: number,
  p: number,
  y: Float64Array,
  level: number,
): RawFit | null {
  if (n === 0) return null;
  if (family === 'linear') {
    const fit = fitLinearRegression(X, n, p, y);
    return {
      coefficients: fit.coefficients,
      standardErrors: fit.standardErrors,
      rank: fit.rank,
      residualDf: fit.residualDf,
      criticalValue: fit.residualDf > 0 ? studentTQuantile((1 + level) / 2, fit.residualDf) : NaN,
    };
  }
  const fit = fitLogisticRegression(X, n, p, y, { epsilon: LOGISTIC_DEVIANCE_TOLERANCE });
  return {
    coefficients: fit.coefficients,
    standardErrors: fit.standardErrors,
    rank: fit.rank,
    residualDf: null,
    converged: fit.converged,
    quasiSeparated: fit.nExtreme > 0,
    criticalValue: normalQuantile((1 + level) / 2),
  };
}

function summarizeFit(fit: RawFit | null, rowsUsed: number, p: number): RegressionFitSummary {
  const empty = () => new Array<number | null>(p).fill(null);
  if (fit === null) {
    return {
      rowsUsed,
      rank: 0,
      residualDf: null,
      coefficients: empty(),
      standardErrors: empty(),
      ciLower: empty(),
      ciUpper: empty(),
    };
  }
  const coefficients = Array.from(fit.coefficients, (v) => finiteOrNull(v));
  const standardErrors = Array.from(fit.standardErrors, (v) => finiteOrNull(v));
  const interval = (sign: number) =>
    coefficients.map((b, j) => {
      const se = standardErrors[j];
      return b === null || se === null || se === undefined
        ? null
        : finiteOrNull(b + sign * fit.criticalValue * se);
    });
  return {
    rowsUsed,
    rank: fit.rank,
    residualDf: fit.residualDf,
    coefficients,
    standardErrors,
    ciLower: interval(-1),
    ciUpper: interval(1),
    ...(fit.converged !== undefined ? { converged: fit.converged } : {}),
    ...(fit.quasiSeparated !== undefined ? { quasiSeparated: fit.quasiSeparated } : {}),
  };
}

/** The same model fitted on several tables, with terms pooled over all of them. */
export interface RegressionFits {
  family: 'linear' | 'logistic';
  positiveLevel: string | null;
  terms: string[];
  droppedConstant: string[];
  /** One summary per table, in the order given. */
  fits: RegressionFitSummary[];
}

/**
 * Fits the user's model on every table (complete cases; categorical predictors treatment-coded with
 * levels pooled over all tables, as compareRegressions describes). `firstName` names tables[0] in the
 * error thrown when it has no complete rows. Cost O(Σ n · p²).
 */
export function fitRegressionOnTables(
  tablesIn: readonly Table[],
  spec: RegressionSpec,
  firstName = 'The first table',
): RegressionFits {
  const level = spec.level ?? 0.95;
  if (spec.predictors.includes(spec.target))
    throw new Error(`The target "${spec.target}" cannot also be a predictor.`);
  const columns = [spec.target, ...spec.predictors];
  const tables = tablesIn.map((table) => dropIncompleteRows(selectColumns(table, columns)).table);
  if (tables[0]!.nRows === 0)
    throw new Error(`${firstName} has no rows without missing values in the model columns.`);
  const targetColumn = tables[0]!.columns[0]!;
  const family = spec.family ?? (targetColumn.kind === 'numeric' ? 'linear' : 'logistic');
  const { ys, positiveLevel } = responses(
    tables.map((table) => table.columns[0]!),
    family,
    spec.positiveLevel,
  );
  const pooled = poolPredictors(tables, { columns: spec.predictors });
  const terms = termLabels(pooled);
  let offset = 0;
  const fits = tables.map((table, t) => {
    const design = buildDesignMatrix(pooled, { rows: [offset, offset + table.nRows] });
    offset += table.nRows;
    if (design.nColumns !== terms.length) throw new Error('Design columns and term labels disagree.');
    const fit = fitOne(family, design.X, table.nRows, design.nColumns, ys[t]!, level);
    return summarizeFit(fit, table.nRows, terms.length);
  });
  return { family, positiveLevel, terms, droppedConstant: pooled.droppedConstant, fits };
}

import { fitRegressionOnTables } from '../models/regression-fits';
import { normalQuantile } from '../stats/normal-quantile';
import { studentTQuantile } from '../stats/student-t';
import { InputError } from '../table/errors';
import type { Column, Table } from '../table/types';
import { combineSyntheticReleases } from './combining-rules';
import { formatEstimand, parseEstimand, type Estimand } from './estimand';

/** An estimate with its standard error, from one table. */
export interface PointEstimate {
  estimate: number;
  se: number;
}

/** One combined parameter: eqs. 9–11 of Bowen & Liu over the releases. */
export interface CombinedParameter {
  /** "(Intercept)", a predictor, "column=level", or the estimand itself for a mean or proportion. */
  term: string;
  estimate: number;
  se: number;
  /** ν = (m − 1)(1 + mW/B)²; null when B = 0 (ν infinite: the normal quantile is used). */
  df: number | null;
  ci: [number, number];
  between: number;
  within: number;
  perRelease: PointEstimate[];
}

export interface ReleaseInference {
  releases: number;
  level: number;
  /** One entry for a mean or a proportion; one per model term for a coefficient. */
  parameters: CombinedParameter[];
  /** Regression family for `coef`. */
  family?: 'linear' | 'logistic';
}

function columnOf(table: Table, name: string): Column {
  const column = table.columns.find((c) => c.name === name);
  if (!column) throw new InputError(`no column '${name}' in a release.`);
  return column;
}

/**
 * Sample mean of the present values and its standard error s/√n_obs (the within-release variance
 * s²/n of DIPS §4.2). Throws InputError for a categorical column or fewer than two present values.
 */
export function meanEstimate(table: Table, name: string): PointEstimate {
  const column = columnOf(table, name);
  if (column.kind !== 'numeric')
    throw new InputError(
      `mean:${name} needs a numeric column; '${name}' is categorical (use proportion:${name}=LEVEL).`,
    );
  let count = 0;
  let mean = 0;
  let m2 = 0;
  for (let i = 0; i < column.values.length; i++) {
    const v = column.values[i]!;
    if (column.missing[i] === 1 || Number.isNaN(v)) continue;
    count++;
    const delta = v - mean;
    mean += delta / count;
    m2 += delta * (v - mean);
  }
  if (count < 2) throw new InputError(`mean:${name} needs at least two present values in every table.`);
  return { estimate: mean, se: Math.sqrt(m2 / (count - 1) / count) };
}

/**
 * Share p̂ of the present values equal to `level` and its standard error √(p̂(1 − p̂)/n_obs)
 * (the within-release variance of DIPS §4.1). A numeric column compares its values with the number
 * `level`. Throws InputError when no value is present.
 */
export function proportionEstimate(table: Table, name: string, level: string): PointEstimate {
  const column = columnOf(table, name);
  let count = 0;
  let hits = 0;
  if (column.kind === 'categorical') {
    const code = column.dictionary.indexOf(level);
    for (let i = 0; i < column.codes.length; i++) {
      if (column.missing[i] === 1) continue;
      count++;
      if (column.codes[i] === code) hits++;
    }
  } else {
    const target = Number(level);
    for (let i = 0; i < column.values.length; i++) {
      if (column.missing[i] === 1 || Number.isNaN(column.values[i]!)) continue;
      count++;
      if (column.values[i] === target) hits++;
    }
  }
  if (count === 0) throw new InputError(`proportion:${name}=${level} needs present values in every table.`);
  const p = hits / count;
  return { estimate: p, se: Math.sqrt((p * (1 - p)) / count) };
}

/** Per-table estimates of each term: one term for a mean or proportion, the model's terms for a coefficient. */
function estimatesPerTable(
  tables: readonly Table[],
  estimand: Estimand,
): { terms: string[]; perTable: PointEstimate[][]; family?: 'linear' | 'logistic' } {
  if (estimand.kind === 'mean')
    return {
      terms: [`mean:${estimand.column}`],
      perTable: tables.map((t) => [meanEstimate(t, estimand.column)]),
    };
  if (estimand.kind === 'proportion')
    return {
      terms: [`proportion:${estimand.column}=${estimand.level}`],
      perTable: tables.map((t) => [proportionEstimate(t, estimand.column, estimand.level)]),
    };
  let fitted;
  try {
    fitted = fitRegressionOnTables(tables, { target: estimand.target, predictors: estimand.predictors });
  } catch (error) {
    throw new InputError(
      `coef:${estimand.target}~${estimand.predictors.join('+')}: ${(error as Error).message}`,
    );
  }
  const perTable = fitted.fits.map((fit, t) =>
    fitted.terms.map((term, j) => {
      const estimate = fit.coefficients[j];
      const se = fit.standardErrors[j];
      if (estimate == null || se == null)
        throw new InputError(
          `coef: the term '${term}' cannot be estimated in table ${t + 1} (aliased, or a level absent from it).`,
        );
      return { estimate, se };
    }),
  );
  return { terms: fitted.terms, perTable, family: fitted.family };
}

/**
 * Inference from m >= 2 synthetic releases (Bowen & Liu, DIPS §3.3, eqs. 9–11): the estimand is
 * computed on each release as if it were the real data (estimate and standard error), then combined
 * with β̄, T = B/m + W and a t interval with ν = (m − 1)(1 + mW/B)² (combining-rules.ts).
 * Throws InputError for fewer than two releases or an estimand a release cannot give.
 */
export function inferFromReleases(
  tables: readonly Table[],
  estimand: Estimand,
  level = 0.95,
): ReleaseInference {
  if (tables.length < 2)
    throw new InputError(
      `inference from synthetic releases needs at least two releases; got ${tables.length}.`,
    );
  const { terms, perTable, family } = estimatesPerTable(tables, estimand);
  const parameters = terms.map((term, j) => {
    const perRelease = perTable.map((row) => row[j]!);
    const combined = combineSyntheticReleases(
      perRelease.map((e) => e.estimate),
      perRelease.map((e) => e.se),
      level,
    );
    return {
      term,
      estimate: combined.estimate,
      se: combined.standardError,
      df: Number.isFinite(combined.degreesOfFreedom) ? combined.degreesOfFreedom : null,
      ci: [combined.ciLower, combined.ciUpper] as [number, number],
      between: combined.betweenVariance,
      within: combined.withinVariance,
      perRelease,
    };
  });
  return { releases: tables.length, level, parameters, ...(family ? { family } : {}) };
}

/** The estimand on the real table, for the data holder: estimate, standard error and a `level` interval. */
export interface RealEstimate {
  term: string;
  estimate: number;
  se: number;
  ci: [number, number];
}

/**
 * The same estimand on the real table (not DP: for the data holder only). Intervals: t with n − 1
 * df for a mean, normal (Wald) for a proportion, the model's own for a coefficient (t with the
 * residual df for linear, normal for logistic). Throws InputError as inferFromReleases does.
 */
export function estimateOnRealTable(table: Table, estimand: Estimand, level = 0.95): RealEstimate[] {
  const { terms, perTable, family } = estimatesPerTable([table], estimand);
  let quantile = normalQuantile((1 + level) / 2);
  if (estimand.kind === 'mean' || (estimand.kind === 'coef' && family === 'linear')) {
    const present = table.nRows - countMissing(table, estimand);
    const df = estimand.kind === 'mean' ? present - 1 : present - terms.length;
    if (df > 0) quantile = studentTQuantile((1 + level) / 2, df);
  }
  return terms.map((term, j) => {
    const { estimate, se } = perTable[0]![j]!;
    return { term, estimate, se, ci: [estimate - quantile * se, estimate + quantile * se] };
  });
}

/** Rows with a missing value in any column the estimand uses. */
function countMissing(table: Table, estimand: Estimand): number {
  const names = estimand.kind === 'coef' ? [estimand.target, ...estimand.predictors] : [estimand.column];
  const columns = names.map((name) => columnOf(table, name));
  let missing = 0;
  for (let i = 0; i < table.nRows; i++) if (columns.some((c) => c.missing[i] === 1)) missing++;
  return missing;
}

/** What the studio's inference panel shows: the combined releases and, for the data holder, the real table. */
export interface InferenceWithRealEstimate {
  estimand: string;
  combined: ReleaseInference;
  /** Not DP: computed from the real data, for the data holder only. */
  real: RealEstimate[];
}

/**
 * Parses `estimandText` (see parseEstimand) against `columns`, combines it over the releases and
 * computes it on the real table. Throws InputError as parseEstimand and inferFromReleases do.
 */
export function inferWithRealEstimate(
  real: Table,
  releases: readonly Table[],
  estimandText: string,
  columns: readonly string[],
): InferenceWithRealEstimate {
  const estimand = parseEstimand(estimandText, columns);
  return {
    estimand: formatEstimand(estimand),
    combined: inferFromReleases(releases, estimand),
    real: estimateOnRealTable(real, estimand),
  };
}

import { Accountant } from '../../privacy/accountant';
import type { ChargeableStep } from '../../privacy/meter';
import { standardAssumptions } from '../../privacy/assumptions';
import type { UnprovenBound } from '../../privacy/types';
import { Rational } from '../../rng/rational';
import { isPublicSource, partSource } from '../../table/schema-facts';
import type { ColumnSchema, NumericColumnSchema, Schema } from '../../table/types';
import type { CategoricalCoding } from '../common/coding/column-coding';
import { completeColumnSentences } from '../common/claims/complete-column-sentences';
import { formatCount } from '../../format/format-count';
import type { ParamValues, PublicContext } from '../types';
import { GRID_STEPS_PER_SENSITIVITY, type MeteredShare } from '../common/noisy-counts/grid-noise';
import { sequentialRegressionSettings, type SequentialRegressionSettings } from './params';
import { certifiableRows, GAP_PER_SENSITIVITY } from './sensitivity';

export const SEQUENTIAL_REGRESSION_ID = 'dp-sequential-regression';

/** What claim() and run() need from an accountant; tests pass a recorder. */
export type BudgetReserver = Pick<Accountant, 'reserve' | 'claim'>;

/**
 * One categorical column's regression: its K = categories classes (class 0, the first category, is the
 * reference; rows with a missing value add no loss) on d predictors: the intercept, the p numeric
 * columns and, for every earlier categorical column, the indicators of its levels 1 … L − 1 (the
 * categories after the first, then missing unless the schema says the column cannot be missing: a
 * complete column has no missing level). A column with one category needs no regression.
 */
export interface RegressionPlan {
  coding: CategoricalCoding;
  classes: number;
  predictors: number;
  /** (K − 1)·d, the dimension of the perturbed coefficient vector. */
  coefficients: number;
  /** The column's index among the categorical columns: the ones before it are predictors. */
  earlier: number;
}

/** The public plan of a run: columns in schema order and every problem. */
export interface SequentialRegressionPlan {
  settings: SequentialRegressionSettings;
  numeric: NumericColumnSchema[];
  categorical: CategoricalCoding[];
  regressions: RegressionPlan[];
  problems: string[];
}

/** Most coefficients one regression may have (memory and time of the solver). */
export const COEFFICIENT_LIMIT = 10_000;

export function planSequentialRegression(
  schema: Schema,
  params: ParamValues,
  n: number | undefined,
): SequentialRegressionPlan {
  const settings = sequentialRegressionSettings(params);
  const problems: string[] = [];
  const numeric: NumericColumnSchema[] = [];
  const categorical: CategoricalCoding[] = [];
  for (const column of schema.columns) {
    if (column.type === 'numeric') {
      const bounds = column.bounds;
      if (!bounds || !(Number.isFinite(bounds[0]) && Number.isFinite(bounds[1]) && bounds[1] > bounds[0]))
        problems.push(`needs bounds for numeric column \`${column.name}\`: declare them in the schema.`);
      else numeric.push(column);
    } else {
      const categories = column.categories ?? [];
      if (categories.length === 0)
        problems.push(
          `needs categories for categorical column \`${column.name}\`: declare them in the schema.`,
        );
      else {
        // A column publicly complete (canBeMissing false, declared or learned with DP) has no missing
        // level; absent or read from the data means one.
        const complete = publiclyComplete(column);
        categorical.push({
          kind: 'categorical',
          name: column.name,
          categories: [...categories],
          levels: categories.length + (complete ? 0 : 1),
          ...(complete ? { complete: true as const } : {}),
        });
      }
    }
  }
  if (schema.columns.length === 0) problems.push('the schema has no columns to synthesize.');
  const p = numeric.length;
  let predictors = 1 + p;
  const regressions: RegressionPlan[] = [];
  categorical.forEach((coding, j) => {
    const classes = coding.categories.length;
    if (classes >= 2)
      regressions.push({ coding, classes, predictors, coefficients: (classes - 1) * predictors, earlier: j });
    predictors += coding.levels - 1;
  });
  for (const regression of regressions) {
    if (regression.coefficients > COEFFICIENT_LIMIT)
      problems.push(
        `the regression of \`${regression.coding.name}\` has ${formatCount(regression.coefficients)} coefficients ` +
          `(${regression.classes - 1} categories beyond the first, times ${regression.predictors} predictors), more than ` +
          `${formatCount(COEFFICIENT_LIMIT)}: put columns with many categories last or leave some out.`,
      );
  }
  // Above N rows the worst-case rounding of a regression's gradient could take more than a quarter of the gap
  // its certificate must prove (sensitivity.ts, certifiableRows): refused, n being public.
  if (n !== undefined)
    for (const regression of regressions) {
      const limit = certifiableRows(regression.predictors, settings.lambda, regression.classes);
      if (n > limit)
        problems.push(
          `the regression of \`${regression.coding.name}\` can be certified for at most ${formatCount(limit)} rows ` +
            `(${regression.classes} classes on ${regression.predictors} ${regression.predictors === 1 ? 'predictor' : 'predictors'}): ` +
            'above that the rounding of its ' +
            `gradient could exceed a quarter of the gap its noise covers; the table has ${formatCount(n)}. Synthesize from a ` +
            `uniform sample of at most ${formatCount(limit)} rows, or choose a mechanism without regressions.`,
        );
    }
  if (n !== undefined && n < p + 2)
    problems.push(
      `needs at least p + 2 = ${p + 2} rows for the inverse-Wishart draw of the ${p} numeric ` +
        `${p === 1 ? 'column' : 'columns'}; the table has ${formatCount(n)}.`,
    );
  return { settings, numeric, categorical, regressions, problems };
}

/**
 * ε and step of every statistic of one release: each numeric column's mean, each covariance entry
 * (covariance[j][l], mirrored), each regression (in plan.regressions order) and each column's missing
 * count (numeric columns first, then categorical, in schema order within each; null for a column
 * that cannot be missing: its count is 0 by the schema and gets no noise and no budget).
 */
export interface ReleaseBudget {
  means: MeteredShare[];
  covariance: MeteredShare[][];
  regressions: MeteredShare[];
  missing: (MeteredShare | null)[];
}

/**
 * Whether the schema says, from public facts, that a column cannot be missing: `canBeMissing: false`
 * declared or learned with DP. A flag read from the data (source `inferred`) is withheld from the
 * release report, so it must not decide which steps exist or their ε: such a column keeps its missing
 * count and missing level, exactly as a column that can be missing.
 */
export function publiclyComplete(column: ColumnSchema): boolean {
  return column.canBeMissing === false && isPublicSource(partSource(column, 'canBeMissing'));
}

/**
 * Whether a column gets a noisy missing count: every column but those publicly complete (a numeric
 * column by its schema entry, a categorical one by its coding, planned with publiclyComplete).
 */
export function canBeMissing(column: NumericColumnSchema | CategoricalCoding): boolean {
  return 'kind' in column ? column.complete !== true : !publiclyComplete(column);
}

/**
 * Budget of a run: ε/M per release (each release sanitizes afresh); of it the share s (`missingShare`)
 * goes to the counts of missing values of the m columns that can be missing, s·ε/(M·m) each (all p
 * numeric and q categorical columns unless the schema says some cannot be missing; with m = 0 there is
 * no such share), and the rest is split evenly over the p means, the p(p + 1)/2 covariance entries
 * and the c regressions, as DIPS §4.3.2 divides ε/5 by 8 (2 means, 3 entries of S, 3 regressions).
 * (With no mean, covariance or regression to pay for, the missing counts get all of ε/M.) Sequential
 * composition: one row touches every statistic. Whether a column has a count depends on the schema's
 * public facts alone (publiclyComplete). Returns budgets[release].
 */
export function reserveSequentialRegression(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  plan: SequentialRegressionPlan,
): ReleaseBudget[] {
  const p = plan.numeric.length;
  const counted = [...plan.numeric, ...plan.categorical].filter(canBeMissing).length;
  const statistics = p + (p * (p + 1)) / 2 + plan.regressions.length;
  const perRelease = Accountant.split(total, releases);
  const missingTotal =
    counted === 0 ? Rational.ZERO : statistics > 0 ? perRelease.mul(plan.settings.missingShare) : perRelease;
  const missing = counted > 0 ? missingTotal.div(Rational.of(counted)) : Rational.ZERO;
  const each = statistics > 0 ? perRelease.sub(missingTotal).div(Rational.of(statistics)) : Rational.ZERO;
  const G = GRID_STEPS_PER_SENSITIVITY;
  return Array.from({ length: releases }, (_, r) => {
    const where = `release ${r + 1} of ${releases}`;
    const share = (step: ChargeableStep): MeteredShare => ({ epsilon: each, step });
    const means = plan.numeric.map((column) =>
      share(
        accountant.reserve(
          `mean of \`${column.name}\` on a grid of (c₁ − c₀)/(${G}·n), sensitivity (c₁ − c₀)/n plus one grid step, ${where}`,
          each,
        ),
      ),
    );
    const covariance: MeteredShare[][] = plan.numeric.map(() => []);
    plan.numeric.forEach((a, j) => {
      plan.numeric.slice(j).forEach((b, offset) => {
        const sensitivity = offset === 0 ? '(c₁ − c₀)²/n' : '(c₁ − c₀)·(d₁ − d₀)/n';
        covariance[j]![j + offset] = covariance[j + offset]![j] = share(
          accountant.reserve(
            `covariance entry (\`${a.name}\`, \`${b.name}\`) on a grid of 1/${G} of its sensitivity ${sensitivity}, ` +
              `plus one grid step, ${where}`,
            each,
          ),
        );
      });
    });
    const regressions = plan.regressions.map((regression) => {
      const kind =
        regression.classes === 2 ? 'logistic' : `multinomial logistic (${regression.classes} classes)`;
      const sensitivity = regression.classes === 2 ? '2/(nλ)' : '2√2/(nλ)';
      return share(
        accountant.reserve(
          `coefficients of the ${kind} regression of \`${regression.coding.name}\` on ${regression.predictors} ` +
            `${regression.predictors === 1 ? 'predictor' : 'predictors'}, output perturbation with L2 sensitivity ${sensitivity} plus twice the solver's gap ` +
            `(1/${GAP_PER_SENSITIVITY} of it), ${where}`,
          each,
        ),
      );
    });
    const missingCounts = [...plan.numeric, ...plan.categorical].map((column) =>
      canBeMissing(column)
        ? {
            epsilon: missing,
            step: accountant.reserve(
              `count of missing values of \`${column.name}\` (sensitivity 1), ${where}`,
              missing,
            ),
          }
        : null,
    );
    return { means, covariance, regressions, missing: missingCounts };
  });
}

/** Why the bound is not proven: only when a regression's continuous noise is drawn. */
export function unprovenFor(plan: SequentialRegressionPlan): UnprovenBound | undefined {
  if (plan.regressions.length === 0) return undefined;
  return {
    unprovenBecause:
      'continuous output-perturbation noise drawn in floating point; ε holds for exact draws, sensitivities proven',
  };
}

export function assumptionsFor(plan: SequentialRegressionPlan, context: PublicContext): string[] {
  const sentences = [
    ...standardAssumptions(context.schema, context.seeded),
    'Numeric bounds and categories are public (declared in the schema or read from it as stated above); ' +
      'numeric values outside the bounds were clamped and a category outside the list counts as missing. A ' +
      'column has a noisy count of missing values (sensitivity 1) unless the schema says, declared or learned ' +
      'with DP, that it cannot be missing; synthetic ' +
      'missing values are placed at uniformly chosen rows, independently of the other columns.',
    ...completeColumnSentences(context.schema, SEQUENTIAL_REGRESSION_MISSING_PART, false),
  ];
  if (plan.numeric.length > 0)
    sentences.push(
      'Sensitivities of the numeric block are for replacing one row with n public: (c₁ − c₀)/n for a mean, ' +
        '(c₁ − c₀)·(d₁ − d₀)/n for a covariance entry (diagonal or not), 1 for a missing count; means and ' +
        'covariances are rounded to grids with one grid step added to the sensitivity and get exact discrete ' +
        'Laplace noise. A missing numeric value counts at the midpoint of its bounds in the statistics and as ' +
        '0 among the predictors.',
    );
  if (plan.regressions.length > 0)
    sentences.push(
      'Each categorical column, in schema order, is regressed on the intercept, the numeric columns mapped to ' +
        '[−1, 1] by their bounds and the indicators of the earlier categorical columns (missing included where ' +
        'the column can be missing), all ' +
        'divided by √(1 + p + j) so that every predictor vector has norm at most 1; a row whose value of the ' +
        'column is missing adds no loss. The minimiser of the mean loss plus (λ/2)‖β‖² moves ' +
        'by at most 2G/(nλ) when one row is replaced (G = 1 for two classes, √2 for more; Chaudhuri & Monteleoni ' +
        '2009, Chaudhuri, Monteleoni & Sarwate 2011); λ is public.',
      'The fit runs a fixed, data-independent number of accelerated gradient steps, proven in exact arithmetic to ' +
        `end within 1/${GAP_PER_SENSITIVITY} of that sensitivity of the exact minimiser; twice this gap is added to ` +
        'the sensitivity. A fit is released only when its floating-point certificate holds (the gradient norm ' +
        'plus a worst-case bound on its rounding, divided by λ, at most the gap); a failure ends the run, ' +
        'releasing nothing, and is assumed not to occur for tables up to the row count where that rounding ' +
        'bound stays below a quarter of the gap (about 2·10⁶ rows; larger tables are refused).',
      'The coefficients get noise with density ∝ exp(−ε‖e‖/Δ): a norm from Gamma(dimension, Δ/ε) and a uniform ' +
        'direction, drawn with floating-point samplers from the run’s generator. The ε of these steps holds for ' +
        'exact continuous draws; floating-point sampling of continuous noise is not proven private (Mironov 2012), ' +
        `so the bound is not stated as proven. The noisy coefficients are rounded to a grid of Δ/${GAP_PER_SENSITIVITY} ` +
        'before use, so their lowest bits never reach the synthetic data.',
    );
  sentences.push(
    'Post-processing only (no privacy cost): means clamped into the bounds, missing counts to [0, n], the ' +
      'covariance projected to positive eigenvalues; Σ* ~ Inv-Wishart(n − 1, (n − 1)S*), μ* ~ N(z̄*, Σ*/n), rows ' +
      'N(μ*, Σ*) clamped and rounded; then each categorical column drawn from its noisy regression given the ' +
      'synthetic values before it. The guarantee does not depend on the model (normal numeric block, sequential ' +
      'logistic regressions) fitting the data.',
  );
  return sentences;
}

/** What the sequential regression keeps for a column that can be missing. */
const SEQUENTIAL_REGRESSION_MISSING_PART = {
  none: 'noisy count of missing values (nor, as a categorical predictor, a missing-value indicator)',
  some: 'a noisy count of missing values (and, as a categorical predictor, a missing-value indicator)',
};

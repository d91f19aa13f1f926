import { throwIfAborted } from '../../abort';
import type { Accountant } from '../../privacy/accountant';
import { meteredOutputPerturbation } from '../../privacy/metered/output-perturbation';
import type { L2QueryKind } from '../../privacy/query-sensitivity';
import { FailedAfterSpendingError } from '../../privacy/spent-budget-error';
import { formatCount } from '../../format/format-count';
import { noisyCount, type MeteredShare } from '../common/noisy-counts/grid-noise';
import { shuffleInPlace } from '../../rng/shuffle';
import type { Rng } from '../../rng/types';
import { checkCompleteColumns } from '../../table/complete-columns';
import type { Column, NumericColumn, Schema, Table } from '../../table/types';
import { missingLevelOf } from '../common/coding/column-coding';
import { WHOLE_TABLES, type DatasetForm } from '../common/rows/dataset-form';
import { syntheticColumnFromLevels } from '../common/coding/decode-rows';
import { columnsForCodings, levelsOfColumn } from '../common/coding/encode-rows';
import { columnRows } from '../release-blocks';
import { defineMechanism, type Drawn } from '../shape/define-mechanism';
import type { Mechanism, ParamValues, RunContext } from '../types';
import { dpSequentialRegressionMeta, type SequentialRegressionSpecPlan } from './meta';
import {
  drawNumericBlock,
  numericBlockStatistics,
  repairNumericBlock,
  sanitizeNumericBlock,
  type NumericBlockStatistics,
} from './numeric-block';
import {
  SEQUENTIAL_REGRESSION_ID,
  type RegressionPlan,
  type ReleaseBudget,
  type SequentialRegressionPlan,
} from './plan';
import { buildPredictors, scaleToUnitInterval } from './predictors';
import { fitRegularizedLogistic, regularizedGradient, type LogisticProblem } from './regularized-logistic';
import {
  GAP_PER_SENSITIVITY,
  gradientRoundingBound,
  perturbationSettings,
  type PerturbationSettings,
} from './sensitivity';
import { solverGapWarnings, type SolverGapCheck } from './solver-gap';

function numericColumnNamed(table: Table, name: string): NumericColumn {
  const column = table.columns.find((candidate) => candidate.name === name);
  if (!column || column.kind !== 'numeric')
    throw new Error(
      `${SEQUENTIAL_REGRESSION_ID}: the table has no numeric column \`${name}\` named in the schema.`,
    );
  return column;
}

/** One fitted regression: β_T (not DP, never released), its public settings, and the data holder's gap check. */
interface FittedRegression {
  plan: RegressionPlan;
  settings: PerturbationSettings;
  estimate: Float64Array;
  /** (‖ĝ‖ + E)/λ, an upper bound on ‖∇J(β_T)‖/λ >= ‖β_T − β̂‖ (strong convexity; computed from the data). */
  gapBound: number;
}

/** Each categorical column's regression on the real predictors, fitted once (the minimiser is deterministic). */
function fitRegressions(table: Table, plan: SequentialRegressionPlan, ctx: RunContext): FittedRegression[] {
  const n = ctx.n;
  const lambda = plan.settings.lambda;
  const scaled = plan.numeric.map((column) => {
    const values = numericColumnNamed(table, column.name);
    return scaleToUnitInterval(values.values, values.missing, column.bounds![0], column.bounds![1]);
  });
  const columns = columnsForCodings(table, plan.categorical);
  const levels = plan.categorical.map((coding, j) => levelsOfColumn(columns[j]!, coding));
  return plan.regressions.map((regression, r) => {
    throwIfAborted(ctx.signal);
    ctx.progress((0.6 * r) / plan.regressions.length, `fitting the regression of ${regression.coding.name}`);
    const j = regression.earlier;
    const { x, d } = buildPredictors(
      scaled,
      levels.slice(0, j),
      plan.categorical.slice(0, j).map((coding) => coding.levels),
      n,
    );
    const problem: LogisticProblem = { n, d, classes: regression.classes, x, y: levels[j]! };
    const settings = perturbationSettings(n, lambda, regression.classes);
    // T iterations, then (rarely, if ever) again from 0 with twice as many, until the certificate holds.
    for (let iterations = settings.iterations; ; iterations *= 2) {
      const estimate = fitRegularizedLogistic(problem, lambda, iterations, ctx.signal, (done, total) =>
        ctx.progress(
          (0.6 * (r + done / total)) / plan.regressions.length,
          `fitting the regression of ${regression.coding.name}: step ${done} of ${total}`,
        ),
      );
      const gradient = new Float64Array(estimate.length);
      regularizedGradient(problem, lambda, estimate, gradient);
      let norm = 0;
      for (const g of gradient) norm += g * g;
      let betaNorm = 0;
      for (const b of estimate) betaNorm += b * b;
      // The exact ‖∇J(β)‖ is at most the computed norm plus the gradient's rounding bound E
      // (gradientRoundingBound, with ‖β‖ rounded up by its factor 1.01); the relative margin below covers
      // the rounding of the norm, of this sum and quotient, and of the gap itself.
      const rounding = gradientRoundingBound(n, problem.d, problem.classes, lambda, Math.sqrt(betaNorm));
      const gapBound = (Math.sqrt(norm) + rounding) / lambda;
      if (gapBound * (1 + CERTIFICATE_ROUNDING_MARGIN) <= settings.gap) {
        return { plan: regression, settings, estimate, gapBound };
      }
      if (iterations * 2 > settings.iterations * SOLVER_ITERATION_CAP) {
        throw new FailedAfterSpendingError(
          `${SEQUENTIAL_REGRESSION_ID}: the regression of \`${regression.coding.name}\` did not certify its fit ` +
            `within ${formatCount(iterations)} solver steps (‖∇J(β)‖/λ = ${gapBound.toExponential(2)} above the ` +
            `gap ${settings.gap.toExponential(2)} its noise covers); nothing is released and the run counts as ` +
            'spent. A larger λ makes the fit better conditioned.',
        );
      }
    }
  });
}

/**
 * Why every fit this mechanism releases is covered by its claim (output perturbation of the
 * λ-strongly-convex J(β) = (1/n)·Σᵢ ℓ(β; xᵢ, yᵢ) + (λ/2)·‖β‖², minimiser β̂):
 * - strong convexity gives λ‖β − β̂‖² <= (∇J(β) − ∇J(β̂))ᵀ(β − β̂) <= ‖∇J(β)‖·‖β − β̂‖ with ∇J(β̂) = 0,
 *   so ‖β − β̂‖ <= ‖∇J(β)‖/λ for every β (Nesterov 2004, Introductory Lectures, Theorem 2.1.10);
 * - a fit is released only when that certificate is <= gap = Δ₀/1000, a public slack τ; then for
 *   neighbours D, D′, ‖β_T − β′_T‖ <= ‖β̂ − β̂′‖ + 2τ <= Δ₀ + 2τ = Δ, the L2 sensitivity the noise uses
 *   (Δ₀ = 2G/(nλ) under replace-one, the only relation this mechanism runs with; the query is refused
 *   under add/remove, where n is private: privacy/query-sensitivity.ts, l2QuerySensitivity; Chaudhuri, Monteleoni & Sarwate 2011, Corollary 8). The bound holds pointwise,
 *   for any β_T meeting its certificate, however many iterations made it; that number is never
 *   released (the diagnostics state the public T), so the sensitivity is unchanged and exact.
 * The certificate is evaluated in floating point: the computed gradient ĝ differs from ∇J(β) by at
 * most E (gradientRoundingBound, a worst-case bound on the rounding of the mean over n rows, about
 * (n − 1)·2⁻⁵³·G), so the fit is accepted when (‖ĝ‖ + E)/λ·(1 + CERTIFICATE_ROUNDING_MARGIN) <= gap.
 * The margin 10⁻⁶ covers the rounding of the norm (a sum of D <= 10⁴ squares, a square root and a
 * division: below (D/2 + 3)·2⁻⁵³ < 10⁻¹² relative, directed-rounding bound) and of the gap itself
 * (a few 2⁻⁵³); it does not cover E, which is absolute and is added.
 * The fit runs T iterations (iterationsForGap: enough in exact arithmetic for every data set) and,
 * while the certificate exceeds gap, again from 0 with twice as many, up to the public cap
 * SOLVER_ITERATION_CAP·T. If it still fails, the run ends with FailedAfterSpendingError (nothing
 * released, counted as spent). That outcome depends on the data. check refuses every run whose n is
 * above certifiableRows (N, about 2·10⁶ rows for small models), where E could exceed a quarter of
 * λ·gap = G/(500n); up to N a fit whose exact gradient is below λ·gap/2 is certified (‖ĝ‖ <= ‖∇J‖ + E), and the claim's
 * assumptions say that a failure, which releases nothing, is assumed not to occur there.
 */
export const SOLVER_ITERATION_CAP = 16;

/** The relative rounding margin the floating-point certificate ‖∇J(β)‖/λ must keep below gap. */
export const CERTIFICATE_ROUNDING_MARGIN = 1e-6;

/**
 * The real missing count of every categorical column (released only with noise); 0 for a column that
 * cannot be missing (no missing level: levelsOfColumn refuses a missing value there).
 */
function categoricalMissingCounts(table: Table, plan: SequentialRegressionPlan): number[] {
  const columns = columnsForCodings(table, plan.categorical);
  return plan.categorical.map((coding, j) => {
    const levels = levelsOfColumn(columns[j]!, coding);
    const missingLevel = missingLevelOf(coding);
    let count = 0;
    if (missingLevel !== undefined) for (const level of levels) if (level === missingLevel) count++;
    return count;
  });
}

/**
 * β* = β_T + e, e with density ∝ exp(−ε‖e‖/Δ₂) through the privacy meter (the query's Δ₂ from the query
 * table: privacy/metered/output-perturbation.ts), rounded to the grid Δ/1000 (post-processing).
 */
function perturb(
  rng: Rng,
  fitted: FittedRegression,
  share: MeteredShare,
  n: number,
  lambda: number,
): Float64Array {
  const query: L2QueryKind = {
    kind: 'regularized-logistic-coefficients',
    rows: n,
    lambda,
    classes: fitted.plan.classes,
    gapPerSensitivity: GAP_PER_SENSITIVITY,
  };
  const noisy = meteredOutputPerturbation(share.step, query, fitted.estimate, share.epsilon, rng);
  const step = fitted.settings.sensitivity / GAP_PER_SENSITIVITY;
  return noisy.map((b) => Math.round(b / step) * step);
}

/** A class for every synthetic row from softmax(β*ᵀx) (class 0 the reference). Cost O(n·d·K). */
function drawClasses(
  rng: Rng,
  beta: Float64Array,
  x: Float64Array,
  n: number,
  d: number,
  classes: number,
): Uint32Array {
  const out = new Uint32Array(n);
  const weights = new Float64Array(classes);
  for (let i = 0; i < n; i++) {
    let largest = 0;
    for (let k = 1; k < classes; k++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += beta[(k - 1) * d + j]! * x[i * d + j]!;
      weights[k] = s;
      if (s > largest) largest = s;
    }
    weights[0] = 0;
    let total = 0;
    for (let k = 0; k < classes; k++) {
      weights[k] = Math.exp(weights[k]! - largest);
      total += weights[k]!;
    }
    let u = rng.nextFloat() * total;
    let k = 0;
    while (k < classes - 1 && u >= weights[k]!) {
      u -= weights[k]!;
      k++;
    }
    out[i] = k;
  }
  return out;
}

/** `count` uniformly chosen rows of n (post-processing). Cost O(n). */
function randomRows(rng: Rng, n: number, count: number): Uint32Array {
  if (count === 0) return new Uint32Array(0);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  shuffleInPlace(rng, order);
  return order.subarray(0, count);
}

/** A noisy count with exact discrete Laplace noise of scale 1/ε (metered), clamped to [0, n]. */
function noisyMissingCount(rng: Rng, count: number, share: MeteredShare, n: number): number {
  return Math.min(n, Math.max(0, noisyCount(share.step, count, share.epsilon, rng)));
}

/** Refuses a table the plan does not fit before anything is reserved or drawn; the draw reads the table itself. */
function readTable(table: Table, plan: SequentialRegressionSpecPlan, ctx: RunContext): Table {
  if (table.nRows !== ctx.n)
    throw new Error(
      `${SEQUENTIAL_REGRESSION_ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`,
    );
  // A missing value in a column the schema declares complete: refused before anything is reserved or drawn.
  checkCompleteColumns(table, plan.schema);
  return table;
}

/** What the sequential regression's draws report: λ, each regression's public settings and the DP statistics. */
export interface SequentialRegressionDiagnostics {
  lambda: number;
  regressions: {
    column: string;
    classes: number;
    predictors: number;
    iterations: number;
    sensitivity: number;
  }[];
  sanitizedStatistics: Record<string, unknown>[];
}

/** A table drawn whole as a dataset of the run's form. */
function asDataset<D>(form: DatasetForm<D>, table: Table): D {
  return form.dataset(
    table.nRows,
    table.columns.map((column) => ({
      whole: column,
      block: (_, start, end) => columnRows(column, start, end),
    })),
  );
}

/** After every step is reserved: fit the regressions, then per release noisy statistics and rows. */
async function drawSequentialRegression<D>(
  table: Table,
  plan: SequentialRegressionSpecPlan,
  reserved: ReleaseBudget[],
  ctx: RunContext,
  form: DatasetForm<D>,
): Promise<Drawn<D, SequentialRegressionDiagnostics>> {
  const n = ctx.n;
  const bounds = plan.numeric.map((column) => column.bounds!);
  const integer = plan.numeric.map((column) => column.integer === true);
  const statistics: NumericBlockStatistics | null =
    plan.numeric.length > 0
      ? numericBlockStatistics(
          plan.numeric.map((column, j) => {
            const values = numericColumnNamed(table, column.name);
            return { values: values.values, missing: values.missing, lo: bounds[j]![0], hi: bounds[j]![1] };
          }),
          n,
        )
      : null;
  const fitted = fitRegressions(table, plan, ctx);
  const realMissing = categoricalMissingCounts(table, plan);
  const datasets: Table[] = [];
  const released: Record<string, unknown>[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    throwIfAborted(ctx.signal);
    ctx.progress(0.6 + (0.4 * release) / ctx.releases, `release ${release + 1} of ${ctx.releases}`);
    const byName = new Map<string, Column>();
    const scaled: Float64Array[] = [];
    const here: Record<string, unknown> = {};
    if (statistics !== null) {
      const noisy = sanitizeNumericBlock(ctx.rng, statistics, n, bounds, reserved[release]!);
      here.means = Object.fromEntries(
        plan.numeric.map((c, j) => [c.name, (bounds[j]![0] + bounds[j]![1]) / 2 + noisy.centredMeans[j]!]),
      );
      here.covariance = noisy.covariance;
      here.missing = Object.fromEntries(
        plan.numeric.flatMap((c, j) => (reserved[release]!.missing[j] ? [[c.name, noisy.missing[j]!]] : [])),
      );
      const repaired = repairNumericBlock(noisy, n, bounds);
      const values = drawNumericBlock(ctx.rng, repaired, n, bounds, integer);
      plan.numeric.forEach((column, j) => {
        const synthetic: NumericColumn = {
          kind: 'numeric',
          name: column.name,
          values: values[j]!,
          missing: new Uint8Array(n),
        };
        for (const row of randomRows(ctx.rng, n, Math.round(repaired.missing[j]!))) {
          synthetic.missing[row] = 1;
          synthetic.values[row] = NaN;
        }
        byName.set(column.name, synthetic);
        scaled.push(scaleToUnitInterval(synthetic.values, synthetic.missing, bounds[j]![0], bounds[j]![1]));
      });
    }
    const syntheticLevels: Uint32Array[] = [];
    const coefficients: Record<string, number[]> = {};
    const missingCounts: Record<string, number> = {};
    plan.categorical.forEach((coding, j) => {
      throwIfAborted(ctx.signal);
      const r = fitted.findIndex((candidate) => candidate.plan.earlier === j);
      const regression = fitted[r];
      let levels: Uint32Array;
      if (regression === undefined) levels = new Uint32Array(n);
      else {
        const share = reserved[release]!.regressions[r]!;
        const beta = perturb(ctx.rng, regression, share, n, plan.settings.lambda);
        coefficients[coding.name] = Array.from(beta);
        const { x, d } = buildPredictors(
          scaled,
          syntheticLevels,
          plan.categorical.slice(0, j).map((earlier) => earlier.levels),
          n,
        );
        levels = drawClasses(ctx.rng, beta, x, n, d, regression.plan.classes);
      }
      // A complete column has no missing count and no missing level: none of its values is missing.
      const share = reserved[release]!.missing[plan.numeric.length + j]!;
      const missingLevel = missingLevelOf(coding);
      if (share !== null && missingLevel !== undefined) {
        const missing = noisyMissingCount(ctx.rng, realMissing[j]!, share, n);
        missingCounts[coding.name] = missing;
        for (const row of randomRows(ctx.rng, n, missing)) levels[row] = missingLevel;
      }
      syntheticLevels.push(levels);
      byName.set(coding.name, syntheticColumnFromLevels(ctx.rng, levels, coding));
    });
    here.coefficients = coefficients;
    here.missing = { ...(here.missing as Record<string, number> | undefined), ...missingCounts };
    released.push(here);
    datasets.push({ nRows: n, columns: plan.schema.columns.map((column) => byName.get(column.name)!) });
  }
  ctx.progress(1, 'done');
  const solverGap: SolverGapCheck[] = fitted.map((regression) => ({
    column: regression.plan.coding.name,
    gapBound: regression.gapBound,
    allowedGap: regression.settings.gap,
  }));
  return {
    datasets: datasets.map((dataset) => asDataset(form, dataset)),
    diagnostics: {
      lambda: plan.settings.lambda,
      regressions: fitted.map((regression) => ({
        column: regression.plan.coding.name,
        classes: regression.plan.classes,
        predictors: regression.plan.predictors,
        iterations: regression.settings.iterations,
        sensitivity: regression.settings.sensitivity,
      })),
      sanitizedStatistics: released,
    },
    dataHolderDiagnostics: { solverGap, warnings: solverGapWarnings(solverGap) },
  };
}

const defined = defineMechanism(dpSequentialRegressionMeta, {
  read: readTable,
  draw: drawSequentialRegression,
});

/**
 * Sequential regression synthesis (Bowen & Liu §3.2.3, §4.3.2). Each table is drawn whole (the
 * regressions read every synthetic row before it), so it offers no run in blocks.
 */
export const dpSequentialRegression: Mechanism & Omit<typeof defined, 'runInBlocks'> = (({
  runInBlocks: _blocks,
  ...run
}) => run)(defined);

/** The run on whole tables, optionally on a given accountant (tests record its reservations). */
export function runSequentialRegression(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: Accountant,
) {
  return defined.drawFromTable(table, schema, params, ctx, WHOLE_TABLES, accountant);
}

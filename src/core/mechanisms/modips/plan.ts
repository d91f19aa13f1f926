import { Accountant } from '../../privacy/accountant';
import type { ChargeableStep } from '../../privacy/meter';
import { standardAssumptions } from '../../privacy/assumptions';
import { Rational } from '../../rng/rational';
import type { NumericColumnSchema, Schema } from '../../table/types';
import { planBinnedDomain, type BinnedDomain } from '../common/binning/binned-domain';
import { planColumnCodings, type CategoricalCoding } from '../common/coding/column-coding';
import { formatCount } from '../../format/format-count';
import { binnedDomainAssumptions } from '../common/claims/public-assumptions';
import type { ParamValues, PublicContext } from '../types';
import { GRID_STEPS_PER_SENSITIVITY, type MeteredShare } from '../common/noisy-counts/grid-noise';
import type { GlomStatisticBudget } from './glom-model';
import type { NormalStatisticBudget } from './normal-model';
import { modipsSettings, type ModipsSettings } from './params';

export const MODIPS_ID = 'modips';

/** What claim() and run() need from an accountant; tests pass a recorder. */
export type BudgetReserver = Pick<Accountant, 'reserve' | 'claim'>;

/** The public plan of a run: the model, its columns or domain, and every problem. */
export type ModipsPlan =
  | { model: 'normal'; settings: ModipsSettings; columns: NumericColumnSchema[]; problems: string[] }
  | { model: 'loglinear'; settings: ModipsSettings; domain: BinnedDomain; problems: string[] }
  | {
      model: 'glom';
      settings: ModipsSettings;
      /** The categorical columns' codings (with a missing-value level unless complete), in schema order. */
      codings: CategoricalCoding[];
      /** K, the cells of their cross-tabulation (1 when there is no categorical column). */
      cells: number;
      numeric: NumericColumnSchema[];
      problems: string[];
    };

/**
 * Most cells the general location model accepts: each release draws noise for K·(p + 1) cell
 * statistics, and the inverse-Wishart needs n − K degrees of freedom.
 */
export const GLOM_CELL_LIMIT = 100_000;

function planGlom(schema: Schema, settings: ModipsSettings, n: number | undefined): ModipsPlan {
  const problems: string[] = [];
  const numeric: NumericColumnSchema[] = [];
  for (const column of schema.columns) {
    if (column.type !== 'numeric') continue;
    if (!column.bounds || !(column.bounds[1] > column.bounds[0])) {
      problems.push(`needs bounds for numeric column \`${column.name}\`: declare them in the schema.`);
    } else numeric.push(column);
  }
  const categorical: Schema = { ...schema, columns: schema.columns.filter((c) => c.type === 'categorical') };
  const coded = planColumnCodings(categorical, settings.binning, n ?? 0);
  problems.push(...coded.problems);
  const codings = coded.codings.filter(
    (coding): coding is CategoricalCoding => coding.kind === 'categorical',
  );
  const cells = codings.reduce((product, coding) => product * coding.levels, 1);
  const p = schema.columns.length - categorical.columns.length;
  if (p === 0)
    problems.push(
      'model glom needs at least one numeric column; for categorical columns only choose model loglinear.',
    );
  if (cells > GLOM_CELL_LIMIT)
    problems.push(
      `model glom: the categorical cross-tabulation has ${formatCount(cells)} cells (a missing-value level per ` +
        `column that can be missing included), more than ${formatCount(GLOM_CELL_LIMIT)}: synthesize fewer categorical columns.`,
    );
  else if (n !== undefined && p > 0 && n - cells < p + 2)
    problems.push(
      `model glom needs at least K + p + 2 = ${formatCount(cells + p + 2)} rows (K = ${formatCount(cells)} ` +
        `cells, p = ${p} numeric columns) for the inverse-Wishart draw; the table has ${formatCount(n)}: ` +
        'synthesize fewer categorical columns or choose model loglinear.',
    );
  return { model: 'glom', settings, codings, cells, numeric, problems };
}

export function planModips(schema: Schema, params: ParamValues, n: number | undefined): ModipsPlan {
  const settings = modipsSettings(params);
  if (settings.model === 'glom') return planGlom(schema, settings, n);
  if (settings.model === 'loglinear') {
    const domain = planBinnedDomain(schema, settings.binning, n, true);
    return { model: 'loglinear', settings, domain, problems: domain.problems };
  }
  const problems: string[] = [];
  const columns: NumericColumnSchema[] = [];
  for (const column of schema.columns) {
    if (column.type !== 'numeric') {
      problems.push(
        `model normal synthesizes numeric columns only; \`${column.name}\` is categorical: choose model loglinear, or leave the column out.`,
      );
    } else if (!column.bounds || !(column.bounds[1] > column.bounds[0])) {
      problems.push(`needs bounds for numeric column \`${column.name}\`: declare them in the schema.`);
    } else columns.push(column);
  }
  if (schema.columns.length === 0) problems.push('the schema has no columns to synthesize.');
  if (n !== undefined && n < 2) problems.push(`model normal needs at least 2 rows; the table has ${n}.`);
  return { model: 'normal', settings, columns, problems };
}

/**
 * Budget of the normal model: ε/M per release (each release sanitizes afresh, DIPS §3.2.2), ε/(M·p)
 * per numeric column (sequential composition: one row touches every column), of which the share s
 * goes to the missing count and the rest is halved between x̄ and S² (DIPS §4.2 halves ε/5 between
 * them). Returns budgets[release][column].
 */
function reserveNormal(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  plan: Extract<ModipsPlan, { model: 'normal' }>,
): NormalStatisticBudget[][] {
  const p = plan.columns.length;
  if (p === 0) return [];
  const perColumn = Accountant.split(Accountant.split(total, releases), p);
  const G = GRID_STEPS_PER_SENSITIVITY;
  return Array.from({ length: releases }, (_, r) =>
    plan.columns.map((column) => {
      const where = `column \`${column.name}\`, release ${r + 1} of ${releases}`;
      // A complete column (schema) has no missing count to measure: its share goes to x̄ and S².
      const missing = column.canBeMissing === false ? null : perColumn.mul(plan.settings.missingShare);
      const half = (missing === null ? perColumn : perColumn.sub(missing)).div(Rational.of(2));
      const missingStep =
        missing === null
          ? null
          : accountant.reserve(`count of missing values (sensitivity 1), ${where}`, missing);
      const meanStep = accountant.reserve(
        `mean x̄ on a grid of (c₁ − c₀)/(${G}·n), sensitivity (c₁ − c₀)/n plus one grid step, ${where}`,
        half,
      );
      const varianceStep = accountant.reserve(
        `variance S² on a grid of (c₁ − c₀)²/(${G}·n), sensitivity (c₁ − c₀)²/n plus one grid step, ${where}`,
        half,
      );
      return {
        missing: missing === null || missingStep === null ? null : { epsilon: missing, step: missingStep },
        mean: { epsilon: half, step: meanStep },
        variance: { epsilon: half, step: varianceStep },
      };
    }),
  );
}

/** Budget of the log-linear model: ε/M per release for the noisy counts of the whole cross-tabulation. */
function reserveLoglinear(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  plan: Extract<ModipsPlan, { model: 'loglinear' }>,
): MeteredShare[] {
  return Array.from({ length: releases }, (_, r) => {
    const epsilon = Accountant.split(total, releases);
    const step = accountant.reserve(
      `noisy counts of the ${formatCount(plan.domain.domainCells)}-cell cross-tabulation (sensitivity 2), ` +
        `release ${r + 1} of ${releases}`,
      epsilon,
    );
    return { epsilon, step };
  });
}

/**
 * Budget of the general location model: ε/M per release (DIPS §3.2.2); of it, the share s
 * (`missingShare`) goes to the p counts of missing numeric values, s·ε/(M·p) each, and the rest is
 * split evenly over the 1 + p + p(p + 1)/2 statistics, as DIPS §4.3.1 splits ε/5 in sixths over n, z̄₁,
 * z̄₂ and the three entries of S: the cell counts, each column's vector of cell sums (the cells are
 * disjoint, so one vector is one query) and each entry of the scatter. Sequential composition: one row
 * touches every statistic. Returns budgets[release].
 */
function reserveGlom(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  plan: Extract<ModipsPlan, { model: 'glom' }>,
): GlomStatisticBudget[] {
  const p = plan.numeric.length;
  if (p === 0) return [];
  const perRelease = Accountant.split(total, releases);
  // Only the columns that can be missing get a noisy missing count; a complete column's count is 0 by
  // the schema (a run with a missing value there is refused), so it is not measured.
  const missingColumns = plan.numeric.filter((column) => column.canBeMissing !== false);
  const missingTotal =
    missingColumns.length === 0 ? Rational.of(0) : perRelease.mul(plan.settings.missingShare);
  const missing =
    missingColumns.length === 0 ? Rational.of(0) : missingTotal.div(Rational.of(missingColumns.length));
  const each = perRelease.sub(missingTotal).div(Rational.of(1 + p + (p * (p + 1)) / 2));
  const G = GRID_STEPS_PER_SENSITIVITY;
  return Array.from({ length: releases }, (_, r) => {
    const where = `release ${r + 1} of ${releases}`;
    const share = (step: ChargeableStep): MeteredShare => ({ epsilon: each, step });
    const counts = share(
      accountant.reserve(
        `noisy counts of the ${formatCount(plan.cells)}-cell categorical cross-tabulation (sensitivity 2), ${where}`,
        each,
      ),
    );
    const sums = plan.numeric.map((column) =>
      share(
        accountant.reserve(
          `cell sums of \`${column.name}\` centred at the midpoint of its bounds, on a grid of (c₁ − c₀)/${G}, ` +
            `L1 sensitivity c₁ − c₀ plus two grid steps, ${where}`,
          each,
        ),
      ),
    );
    const scatter: MeteredShare[][] = plan.numeric.map(() => []);
    plan.numeric.forEach((a, j) => {
      plan.numeric.slice(j).forEach((b, offset) => {
        const sensitivity = offset === 0 ? '(c₁ − c₀)²' : '2·(c₁ − c₀)·(d₁ − d₀)';
        scatter[j]![j + offset] = scatter[j + offset]![j] = share(
          accountant.reserve(
            `within-cell scatter entry (\`${a.name}\`, \`${b.name}\`) on a grid of 1/${G} of its sensitivity ` +
              `${sensitivity}, plus one grid step, ${where}`,
            each,
          ),
        );
      });
    });
    const missingSteps = plan.numeric.map((column) =>
      column.canBeMissing === false
        ? null
        : {
            epsilon: missing,
            step: accountant.reserve(
              `count of missing values of \`${column.name}\` (sensitivity 1), ${where}`,
              missing,
            ),
          },
    );
    return { counts, sums, scatter, missing: missingSteps };
  });
}

export type ReservedBudgets =
  | { model: 'normal'; perColumn: NormalStatisticBudget[][] }
  | { model: 'loglinear'; perRelease: MeteredShare[] }
  | { model: 'glom'; perRelease: GlomStatisticBudget[] };

/** Every reservation of a run, in order; shared by claim() and run(). */
export function reserveModips(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  plan: ModipsPlan,
): ReservedBudgets {
  if (plan.model === 'normal')
    return { model: 'normal', perColumn: reserveNormal(accountant, total, releases, plan) };
  if (plan.model === 'glom')
    return { model: 'glom', perRelease: reserveGlom(accountant, total, releases, plan) };
  return { model: 'loglinear', perRelease: reserveLoglinear(accountant, total, releases, plan) };
}

export function assumptionsFor(plan: ModipsPlan, context: PublicContext): string[] {
  const standard = standardAssumptions(context.schema, context.seeded);
  if (plan.model === 'glom') {
    return [
      ...standard,
      'Numeric bounds and categories are public (declared in the schema or read from it as stated above); ' +
        'numeric values outside the bounds were clamped, a category outside the list counts as missing, and ' +
        'a missing categorical value is its own level.',
      'A missing numeric value counts at the midpoint of its bounds in the cell sums and the scatter (pulling ' +
        'means toward it and shrinking variances by the missing share); synthetic missing values are placed ' +
        'at uniformly chosen rows, independently of the other columns.',
      'Sensitivities are for replacing one row with n public: 2 for the cell counts, c₁ − c₀ (L1 over the ' +
        'cells) for a column’s cell sums, (c₁ − c₀)² for a diagonal and 2·(c₁ − c₀)·(d₁ − d₀) for an ' +
        'off-diagonal scatter entry, 1 for a missing count; real statistics are rounded to grids with the ' +
        'rounding added to the sensitivity (two grid steps for the sums, one for a scatter entry).',
      'Post-processing only (no privacy cost): counts clamped to [0, n], the scatter projected to eigenvalues ' +
        'of at least one grid step of the smallest (c₁ − c₀)², cell means from noisy sums over noisy counts ' +
        'clamped into the bounds; then Dirichlet, inverse-Wishart and normal posterior draws and the rows, ' +
        'drawn with floating-point samplers.',
      'Numeric columns are modelled as multivariate normal within each cell with one covariance for all ' +
        'cells (general location model); the guarantee does not depend on the model fitting.',
    ];
  }
  if (plan.model === 'loglinear') {
    return [
      ...standard,
      ...binnedDomainAssumptions(plan.domain.codings, context.schema),
      'Noisy counts are clamped to [0, n] (boundary inflated truncation); the Dirichlet and multinomial draws ' +
        'that follow are post-processing.',
    ];
  }
  return [
    ...standard,
    'Numeric bounds are public (declared in the schema or read from it as stated above); values outside them ' +
      'were clamped, and a missing value counts at the midpoint of the bounds in x̄ and S².',
    'Sensitivities are for replacing one row with n public: (c₁ − c₀)/n for x̄ and (c₁ − c₀)²/n for S², each ' +
      'rounded to a grid with one grid step added; the missing count has sensitivity 1.',
    'Columns are synthesized independently of each other: relationships between columns are not kept.',
    'Sanitized statistics are clamped to their ranges (boundary inflated truncation); the posterior draws ' +
      'that follow are post-processing.',
  ];
}

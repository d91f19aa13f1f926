import { Accountant } from '../../privacy/accountant';
import { standardAssumptions } from '../../privacy/assumptions';
import { parseBudget } from '../../privacy/budget';
import type { PrivacyClaim } from '../../privacy/types';
import { Rational } from '../../rng/rational';
import type { NumericColumnSchema, Schema } from '../../table/types';
import { planBinnedDomain, type BinnedDomain } from '../common/binned-domain';
import { formatCount } from '../common/format-count';
import { binnedDomainAssumptions } from '../common/public-assumptions';
import type { ParamValues, PublicContext } from '../types';
import { GRID_STEPS_PER_SENSITIVITY } from './grid-noise';
import type { NormalStatisticBudget } from './normal-model';
import { modipsSettings, type ModipsSettings } from './params';

export const MODIPS_ID = 'modips';

/** What claim() and run() need from an accountant; tests pass a recorder. */
export type BudgetReserver = Pick<Accountant, 'reserve' | 'claim'>;

/** The public plan of a run: the model, its columns or domain, and every problem. */
export type ModipsPlan =
  | { model: 'normal'; settings: ModipsSettings; columns: NumericColumnSchema[]; problems: string[] }
  | { model: 'loglinear'; settings: ModipsSettings; domain: BinnedDomain; problems: string[] };

export function planModips(schema: Schema, params: ParamValues, n: number | undefined): ModipsPlan {
  const settings = modipsSettings(params);
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
  const missing = perColumn.mul(plan.settings.missingShare);
  const half = perColumn.sub(missing).div(Rational.of(2));
  const G = GRID_STEPS_PER_SENSITIVITY;
  return Array.from({ length: releases }, (_, r) =>
    plan.columns.map((column) => {
      const where = `column \`${column.name}\`, release ${r + 1} of ${releases}`;
      accountant.reserve(`count of missing values (sensitivity 1), ${where}`, missing);
      accountant.reserve(
        `mean x̄ on a grid of (c₁ − c₀)/(${G}·n), sensitivity (c₁ − c₀)/n plus one grid step, ${where}`,
        half,
      );
      accountant.reserve(
        `variance S² on a grid of (c₁ − c₀)²/(${G}·n), sensitivity (c₁ − c₀)²/n plus one grid step, ${where}`,
        half,
      );
      return { missing, mean: half, variance: half };
    }),
  );
}

/** Budget of the log-linear model: ε/M per release for the noisy counts of the whole cross-tabulation. */
function reserveLoglinear(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  plan: Extract<ModipsPlan, { model: 'loglinear' }>,
): Rational[] {
  return Array.from({ length: releases }, (_, r) => {
    const epsilon = Accountant.split(total, releases);
    accountant.reserve(
      `noisy counts of the ${formatCount(plan.domain.domainCells)}-cell cross-tabulation (sensitivity 2), ` +
        `release ${r + 1} of ${releases}`,
      epsilon,
    );
    return epsilon;
  });
}

export type ReservedBudgets =
  { model: 'normal'; perColumn: NormalStatisticBudget[][] } | { model: 'loglinear'; perRelease: Rational[] };

/** Every reservation of a run, in order; shared by claim() and run(). */
export function reserveModips(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  plan: ModipsPlan,
): ReservedBudgets {
  return plan.model === 'normal'
    ? { model: 'normal', perColumn: reserveNormal(accountant, total, releases, plan) }
    : { model: 'loglinear', perRelease: reserveLoglinear(accountant, total, releases, plan) };
}

export function assumptionsFor(plan: ModipsPlan, context: PublicContext): string[] {
  const standard = standardAssumptions(context.schema, context.seeded);
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

export function claimFor(params: ParamValues, context: PublicContext): PrivacyClaim {
  const budget = parseBudget(context.epsilon, context.delta);
  const plan = planModips(context.schema, params, context.n);
  const accountant = new Accountant(budget);
  reserveModips(accountant, budget.epsilon, context.releases, plan);
  return accountant.claim(assumptionsFor(plan, context));
}

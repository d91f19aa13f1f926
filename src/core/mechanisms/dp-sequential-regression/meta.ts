import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { formatCount } from '../../format/format-count';
import type { Schema } from '../../table/types';
import { defineMechanismMeta } from '../shape/define-meta';
import type { ParamValues, PublicContext } from '../types';
import { SEQUENTIAL_REGRESSION_PARAMS } from './params';
import {
  assumptionsFor,
  canBeMissing,
  planSequentialRegression,
  reserveSequentialRegression,
  SEQUENTIAL_REGRESSION_ID,
  unprovenFor,
  type SequentialRegressionPlan,
} from './plan';
import { perturbationSettings } from './sensitivity';
import { dpSequentialRegressionFit } from './fit';

/** Three significant digits, for public descriptions. */
function short(value: number): string {
  return Number(value.toPrecision(3)).toString();
}

/**
 * The model in sentences, and for each regression its size, solver steps and the mean norm of its
 * noise, D·Δ/ε (the mean of Gamma(D, Δ/ε)), beside the largest norm a coefficient vector can have,
 * √(2·log K/λ) (J(β̂) <= J(0) = log K): noise far above it means the column comes out nearly random.
 */
function describeSequentialRegression(plan: SequentialRegressionSpecPlan, context: PublicContext): string[] {
  if (plan.problems.length > 0) return [];
  const p = plan.numeric.length;
  const lines: string[] = [];
  if (p > 0)
    lines.push(
      `Numeric block: ${p} numeric ${p === 1 ? 'column' : 'columns'} drawn jointly from a multivariate normal ` +
        'with a noisy mean and covariance.',
    );
  const columns = plan.numeric.length + plan.categorical.length;
  const complete = [...plan.numeric, ...plan.categorical].filter((column) => !canBeMissing(column)).length;
  if (complete > 0)
    lines.push(
      complete === columns
        ? 'No column has a missing count or, as a predictor, a missing level: the schema says none can be missing.'
        : `${complete} of the ${columns} columns ${complete === 1 ? 'has' : 'have'} no missing count and, as a ` +
            `predictor, no missing level: the schema says ${complete === 1 ? 'it cannot' : 'they cannot'} be missing.`,
    );
  let perRegression: number | null = null;
  try {
    const budget = parseBudget(context.epsilon, context.delta);
    const budgets = reserveSequentialRegression(
      new Accountant(budget),
      budget.epsilon,
      context.releases,
      plan,
    );
    perRegression = budgets[0]?.regressions[0]?.epsilon.toNumberDown() ?? null;
  } catch {
    perRegression = null;
  }
  const lambda = plan.settings.lambda;
  for (const regression of plan.regressions) {
    const settings = perturbationSettings(context.n, lambda, regression.classes);
    const largest = Math.sqrt((2 * Math.log(regression.classes)) / lambda);
    const noise =
      perRegression === null || perRegression <= 0
        ? ''
        : `; mean noise norm ${short((regression.coefficients * settings.sensitivity) / perRegression)} ` +
          `against coefficients of norm at most ${short(largest)}`;
    lines.push(
      `\`${regression.coding.name}\`: ${regression.classes === 2 ? 'logistic' : 'multinomial logistic'} regression, ` +
        `${regression.classes} classes on ${regression.predictors} predictors (${formatCount(regression.coefficients)} ` +
        `coefficients), ${formatCount(settings.iterations)} solver steps${noise}.`,
    );
  }
  return lines;
}

/** The plan `check`, `claim`, `describe` and the run share (planSequentialRegression), with the schema the run decodes to. */
export type SequentialRegressionSpecPlan = SequentialRegressionPlan & { schema: Schema };

export function planSequentialRegressionSpec(
  schema: Schema,
  params: ParamValues,
  context?: PublicContext,
): SequentialRegressionSpecPlan {
  return { ...planSequentialRegression(schema, params, context?.n), schema };
}

/** The catalogue entry of the sequential regression synthesizer, without its run code. */
export const dpSequentialRegressionMeta = defineMechanismMeta({
  id: SEQUENTIAL_REGRESSION_ID,
  label: 'DP sequential regression',
  summary:
    'Numeric columns from a noisy mean and covariance, then each categorical column from an L2-regularised (multinomial) logistic regression on the columns before it, with output-perturbed coefficients.',
  reference:
    'Bowen & Liu, Comparative study of differentially private data synthesis methods, §3.2.3 and §4.3.2 (SLOMAG); Chaudhuri & Monteleoni 2009, Algorithm 1',
  supports: { numeric: true, categorical: true },
  fit: dpSequentialRegressionFit,
  params: SEQUENTIAL_REGRESSION_PARAMS,
  // Every release spends ε/M on fresh noise over the same fitted minimiser and draws its rows afresh, so
  // R releases at R·ε have the joint law of R runs at ε.
  sweepRepeats: 'independent-releases',
  plan: planSequentialRegressionSpec,
  accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
  // ε/M per release, split over the missing counts, means, covariance entries and regressions (plan.ts).
  reserve: (plan, accountant, context) =>
    reserveSequentialRegression(
      accountant,
      parseBudget(context.epsilon, context.delta).epsilon,
      context.releases,
      plan,
    ),
  assumptions: assumptionsFor,
  unproven: unprovenFor,
  describe: describeSequentialRegression,
});

import { parseBudget } from '../../privacy/budget';
import { roundUp, roundUpRational } from '../../privacy/round-up';
import type { Rational } from '../../rng/rational';
import type { PublicContext } from '../types';
import { formatCount } from '../../format/format-count';
import { FEATURE_GRID, type ClustmixSpecPlan } from './plan';

function fmt(x: number): string {
  return Number(x.toPrecision(4)).toString();
}

/** A privacy value to 4 significant digits, rounded up (privacy rule 7). */
const up4 = (r: Rational): string => String(roundUpRational(r, 4));

/**
 * Public facts of the configured mixture, one sentence each: d, p and C; K and l_min; ρ and μ with
 * the split; a mean coordinate's noise SD at n/K rows. Warnings when δ > 1/n, when n/K < 2·l_min and
 * when the noise SD of the random-feature Gram matrix exceeds n/(2F), the size of its diagonal.
 */
export function describeClustmixPlan({ mixture: plan }: ClustmixSpecPlan, context: PublicContext): string[] {
  // No mixture: the plan has problems (check says why) or there is no context.
  if (plan === undefined) return [];
  const { encoding, budget, clusters, minClusterSize, n } = plan;
  const rho = budget.rho.toNumber();
  const sumRho = budget.finalRho.toNumber() / 2;
  const meanNoise = (2 * plan.clipRadius) / Math.sqrt(2 * sumRho) / (n / clusters);
  const split = [
    budget.iterationNoise ? `${plan.settings.iterations} iterations ${up4(budget.iterationRho)} each` : null,
    `final release ${up4(budget.finalRho)}`,
    budget.momentNoise ? `adapt ${up4(budget.adaptRho)}` : null,
  ].filter((part) => part !== null);
  const complete = encoding.blocks.filter((block) => block.complete).length;
  const completeNote =
    complete === 0
      ? ''
      : complete === encoding.columns
        ? ' (none has a missing-value coordinate: the schema says none can be missing)'
        : ` (${complete} without a missing-value coordinate: the schema says ${complete === 1 ? 'it cannot' : 'they cannot'} be missing)`;
  const lines = [
    `Encoded rows: d = ${formatCount(encoding.dimension)} coordinates from p = ${encoding.columns} columns${completeNote}; residuals clipped to C = ${fmt(plan.clipRadius)}.`,
    `K = ${formatCount(clusters)} clusters${encoding.label ? ` (${formatCount(plan.clustersPerClass)} per class of \`${encoding.label.name}\`${encoding.label.complete ? ', which cannot be missing: no missing class' : ', missing included'})` : ''}, each kept when its noisy size is at least l_min = ${formatCount(minClusterSize)}.`,
    `Budget ρ = ${up4(budget.rho)} (μ = √(2ρ) = ${roundUp(Math.sqrt(2 * rho) * (1 + 1e-12), 4)}, shown for comparison, not a GDP claim): ${split.join(', ')}.`,
    `A cluster of n/K = ${fmt(n / clusters)} rows has noise SD ${fmt(meanNoise)} on one coordinate of its mean (0–1 scale).`,
  ];
  const delta = parseBudget(context.epsilon, context.delta).delta.toNumber();
  if (delta > 1 / n) {
    lines.push(
      `δ = ${delta} is above 1/n = ${fmt(1 / n)}: such a δ allows releasing a few rows outright; choose δ ≤ 1/n.`,
    );
  }
  if (n / clusters < 2 * minClusterSize) {
    lines.push(
      `n/K = ${fmt(n / clusters)} rows per cluster is below 2·l_min = ${formatCount(2 * minClusterSize)}: many clusters will fall below l_min and be dropped; choose fewer clusters or a larger sigmaMax.`,
    );
  }
  if (budget.momentNoise) {
    const gramNoise = Math.sqrt(budget.momentNoise.gramSigma2.toNumber()) / (FEATURE_GRID * FEATURE_GRID);
    const diagonal = n / (2 * plan.settings.features);
    if (gramNoise > diagonal) {
      lines.push(
        `The random-feature Gram matrix gets noise SD ${fmt(gramNoise)}, above n/(2F) = ${fmt(diagonal)}, the size of its diagonal: the adapt step would mostly fit noise; give it a larger share or fewer features.`,
      );
    }
  }
  return lines;
}

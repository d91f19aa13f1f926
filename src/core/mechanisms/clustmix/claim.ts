import { standardAssumptions } from '../../privacy/assumptions';
import type { PublicContext } from '../types';
import { completeColumnSentences } from '../common/claims/complete-column-sentences';
import { RESIDUAL_GRID, type ClustmixPlan } from './plan';

/** What the guarantee rests on beyond the schema facts (DESIGN.md privacy rule 6). */
export function clustmixAssumptions(plan: ClustmixPlan): string[] {
  return [
    'Numeric values outside their declared bounds are clamped into them, and categorical values outside the ' +
      'declared categories count as missing (refused in a column that cannot be missing): fixed rules from ' +
      'the schema, so every row’s encoding, and with it each sensitivity, is bounded whatever the data.',
    `Each row’s residual to its cluster’s public centroid is clipped to norm C = ${plan.clipRadius.toPrecision(6)} ` +
      `and truncated toward 0 on a grid of C/${RESIDUAL_GRID}: this biases the cluster means and spreads ` +
      'toward the centroids for far rows and never weakens the guarantee.',
    'The steps compose in zero-concentrated DP (their ρ add up; Bun & Steinke 2016, Lemma 1.7), and the total ρ ' +
      'is converted to (ε, δ) by Canonne, Kamath & Steinke 2020, Corollary 13. μ = √(2ρ) is shown for ' +
      'comparison with Gaussian DP only: the discrete Gaussian is not exactly μ-GDP, so μ is no GDP claim.',
    'Centroids start uniformly in the encoding’s box, the number of iterations and clusters are fixed in ' +
      'advance, and the synthetic tables are drawn from the one released mixture (post-processing).',
  ];
}

/** The claim's sentences: the schema facts and seed, ClustMix's own, and the complete columns. */
export function clustmixClaimAssumptions(plan: ClustmixPlan, context: PublicContext): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...clustmixAssumptions(plan),
    ...completeColumnSentences(context.schema, CLUSTMIX_MISSING_PART),
  ];
}

/** What ClustMix keeps for a column that can be missing (encoding.ts). */
const CLUSTMIX_MISSING_PART = {
  none: 'missing-value coordinate in the encoding (as the label: no missing class)',
  some: 'a missing-value coordinate in the encoding (as the label: a missing class)',
};

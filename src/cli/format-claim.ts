import { unprovenBoundPhrase } from '../core/privacy/claim-bound';
import type { PrivacyClaim } from '../core/privacy/types';

/**
 * The claim as plain text for the terminal: notion, budget (followed by "— not a proven bound (why)" when
 * the claim's bound is unproven), neighbouring relation, steps and assumptions.
 */
export function formatClaim(claim: PrivacyClaim): string {
  const budget =
    claim.notion === 'gdp'
      ? `μ = ${claim.mu} (implies ε = ${claim.epsilon}, δ = ${claim.delta})`
      : claim.notion === 'approx-dp'
        ? `ε = ${claim.epsilon}, δ = ${claim.delta}`
        : `ε = ${claim.epsilon}`;
  const unproven = unprovenBoundPhrase(claim);
  const afterBudget = unproven === null ? ',' : ` — ${unproven};`;
  const lines = [
    `Privacy claim: ${claim.notion}, ${budget}${afterBudget} neighbouring datasets: ${claim.neighbouring}`,
    ...(claim.otherRelation === undefined ? [] : [`  ${claim.otherRelation}`]),
    'Steps:',
  ];
  for (const step of claim.steps) {
    const cost = [
      `ε = ${step.epsilon}`,
      step.delta ? `δ = ${step.delta}` : '',
      step.mu ? `μ = ${step.mu}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`  - ${step.what} (${cost})`);
  }
  if (claim.assumptions.length > 0) {
    lines.push('Assumptions:');
    for (const a of claim.assumptions) lines.push(`  - ${a}`);
  }
  return `${lines.join('\n')}\n`;
}

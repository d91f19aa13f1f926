import { roundUpRational, sqrtRationalDown } from '../../../privacy/round-up';
import type { ColumnCoding } from '../coding/column-coding';
import { quantileCodings, type QuantileBinPlan } from './quantile-bins';

/**
 * What describe() says about point masses, quantile bins and the rule inside a bin, from the plan
 * only (public facts: the codings' bin counts and point masses, the step's ε; never the edges).
 */
export function quantileBinSentences(
  plan: QuantileBinPlan | undefined,
  codings: readonly ColumnCoding[],
): string[] {
  const lines: string[] = [];
  const withPoints = codings.filter((coding) => coding.kind !== 'categorical' && coding.points?.length);
  if (withPoints.length > 0) {
    const named = withPoints.map(
      (coding) =>
        `${coding.name} (${(coding.kind !== 'categorical' ? (coding.points ?? []) : []).join(', ')})`,
    );
    lines.push(
      `Point masses, each a level of its own that decodes to exactly its value: ${named.join('; ')}.`,
    );
  }
  const withCandidates = quantileCodings(codings).filter((coding) => coding.candidates !== undefined);
  if (plan?.detectionSigma2 !== undefined && withCandidates.length > 0) {
    const named = withCandidates.map((coding) => `${coding.name} (${coding.candidates!.values.join(', ')})`);
    lines.push(
      `Candidate point masses, each with a level of its own that is used only when the value's noisy count (σ = ` +
        `${String(roundUpRational(sqrtRationalDown(plan.detectionSigma2, 4)))}) reaches ${plan.pointMassShare} of the noisy row ` +
        `count, else closed: ${named.join('; ')}.`,
    );
  }
  if (plan !== undefined) {
    const columns = quantileCodings(codings).map((coding) => `${coding.name} ${coding.bins}`);
    lines.push(
      `Quantile bins (${columns.join(', ')}): ${plan.draws} bin edges, each an exponential mechanism with ε = ` +
        `${String(roundUpRational(plan.epsilonPerEdge))} over a public grid within the bounds, aiming at the ` +
        'quantiles j/B of the values that are not point masses.',
    );
  }
  if (withPoints.length > 0 || plan !== undefined) {
    lines.push(
      'Inside a bin, a synthetic value is drawn uniformly: among the whole numbers of the bin that are not point ' +
        'masses for an integer column, continuously between the edges otherwise. The spread within a bin is not ' +
        'learned, so a propensity model that splits inside a bin can tell real from synthetic values there (pMSE rises); ' +
        'narrower bins where the data lie, and point masses for repeated values, make that spread smaller.',
    );
  }
  return lines;
}

import { addRemoveAssumptions, relationOf } from '../../neighbouring';
import type { PublicContext } from '../../types';

/**
 * The claim's sentence on the relation's sensitivities for a graphical-model mechanism (MST, AIM):
 * zCDP composed and converted to (ε, δ), each histogram's L2 sensitivity and the selection score's
 * under the run's relation, and under add/remove how n is estimated (addRemoveAssumptions).
 */
export function pgmRelationAssumptions(
  context: Pick<PublicContext, 'neighbouring' | 'schema'>,
  score: { replaceOne: string; addRemove: string },
  total: string,
): string[] {
  const zcdp =
    'The budget is composed in zero-concentrated DP (ρ) and stated as (ε, δ) by the conversion of Canonne, Kamath & ' +
    'Steinke 2020 (Corollary 13). ';
  if (relationOf(context) === 'replace-one') {
    return [
      zcdp +
        'Sensitivities are for replacing one row: √2 in L2 for a histogram (ρ = 1/σ² ' +
        `per histogram), ${score.replaceOne}.`,
    ];
  }
  return [
    zcdp +
      'Sensitivities are for adding or removing one row: 1 in L2 for a histogram (ρ = 1/(2σ²) per histogram), ' +
      `${score.addRemove}.`,
    ...addRemoveAssumptions(
      context,
      `nothing reads it but ${total}, post-processing of the noisy histograms`,
    ),
  ];
}

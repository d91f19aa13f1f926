import { parseRational, Rational } from '../rng/rational';
import { exponentialUpperBound } from './exp-upper-bound';
import type { Neighbouring } from './query-sensitivity';
import { roundUp, roundUpRational } from './round-up';
import type { PrivacyClaim } from './types';
import { zcdpToApproxDp } from './zcdp';

/**
 * What a guarantee stated under one neighbouring relation implies under the other, in one sentence, so
 * that a figure can be compared with a tool that states the other relation (DESIGN.md §3 rule 1).
 *
 * Replace-one with n public → add/remove: nothing. The run reads n as public (its synthetic tables have
 * n rows, its domain may use n), so whether a person is in the table at all is not protected.
 *
 * Add/remove → replace-one: a replacement is a removal followed by an addition, two add/remove steps:
 * - pure ε-DP gives 2ε-DP (group privacy for two steps, Dwork & Roth 2014, Theorem 2.2);
 * - (ε, δ)-DP gives (2ε, (1 + e^ε)·δ)-DP (the same chaining with δ; Dwork & Roth 2014, §2.3);
 * - ρ-zCDP gives 4ρ-zCDP in general (Bun & Steinke 2016, Proposition 1.9: k²ρ for groups of k = 2), and
 *   less where the mechanism knows its steps: a Gaussian histogram's Δ₂² is 1 under add/remove and 2
 *   under replace-one, so its ρ = Δ₂²/(2σ²) doubles exactly; an exponential-mechanism score of sensitivity
 *   Δ under add/remove moves by at most 2Δ under replace-one (query-sensitivity.ts), so a round that is
 *   ε-bounded-range becomes 2ε-bounded-range, ρ = (2ε)²/8: four times (Cesar & Rogers 2021, Lemma 3.2).
 *   The mechanism passes the replace-one ρ it derived that way (an upper bound, exact where it can be).
 * Every number is rounded up (privacy rule 7).
 */
export type OtherRelationCost =
  | { notion: 'pure-dp'; epsilon: Rational }
  | { notion: 'approx-dp'; epsilon: Rational; delta: Rational }
  | { notion: 'zcdp'; rho: Rational; delta: Rational; why: string };

/** The sentence for a run under `relation`; `addRemoveCost` is the cost of the run under add/remove. */
export function otherRelationSentence(relation: Neighbouring, addRemoveCost?: OtherRelationCost): string {
  if (relation === 'replace-one') {
    return (
      'Under add/remove neighbours (one row added or removed) this claim implies nothing: n is treated as ' +
      'public (the synthetic tables have n rows), so whether a person is in the table at all is not protected.'
    );
  }
  if (addRemoveCost === undefined) throw new RangeError('an add/remove claim needs its cost to convert');
  return `Under replace-one neighbours (one row replaced, n public) the same run is ${replaceOneCostInWords(addRemoveCost)}.`;
}

function replaceOneCostInWords(cost: OtherRelationCost): string {
  const two = Rational.of(2);
  switch (cost.notion) {
    case 'pure-dp':
      return (
        `ε = ${roundUpRational(cost.epsilon.mul(two))}-DP: a replacement is a removal and an addition, so ε ` +
        'doubles (group privacy for two steps, Dwork & Roth 2014, Theorem 2.2)'
      );
    case 'approx-dp': {
      const growth = exponentialUpperBound(cost.epsilon);
      const delta = growth === null ? Rational.ONE : Rational.ONE.add(growth).mul(cost.delta);
      return (
        `(ε = ${roundUpRational(cost.epsilon.mul(two))}, δ = ${roundUpRational(delta)})-DP: a replacement is a ` +
        'removal and an addition, so ε doubles and δ becomes (1 + e^ε)·δ (Dwork & Roth 2014, §2.3)'
      );
    }
    case 'zcdp': {
      const delta = cost.delta.toNumberDown();
      const epsilon = roundUp(zcdpToApproxDp(cost.rho.toNumberUp(), delta));
      return (
        `ρ = ${roundUpRational(cost.rho)}-zCDP, hence (ε = ${epsilon}, δ = ${roundUpRational(cost.delta)})-DP ` +
        `by the same conversion: ${cost.why}`
      );
    }
  }
}

/** The claim with its `otherRelation` sentence. */
export function withOtherRelation(claim: PrivacyClaim, addRemoveCost?: OtherRelationCost): PrivacyClaim {
  return { ...claim, otherRelation: otherRelationSentence(claim.neighbouring, addRemoveCost) };
}

/** A pure-ε claim's conversion, from its exact ε (the claim's own ε is already rounded up). */
export function pureClaimWithOtherRelation(claim: PrivacyClaim, epsilon: Rational): PrivacyClaim {
  return withOtherRelation(claim, { notion: 'pure-dp', epsilon });
}

/** The δ of a claim as an exact rational (a claim's δ is a rounded-up decimal). */
export function claimDelta(claim: PrivacyClaim): Rational {
  return parseRational(claim.delta);
}

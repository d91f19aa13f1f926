import type { Neighbouring } from '../../../privacy/query-sensitivity';
import { pureClaimWithOtherRelation, withOtherRelation } from '../../../privacy/relation-conversion';
import type { PrivacyClaim } from '../../../privacy/types';
import type { Rational } from '../../../rng/rational';

/**
 * A pure-ε claim of a histogram mechanism with what it implies under the other relation: nothing for
 * replace-one; 2ε for add/remove (one scale t = 1/ε per unit of the counts' add/remove sensitivity 1;
 * their replace-one L1 is 2, so the same noise is 2ε-DP there, exactly).
 */
export function histogramClaim(claim: PrivacyClaim, relation: Neighbouring, epsilon: Rational): PrivacyClaim {
  return relation === 'replace-one' ? withOtherRelation(claim) : pureClaimWithOtherRelation(claim, epsilon);
}

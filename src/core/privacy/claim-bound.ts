import type { PrivacyClaim, UnprovenBound } from './types';

/** The `bound` fields of a claim: "proven" by default, "unproven" with its reason when one is given. */
export function claimBound(unproven?: UnprovenBound): Pick<PrivacyClaim, 'bound' | 'unprovenBecause'> {
  if (unproven === undefined) return { bound: 'proven' };
  const reason = unproven.unprovenBecause.trim();
  if (reason === '') throw new RangeError('claim: an unproven bound needs a reason');
  return { bound: 'unproven', unprovenBecause: reason };
}

/** "not a proven bound (greedy trees, depth 5)" for an unproven claim, null for a proven one. */
export function unprovenBoundPhrase(claim: Pick<PrivacyClaim, 'bound' | 'unprovenBecause'>): string | null {
  if (claim.bound === 'proven') return null;
  return claim.unprovenBecause === undefined
    ? 'not a proven bound'
    : `not a proven bound (${claim.unprovenBecause})`;
}

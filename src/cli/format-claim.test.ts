import { describe, expect, it } from 'vitest';
import type { PrivacyClaim } from '../core/privacy/types';
import { formatClaim } from './format-claim';

const claim: PrivacyClaim = {
  notion: 'pure-dp',
  epsilon: 1,
  delta: 0,
  neighbouring: 'replace-one',
  bound: 'proven',
  steps: [{ what: 'release 1 of 1', epsilon: 1 }],
  assumptions: ['An assumption.'],
};

describe('formatClaim', () => {
  it('states a proven claim on its first line without a bound note', () => {
    const first = formatClaim(claim).split('\n')[0];
    expect(first).toBe('Privacy claim: pure-dp, ε = 1, neighbouring datasets: replace-one');
  });

  it('says on the first line when ε is not a proven bound, and keeps the assumptions', () => {
    const text = formatClaim({ ...claim, bound: 'unproven', unprovenBecause: 'greedy trees, depth 5' });
    expect(text.split('\n')[0]).toBe(
      'Privacy claim: pure-dp, ε = 1 — not a proven bound (greedy trees, depth 5); neighbouring datasets: replace-one',
    );
    expect(text).toContain('  - An assumption.');
  });
});

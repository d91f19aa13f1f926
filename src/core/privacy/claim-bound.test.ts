import { describe, expect, it } from 'vitest';
import { claimBound, unprovenBoundPhrase } from './claim-bound';

describe('claim bounds', () => {
  it('are proven unless a reason is given, and a reason cannot be blank', () => {
    expect(claimBound()).toEqual({ bound: 'proven' });
    expect(claimBound({ unprovenBecause: '  greedy trees  ' })).toEqual({
      bound: 'unproven',
      unprovenBecause: 'greedy trees',
    });
    expect(() => claimBound({ unprovenBecause: ' ' })).toThrow('claim: an unproven bound needs a reason');
  });

  it('are worded for people only when unproven, with the reason when there is one', () => {
    expect(unprovenBoundPhrase({ bound: 'proven' })).toBeNull();
    expect(unprovenBoundPhrase({ bound: 'unproven' })).toBe('not a proven bound');
    expect(unprovenBoundPhrase({ bound: 'unproven', unprovenBecause: 'greedy trees, depth 5' })).toBe(
      'not a proven bound (greedy trees, depth 5)',
    );
  });
});

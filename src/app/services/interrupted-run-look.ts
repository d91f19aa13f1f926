import { isSpentBudgetError } from '../../core/privacy/spent-budget-error';
import type { PrivacyClaim } from '../../core/privacy/types';
import { recordLook } from '../state/ledger-store';
import { useLiveMcmcStore } from '../state/live-mcmc-store';

/**
 * A run that stops (cancelled or failed) after its live MCMC traces were shown has still shown the
 * data holder values computed from the real data (u(X, θ) of each chain), so the ledger counts it as
 * a look at the budget its claim states. Returns whether it was recorded: false when no trace point of
 * this run was shown (nothing of the data was seen).
 */
export function recordInterruptedRunLook(jobId: string, mechanismId: string, claim: PrivacyClaim): boolean {
  const live = useLiveMcmcStore.getState();
  if (live.jobId !== jobId || !live.chains.some((chain) => chain.u.length > 0)) return false;
  recordLook(jobId, {
    kind: 'run',
    mechanism: mechanismId,
    // The mechanism's part: a learned schema's steps were counted when the learning was shown.
    epsilon: (claim.composedOf?.mechanism ?? claim).epsilon,
    delta: (claim.composedOf?.mechanism ?? claim).delta,
    runs: 1,
    what: `run of ${mechanismId} stopped after its live MCMC traces were shown`,
    neighbouring: claim.neighbouring,
  });
  return true;
}

/**
 * A run refused after its budget was spent (a SpentBudgetError, e.g. the pMSE mechanism refusing values
 * that overflow, a decision made from its DP outputs and shown as the failure message) is a look at the
 * budget its claim states, whether or not live traces were shown. Returns whether it was recorded.
 */
export function recordRefusedRunLook(
  jobId: string,
  mechanismId: string,
  claim: PrivacyClaim,
  error: unknown,
): boolean {
  if (!isSpentBudgetError(error)) return false;
  // The mechanism's part: a learned schema's steps were counted when the learning was shown.
  const own = claim.composedOf?.mechanism ?? claim;
  recordLook(jobId, {
    kind: 'run',
    mechanism: mechanismId,
    epsilon: own.epsilon,
    delta: own.delta,
    runs: 1,
    what: `run of ${mechanismId} refused after its budget was spent (nothing released)`,
    neighbouring: claim.neighbouring,
  });
  return true;
}

import { create } from 'zustand';

/** One chain's live trace: a point about every 1 % of its iterations. */
export interface LiveChainTrace {
  iterations: number[];
  /** u(X, θ) of the chain's current state. */
  u: number[];
  /** Share of proposals accepted since the previous point. */
  acceptance: number[];
}

interface LiveMcmcState {
  /** The run these traces belong to; null when no MCMC run has started. */
  jobId: string | null;
  burnIn: number;
  total: number;
  chains: LiveChainTrace[];
}

/**
 * Live MCMC traces of the running pMSE-mechanism job, fed by the chains' progress callbacks.
 * Computed from the real data: shown to the data holder during the run, never exported.
 * Kept apart from the results store so that a tick re-renders only the live panel.
 */
export const useLiveMcmcStore = create<LiveMcmcState>(() => ({
  jobId: null,
  burnIn: 0,
  total: 0,
  chains: [],
}));

export function beginLiveMcmc(jobId: string, chains: number, burnIn: number, total: number): void {
  useLiveMcmcStore.setState({
    jobId,
    burnIn,
    total,
    chains: Array.from({ length: chains }, () => ({ iterations: [], u: [], acceptance: [] })),
  });
}

export function addLiveMcmcPoint(
  jobId: string,
  chain: number,
  iteration: number,
  u: number,
  acceptance: number,
): void {
  useLiveMcmcStore.setState((state) => {
    if (state.jobId !== jobId || state.chains[chain] === undefined) return state;
    const previous = state.chains[chain];
    const chains = state.chains.slice();
    chains[chain] = {
      iterations: [...previous.iterations, iteration],
      u: [...previous.u, u],
      acceptance: [...previous.acceptance, acceptance],
    };
    return { chains };
  });
}

export function clearLiveMcmc(): void {
  useLiveMcmcStore.setState({ jobId: null, burnIn: 0, total: 0, chains: [] });
}

import { useShallow } from 'zustand/react/shallow';
import { RHAT_WARNING_THRESHOLD } from '../../../core/mcmc/rhat';
import { liveRhat } from '../../services/live-rhat';
import { CHAIN_COLOURS } from '../../charts/chain-colours';
import { LiveTraceChart } from '../../charts/LiveTraceChart';
import { useLiveMcmcStore, type LiveChainTrace } from '../../state/live-mcmc-store';

/** Acceptance over the points after burn-in (each point covers the iterations since the previous one). */
function postBurnInAcceptance(chain: LiveChainTrace, burnIn: number): number | null {
  let accepted = 0;
  let iterations = 0;
  let previous = 0;
  chain.iterations.forEach((iteration, i) => {
    if (previous >= burnIn) {
      accepted += chain.acceptance[i]! * (iteration - previous);
      iterations += iteration - previous;
    }
    previous = iteration;
  });
  return iterations > 0 ? accepted / iterations : null;
}

/** Live traces of u and acceptance per chain with an R̂ badge, while the pMSE mechanism runs. */
export function LiveMcmcPanel() {
  const { chains, burnIn, total } = useLiveMcmcStore(
    useShallow((state) => ({ chains: state.chains, burnIn: state.burnIn, total: state.total })),
  );
  if (chains.length === 0) return null;
  const rhat = liveRhat(chains, burnIn);
  const series = (pick: (chain: LiveChainTrace) => number[]) =>
    chains.map((chain, c) => ({
      label: `chain ${c + 1}`,
      colour: CHAIN_COLOURS[c % CHAIN_COLOURS.length]!,
      x: chain.iterations,
      y: pick(chain),
    }));
  const marker = { x: burnIn, label: 'burn-in ends' };
  return (
    <section className="live-mcmc" aria-labelledby="live-mcmc-title" data-testid="live-mcmc">
      <h3 id="live-mcmc-title">
        MCMC chains, live <span className="data-holder-tag">for the data holder</span>
      </h3>
      <p className="caption">
        Computed from the real data, not part of the release. Good: after burn-in the chains’ traces of u
        overlap, acceptance stays roughly between 20% and 50%, and R̂ falls below {RHAT_WARNING_THRESHOLD}.
      </p>
      <p>
        <span
          className={`rhat-badge ${rhat === null ? 'rhat-pending' : rhat < RHAT_WARNING_THRESHOLD ? 'rhat-ok' : 'rhat-warn'}`}
          data-testid="live-rhat"
        >
          R̂ (u): {rhat === null ? 'after burn-in' : rhat.toFixed(3)}
        </span>{' '}
        {chains.map((chain, c) => {
          const acceptance = postBurnInAcceptance(chain, burnIn);
          return (
            <span key={c} className="hint live-acceptance">
              <span
                className="legend-swatch"
                style={{ background: CHAIN_COLOURS[c % CHAIN_COLOURS.length] }}
                aria-hidden="true"
              />{' '}
              chain {c + 1}: {chain.iterations.at(-1) ?? 0} of {total} iterations, acceptance{' '}
              {acceptance === null ? '—' : `${(acceptance * 100).toFixed(0)}%`}
            </span>
          );
        })}
      </p>
      <LiveTraceChart
        series={series((chain) => chain.u)}
        xMax={total}
        marker={marker}
        yLabel="u"
        ariaLabel="Live trace of u, the pMSE of each chain's current parameters, against the iteration"
      />
      <LiveTraceChart
        series={series((chain) => chain.acceptance)}
        xMax={total}
        marker={marker}
        yLabel="acc."
        ariaLabel="Live acceptance rate of each chain against the iteration"
      />
    </section>
  );
}

import { lazy, Suspense } from 'react';
import { CHAIN_COLOURS } from '../../charts/chain-colours';
import { StaggeredMount } from '../../components/StaggeredMount';
import type { FinishedRun } from '../../state/results-store';

/** The MCMC part of a mechanism's diagnostics, as the pMSE mechanism reports it. */
export interface McmcDiagnostics {
  notice: string;
  chains: {
    chain: number;
    acceptanceRate: number;
    iterationsPerSecond: number;
    trace: { iterations: number[]; u: number[] };
  }[];
  rhat: Record<string, number>;
  maxRhat: number;
  warnings: string[];
}

/** The MCMC diagnostics of a run, when its mechanism reports them (duck-typed, any mechanism). */
export function mcmcDiagnosticsOf(run: FinishedRun): McmcDiagnostics | null {
  const mcmc = (run.summary.dataHolderDiagnostics as { mcmc?: Partial<McmcDiagnostics> } | undefined)?.mcmc;
  if (!mcmc || !Array.isArray(mcmc.chains) || typeof mcmc.rhat !== 'object') return null;
  return mcmc as McmcDiagnostics;
}

/** The most points of each chain's trace drawn in the chart. */
const TRACE_POINTS_DRAWN = 250;

// The charting library is loaded only when a run has MCMC diagnostics.
const TraceChart = lazy(() => import('../../charts/TraceChart'));

/** Acceptance rates, split-R̂ per quantity, and the trace of u(X, θ) of every chain. */
export function McmcPanel({ run }: { run: FinishedRun }) {
  const mcmc = mcmcDiagnosticsOf(run);
  if (mcmc === null) return null;
  const burnIn = (run.summary.diagnostics as { iterationsPerChain?: { burnIn?: number } }).iterationsPerChain
    ?.burnIn;
  const iterations = mcmc.chains[0]?.trace.iterations;
  // At most TRACE_POINTS_DRAWN points per chain are drawn (evenly, the last one kept): the chart is
  // a few hundred pixels wide, and each point costs the charting library time when it mounts.
  const stride =
    iterations === undefined ? 1 : Math.max(1, Math.ceil(iterations.length / TRACE_POINTS_DRAWN));
  const points = iterations
    ?.map((iteration, i) => ({ iteration, i }))
    .filter(({ i }) => i % stride === 0 || i === iterations.length - 1)
    .map(({ iteration, i }) => {
      const point: Record<string, number> = { iteration };
      mcmc.chains.forEach((chain) => (point[`chain ${chain.chain + 1}`] = chain.trace.u[i]!));
      return point;
    });
  return (
    <>
      <p className="data-holder-note">{mcmc.notice}</p>
      {mcmc.warnings.map((warning) => (
        <p key={warning} className="seed-warning" role="status">
          {warning}
        </p>
      ))}
      <dl className="headline-numbers" data-testid="mcmc-numbers">
        <div>
          <dt>Largest R̂</dt>
          <dd>{Number.isFinite(mcmc.maxRhat) ? mcmc.maxRhat.toFixed(3) : '—'}</dd>
        </div>
        {mcmc.chains.map((chain) => (
          <div key={chain.chain}>
            <dt>Chain {chain.chain + 1} acceptance</dt>
            <dd>{(chain.acceptanceRate * 100).toFixed(0)}%</dd>
          </div>
        ))}
      </dl>
      <details>
        <summary>R̂ of every parameter</summary>
        <ul className="rhat-list">
          {Object.entries(mcmc.rhat).map(([name, value]) => (
            <li key={name}>
              {name}: {value.toFixed(3)}
            </li>
          ))}
        </ul>
      </details>
      {points && (
        <p className="chart-legend">
          Trace of the quality u(X, θ) (mean pMSE) by iteration:
          {mcmc.chains.map((chain, i) => (
            <span key={chain.chain}>
              <span
                className="legend-swatch"
                style={{ background: CHAIN_COLOURS[i % CHAIN_COLOURS.length] }}
              />{' '}
              chain {chain.chain + 1}
            </span>
          ))}
        </p>
      )}
      {points && (
        <div
          className="chart-box"
          role="img"
          data-chart="mcmc-trace"
          aria-label={`Trace of u(X, θ) for each chain. ${describeTraces(mcmc)}`}
        >
          <StaggeredMount placeholderHeight={220}>
            <Suspense fallback={null}>
              <TraceChart
                points={points}
                seriesNames={mcmc.chains.map((chain) => `chain ${chain.chain + 1}`)}
                colours={mcmc.chains.map((_, i) => CHAIN_COLOURS[i % CHAIN_COLOURS.length]!)}
                burnIn={burnIn}
              />
            </Suspense>
          </StaggeredMount>
        </div>
      )}
    </>
  );
}

/** The trace's key numbers: per chain, u at the first and last recorded iteration and its range. */
function describeTraces(mcmc: McmcDiagnostics): string {
  return mcmc.chains
    .map((chain) => {
      const { iterations, u } = chain.trace;
      if (u.length === 0) return `chain ${chain.chain + 1}: no trace`;
      const format = (value: number) => value.toPrecision(3);
      return `chain ${chain.chain + 1}: u ${format(u[0]!)} at iteration ${iterations[0]}, ${format(u.at(-1)!)} at iteration ${iterations.at(-1)}, between ${format(Math.min(...u))} and ${format(Math.max(...u))}`;
    })
    .join('; ');
}

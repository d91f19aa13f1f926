import type { FinishedRun } from '../../state/results-store';

/**
 * The mechanism's warnings computed from the real data (`dataHolderDiagnostics.warnings`, e.g. a sequential
 * regression's solver certificate above its allowed gap), duck-typed for any mechanism.
 */
export function dataHolderWarningsOf(run: FinishedRun): string[] {
  const warnings = (run.summary.dataHolderDiagnostics as { warnings?: unknown } | undefined)?.warnings;
  return Array.isArray(warnings) ? warnings.filter((w): w is string => typeof w === 'string') : [];
}

/** One line per warning; shown only to the data holder, never exported. */
export function DataHolderWarningsPanel({ run }: { run: FinishedRun }) {
  return (
    <>
      {dataHolderWarningsOf(run).map((warning) => (
        <p key={warning} className="seed-warning" role="status">
          {warning}
        </p>
      ))}
    </>
  );
}

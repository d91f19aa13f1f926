import type { UtilityReport } from '../../../core/metrics/evaluate';
import { MatrixHeatmap } from '../../charts/MatrixHeatmap';
import type { FinishedRun } from '../../state/results-store';

/** Association matrices (Pearson, Cramér's V, correlation ratio η) of real and synthetic data and their difference. */
export function CorrelationPanel({ evaluation }: { run: FinishedRun; evaluation: UtilityReport | null }) {
  if (evaluation === null) return null;
  const first = evaluation.correlation.perRelease[0]!;
  const meanAbsolute = evaluation.correlation.meanAbsoluteDifference.mean;
  return (
    <>
      <p className="hint">
        Mean |synthetic − real| over column pairs:{' '}
        <strong data-testid="correlation-mad">{meanAbsolute === null ? '—' : meanAbsolute.toFixed(3)}</strong>
        . Pearson r for two numeric columns, Cramér&apos;s V for two categorical ones, η for mixed pairs.
      </p>
      <div className="matrix-row">
        <MatrixHeatmap title="Real" labels={first.columns} values={first.real} scale="signed" />
        <MatrixHeatmap
          title="Synthetic (mean over releases)"
          labels={first.columns}
          values={evaluation.correlation.meanSynth}
          scale="signed"
        />
        <MatrixHeatmap
          title="Synthetic − real"
          labels={first.columns}
          values={evaluation.correlation.meanDifference}
          scale="signed"
        />
      </div>
    </>
  );
}

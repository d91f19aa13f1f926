import type { UtilityReport } from '../../../core/metrics/evaluate';
import { SYNTHETIC_COLOUR } from '../../charts/OverlayBarChart';
import { ScoreBarChart } from '../../charts/ScoreBarChart';
import type { FinishedRun } from '../../state/results-store';
import { proportionStandardError } from '../../../core/stats/proportion-standard-error';
import { formatCount } from '../../components/number-format';

/** Held-out accuracy of a classifier trained to tell real rows from synthetic ones (0.5 is best). */
export function DistinguishingGamePanel({
  evaluation,
}: {
  run: FinishedRun;
  evaluation: UtilityReport | null;
}) {
  const game = evaluation?.distinguishingGame;
  if (!game) return null;
  return (
    <>
      <div data-testid="distinguishing-game-chart">
        <ScoreBarChart
          groups={game.perRelease.map((release, i) => ({
            label: game.perRelease.length > 1 ? `Release ${i + 1}` : 'Synthetic',
            bars: [
              {
                label: 'held-out accuracy',
                value: release.accuracy,
                colour: SYNTHETIC_COLOUR,
                synthetic: true,
              },
            ],
          }))}
          reference={{ value: 0.5, label: 'A coin flip: 0.5, the best a synthetic table can score' }}
          ariaLabel="Held-out accuracy of telling real from synthetic rows per release; the dashed line marks 0.5, a coin flip"
        />
      </div>
      <dl className="headline-numbers" data-testid="distinguishing-game">
        <div>
          <dt>Mean accuracy</dt>
          <dd>{game.meanAccuracy.toFixed(3)}</dd>
        </div>
        {game.perRelease.map((release, i) => (
          <div key={i}>
            <dt>Release {i + 1}</dt>
            <dd>
              {release.accuracy.toFixed(3)}
              <span className="hint">
                {' '}
                ({release.model}, {formatCount(release.testRows)} test rows of{' '}
                {formatCount(release.rowsPerSide)} drawn uniformly per side; standard error{' '}
                {proportionStandardError(release.accuracy, release.testRows).toFixed(3)})
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}

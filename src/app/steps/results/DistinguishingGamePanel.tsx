import type { UtilityReport } from '../../../core/metrics/evaluate';
import type { FinishedRun } from '../../state/results-store';

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
              ({release.model}, {release.testRows.toLocaleString('en')} test rows)
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

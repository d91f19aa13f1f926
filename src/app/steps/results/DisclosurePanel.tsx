import type { UtilityReport } from '../../../core/metrics/evaluate';
import type { FinishedRun } from '../../state/results-store';

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** Exact matches and distance to the closest real record: a sanity check, not a privacy guarantee. */
export function DisclosurePanel({ evaluation }: { run: FinishedRun; evaluation: UtilityReport | null }) {
  const disclosure = evaluation?.disclosure;
  if (!disclosure) return null;
  return (
    <>
      <p className="data-holder-note">{disclosure.label}</p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Disclosure table">
        <table className="metric-table" data-testid="disclosure-table">
          <thead>
            <tr>
              <th scope="col">Release</th>
              <th scope="col">Synthetic rows equal to a real row</th>
              <th scope="col">Real rows with a real duplicate</th>
              <th scope="col">Median distance synthetic → real</th>
              <th scope="col">Median distance real → real</th>
            </tr>
          </thead>
          <tbody>
            {disclosure.perRelease.map((release, i) => (
              <tr key={i}>
                <th scope="row">{i + 1}</th>
                <td>{percent(release.exactMatches.synthShare)}</td>
                <td>{percent(release.exactMatches.realShare)}</td>
                <td>{release.distanceToClosestRecord.synthToReal.median.toFixed(3)}</td>
                <td>{release.distanceToClosestRecord.realToReal.median.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

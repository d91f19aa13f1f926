import { useDeferredValue } from 'react';
import { StepSection } from '../../components/StepSection';
import { DataHolderNote } from '../../components/DataHolderNote';
import { useDataStore } from '../../state/data-store';
import { ColumnCards } from './ColumnCards';
import { DemoPicker } from './DemoPicker';
import { DropZone } from './DropZone';
import { EncodingChoice } from './EncodingChoice';
import { RowPreview } from './RowPreview';
import { formatCount } from '../../components/number-format';

export function DataStep() {
  const dataset = useDataStore((state) => state.dataset);
  const provenance = useDataStore((state) => state.provenance);
  // The preview and the column cards (and their layout) render after the facts and the other steps
  // have been painted, in a task of their own.
  const previewed = useDeferredValue(dataset);
  return (
    <StepSection
      id="step-data"
      title="Data"
      intro="Bring a table. It is parsed in a background worker of this tab and never leaves your computer."
    >
      <div className="data-intake">
        <DropZone />
        <DemoPicker />
      </div>
      {dataset === null ? (
        <p className="empty-state">No data loaded yet. Drop a file above or load a demo.</p>
      ) : (
        <div className="dataset" data-testid="dataset-loaded">
          <p className="dataset-facts">
            <strong>{dataset.fileName}</strong>:{' '}
            <span data-testid="row-count">{formatCount(dataset.nRows)}</span> rows × {dataset.header.length}{' '}
            columns, read in {(dataset.parseMillis / 1000).toFixed(2)} s.
          </p>
          {dataset.encoding !== undefined && <EncodingChoice encoding={dataset.encoding} />}
          {dataset.encodingNote !== undefined && (
            <p className="encoding-note" role="note" data-testid="encoding-note">
              {dataset.encodingNote}
            </p>
          )}
          {provenance !== null && (
            <p className="provenance">
              <strong>{provenance.title}.</strong> Source: {provenance.source} Licence: {provenance.licence}.
            </p>
          )}
          <DataHolderNote>
            The preview and summaries show the real data: keep them to yourself.
          </DataHolderNote>
          {previewed === dataset ? (
            <>
              <RowPreview dataset={dataset} />
              <h3>Columns</h3>
              <ColumnCards profiles={dataset.profiles} />
            </>
          ) : (
            <p className="hint" aria-busy="true">
              Preparing the preview…
            </p>
          )}
        </div>
      )}
    </StepSection>
  );
}

import { StepSection } from '../../components/StepSection';
import { DataHolderNote } from '../../components/DataHolderNote';
import { useDataStore } from '../../state/data-store';
import { ColumnCards } from './ColumnCards';
import { DemoPicker } from './DemoPicker';
import { DropZone } from './DropZone';
import { RowPreview } from './RowPreview';

export function DataStep() {
  const dataset = useDataStore((state) => state.dataset);
  const provenance = useDataStore((state) => state.provenance);
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
            <span data-testid="row-count">{dataset.nRows.toLocaleString('en')}</span> rows ×{' '}
            {dataset.header.length} columns, read in {(dataset.parseMillis / 1000).toFixed(2)} s.
          </p>
          {provenance !== null && (
            <p className="provenance">
              <strong>{provenance.title}.</strong> Source: {provenance.source} Licence: {provenance.licence}.
            </p>
          )}
          <DataHolderNote>
            The preview and summaries show the real data: keep them to yourself.
          </DataHolderNote>
          <RowPreview dataset={dataset} />
          <h3>Columns</h3>
          <ColumnCards profiles={dataset.profiles} />
        </div>
      )}
    </StepSection>
  );
}

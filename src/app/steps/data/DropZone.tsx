import { useId, useState, type DragEvent } from 'react';
import { JobControls } from '../../components/JobControls';
import { useDataStore } from '../../state/data-store';
import { cancelLoad, loadDataset } from '../../services/load-dataset';

/**
 * Where a CSV or TSV file comes in: dropped onto the zone or picked with the file chooser.
 * Parsing happens in a worker (progress bar and Cancel here); a file that cannot be read
 * gets its message right here, and the dataset already loaded stays loaded.
 */
export function DropZone() {
  const inputId = useId();
  const errorId = useId();
  const [dragging, setDragging] = useState(false);
  const loadingFileName = useDataStore((state) => state.loadingFileName);
  const loadError = useDataStore((state) => state.loadError);

  const acceptFile = (file: File | undefined) => {
    if (file === undefined) return;
    void loadDataset({ kind: 'file', file, fileName: file.name });
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    acceptFile(event.dataTransfer.files[0]);
  };

  return (
    <div className="drop-area">
      <div
        className={`drop-zone${dragging ? ' drop-zone-active' : ''}`}
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p className="drop-zone-title">Drop a CSV or TSV file here</p>
        <p>
          or{' '}
          <label htmlFor={inputId} className="file-picker-label">
            choose a file
          </label>
          <input
            id={inputId}
            className="visually-hidden-input"
            type="file"
            accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values"
            aria-describedby={loadError ? errorId : undefined}
            onChange={(event) => {
              acceptFile(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </p>
        <p className="hint">The file is read in this browser tab only; nothing is uploaded.</p>
      </div>
      <JobControls
        channel="load"
        progressLabel={`Loading ${loadingFileName ?? ''}`}
        running={loadingFileName !== null}
        cancelLabel="Cancel loading"
        onCancel={cancelLoad}
      />
      {loadError !== null && (
        <p id={errorId} role="alert" className="error-message" data-testid="load-error">
          {loadError}
        </p>
      )}
    </div>
  );
}

import { useId } from 'react';
import { schemaToJson } from '../../../core/table';
import { saveBlob } from '../../services/download';
import { importSchemaText } from '../../services/import-schema';
import { schemaFileName } from '../../services/file-names';
import { messageOf } from '../../services/run-readiness';
import { useDataStore } from '../../state/data-store';
import { replaceSchema, setSchemaImportError, useSchemaStore } from '../../state/schema-store';

/** Import and export of the schema JSON of DESIGN.md §2 (the CLI reads the same file). */
export function SchemaFileActions() {
  const inputId = useId();
  const dataset = useDataStore((state) => state.dataset);
  const schema = useSchemaStore((state) => state.schema);
  const importError = useSchemaStore((state) => state.importError);
  if (dataset === null || schema === null) return null;

  const importFile = async (file: File | undefined) => {
    if (file === undefined) return;
    try {
      importSchemaText(await file.text(), file.name, dataset.header, dataset.fileName);
    } catch (error) {
      setSchemaImportError(messageOf(error));
    }
  };
  return (
    <div className="schema-file-actions">
      <button
        type="button"
        onClick={() =>
          saveBlob(
            new Blob([schemaToJson(schema)], { type: 'application/json' }),
            schemaFileName(dataset.fileName),
          )
        }
      >
        Export schema JSON
      </button>
      <label htmlFor={inputId} className="button-like">
        Import schema JSON
      </label>
      <input
        id={inputId}
        className="visually-hidden-input"
        type="file"
        accept=".json,application/json"
        onChange={(event) => {
          void importFile(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <button type="button" onClick={() => replaceSchema(dataset.inferredSchema)}>
        Reset to inferred
      </button>
      {importError && (
        <p role="alert" className="error-message">
          {importError}
        </p>
      )}
    </div>
  );
}

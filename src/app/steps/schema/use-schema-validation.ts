import { useEffect } from 'react';
import { dataSession } from '../../services/workers';
import { setValidation, useSchemaStore } from '../../state/schema-store';
import { useDataStore } from '../../state/data-store';

/**
 * Re-validates the data against the schema in the data worker whenever the schema changes
 * (debounced, so typing a bound does not rebuild the table on every key). The result is the
 * ValidationReport's counts of clamped, rejected and rounded values.
 */
export function useSchemaValidation(debounceMillis = 250): void {
  const schema = useSchemaStore((state) => state.schema);
  const datasetId = useDataStore((state) => state.dataset?.datasetId ?? null);
  useEffect(() => {
    if (schema === null || datasetId === null) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      dataSession.worker
        .validateSchema(schema)
        .then((validation) => {
          if (!cancelled) setValidation(validation);
        })
        .catch((error: unknown) => {
          if (!cancelled)
            setValidation({
              columns: [],
              messages: [error instanceof Error ? error.message : String(error)],
            });
        });
    }, debounceMillis);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [schema, datasetId, debounceMillis]);
}

import { useShallow } from 'zustand/react/shallow';
import { StepSection } from '../../components/StepSection';
import { stepNumber } from '../../components/step-order';
import { useDataStore } from '../../state/data-store';
import {
  declareAllColumns,
  selectDpColumnNames,
  selectInferredColumnNames,
  selectInferredFactCount,
  useSchemaStore,
} from '../../state/schema-store';
import { ColumnSchemaEditor } from './ColumnSchemaEditor';
import { LearnDomainPanel } from './LearnDomainPanel';
import { SchemaFileActions } from './SchemaFileActions';
import { useSchemaValidation } from './use-schema-validation';

export function SchemaStep() {
  const dataset = useDataStore((state) => state.dataset);
  const schema = useSchemaStore((state) => state.schema);
  const validation = useSchemaStore((state) => state.validation);
  const inferredNames = useSchemaStore(useShallow(selectInferredColumnNames));
  const inferredFactCount = useSchemaStore(selectInferredFactCount);
  const dpNames = useSchemaStore(useShallow(selectDpColumnNames));
  useSchemaValidation();
  return (
    <StepSection
      id="step-schema"
      title="Schema"
      intro="Say what is public about each column: its type, its range or its list of categories."
      unavailableBecause={
        dataset === null || schema === null
          ? `Load a dataset in step ${stepNumber('step-data')} to edit its schema.`
          : null
      }
    >
      {schema !== null && dataset !== null && (
        <>
          {inferredNames.length > 0 ? (
            <div className="banner banner-warning" role="status" data-testid="inferred-banner">
              <p>
                <strong>
                  {inferredFactCount} {inferredFactCount === 1 ? 'field' : 'fields'} in {inferredNames.length}{' '}
                  of {schema.columns.length} columns {inferredFactCount === 1 ? 'was' : 'were'} inferred from
                  the data
                </strong>{' '}
                ({inferredNames.join(', ')}). Inferred bounds and categories are convenient but reveal
                something about the data; the privacy claim lists them. Declare them only if they are public
                knowledge.
              </p>
              <button type="button" onClick={declareAllColumns}>
                I declare all of these public
              </button>
            </div>
          ) : (
            <p className="banner banner-ok" role="status">
              {dpNames.length > 0
                ? `No value is read from the data as it is: ${dpNames.length === 1 ? 'one column has' : `${dpNames.length} columns have`} facts learned with DP, the others are declared.`
                : "Every column's domain is declared as public knowledge."}
            </p>
          )}
          <LearnDomainPanel />
          <SchemaFileActions />
          <ul className="schema-columns">
            {schema.columns.map((column, index) => (
              <ColumnSchemaEditor
                key={column.name}
                index={index}
                column={column}
                inferred={dataset.inferredSchema.columns.find((candidate) => candidate.name === column.name)}
                missingTokens={schema.missing}
                counts={validation?.columns.find((counts) => counts.name === column.name)}
                profile={dataset.profiles.find((profile) => profile.name === column.name)}
              />
            ))}
          </ul>
        </>
      )}
    </StepSection>
  );
}

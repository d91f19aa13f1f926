import { checkSchemaMatchesHeader, parseSchemaJson } from '../../core/table';
import { recordSchemaDomainLearning } from '../state/ledger-store';
import { replaceSchema } from '../state/schema-store';

/**
 * Reads a schema file for the loaded dataset (`header`, `dataFileName`) and makes it the current
 * schema. A schema whose facts were learned with DP elsewhere (the CLI, an earlier session) carries
 * DP outputs of this data, so its domain steps are counted in the ledger now, once (a learning this
 * session already counted has the same key). Throws InputError for a bad file, before any change.
 */
export function importSchemaText(
  text: string,
  fileName: string,
  header: readonly string[],
  dataFileName: string,
): void {
  const imported = parseSchemaJson(text, fileName);
  checkSchemaMatchesHeader(imported, [...header], dataFileName);
  recordSchemaDomainLearning(imported);
  replaceSchema(imported);
}

export type * from './types';
export { InputError, describeLocation, inputErrorAt } from './errors';
export type { InputLocation } from './errors';
export { compareByCodePoint, sortedByCodePoint } from './code-point-order';
export { NUMERIC_TOKEN_PATTERN, isNumericToken, parseNumericToken } from './numeric-token';
export { findBinaryContentReason } from './text-sanity';
export { decodeCsvBytes } from './decode-csv-bytes';
export { CANDIDATE_DELIMITERS, detectDelimiter } from './csv-delimiter';
export { lineNumberOfRecord } from './csv-line-numbers';
export { parseCsv } from './csv-read';
export type { ParseCsvOptions, RawTable } from './csv-read';
export { CsvTableReader, readCsvStream } from './csv-stream-read';
export type { ReadCsvOptions, StoredTable } from './csv-stream-read';
export { columnTokens, tokenAt } from './stored-column';
export type { StoredColumn } from './stored-column';
export type { TableSource } from './table-source';
export { DEFAULT_MISSING_TOKENS, inferSchema } from './infer';
export type { InferSchemaOptions } from './infer';
export { checkSchemaMatchesHeader, parseSchemaJson, schemaToJson } from './schema-json';
export {
  FACTS_OF_TYPE,
  PARTS_OF_FACT,
  columnFacts,
  columnParts,
  factSource,
  partSource,
  inferredPartsOf,
  withFactSources,
  withPartSources,
} from './schema-facts';
export { buildTable } from './build-table';
export type { BuildTableOptions } from './build-table';
export type { ColumnValidation, ValidationReport } from './validation-report';
export { describeColumnValidation, describeValidation } from './validation-report';
export { tableFromColumns } from './table-from-columns';
export type { ColumnValuesSpec } from './table-from-columns';
export { emptyLikeTable } from './empty-like-table';
export { dropIncompleteRows } from './drop-incomplete-rows';
export { checkCompleteColumns, incompleteColumnsError } from './complete-columns';
export { roundHalfAwayFromZero } from './round-half-away-from-zero';
export { csvChunks, csvChunksOfBlocks, writeCsv } from './csv-write';
export type { WriteCsvOptions } from './csv-write';
export { summarizeTable } from './summary';
export type { ColumnSummary, SummarizeOptions } from './summary';

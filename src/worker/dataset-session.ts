import {
  buildTable,
  csvChunks,
  inferSchema,
  schemaToJson,
  summarizeTable,
  type ValidationReport,
} from '../core/table';
import { CsvTableReader, type StoredTable } from '../core/table/csv-stream-read';
import type { CsvEncodingChoice } from '../core/table/text-encoding';
import { tokenAt } from '../core/table/stored-column';
import { sortedByCodePoint } from '../core/table/code-point-order';
import { planView, type DomainPlanView } from '../core/domain/domain-plan';
import {
  learnDomain,
  planLearning,
  type LearnDomainOptions,
  type LearnDomainResult,
} from '../core/domain/learn-domain';
import { makeRng } from '../core/rng/make-rng';
import type { AbortSignalLike } from '../core/mechanisms/types';
import type { Schema, Table } from '../core/table/types';
import type { DatasetOverview, PairHeatmap, ProgressListener, SchemaValidation } from './protocol';
import { partsFromHoldoutRows } from '../core/job/job-rows';
import { pairHeatmap } from './release-comparison';

interface BuiltTable {
  schemaKey: string;
  table: Table;
  report: ValidationReport;
}

interface KeptReleases {
  schemaKey: string;
  datasets: Table[];
  /** Rows kept back from the mechanism (ascending indices), or null. */
  holdoutRows: Uint32Array | null;
}

/**
 * The data worker's one dataset: the parsed rows (kept here so the page never holds them),
 * the table built for the current schema, and the synthetic releases of recent runs, which the
 * Results and Export steps read back on demand. A new file is loaded into a new worker, so a
 * file that fails to load never disturbs the dataset already loaded.
 */
export class DatasetSession {
  private raw: StoredTable | undefined;
  private built: BuiltTable | undefined;
  private readonly releases = new Map<string, KeptReleases>();
  /** Releases of older runs are dropped beyond this many runs, to bound memory. */
  private readonly keptRunLimit = 3;

  /**
   * Reads a CSV file from a stream of byte chunks (File.stream() of a dropped file) into this
   * session: the file's text is never held, only its stored columns and the typed table. `encoding`
   * is the user's choice (default `auto`: UTF-8, or Windows-1252 when the file is not UTF-8).
   */
  async loadStream(
    chunks: AsyncIterable<Uint8Array>,
    fileName: string,
    totalBytes: number,
    progress: ProgressListener,
    signal: AbortSignalLike,
    encoding: CsvEncodingChoice = 'auto',
  ): Promise<DatasetOverview> {
    const startedAt = performance.now();
    progress(0, `Reading ${fileName}`);
    const reader = new CsvTableReader({
      fileName,
      totalBytes,
      signal,
      encoding,
      onProgress: (fraction) => progress(0.8 * fraction, `Parsing ${fileName}`),
    });
    for await (const chunk of chunks) reader.push(chunk);
    return this.take(reader.finish(), totalBytes, progress, signal, startedAt, encoding);
  }

  /** Parses CSV text (the bundled demos) into this session and returns what the Data step shows. */
  loadText(
    text: string,
    fileName: string,
    progress: ProgressListener,
    signal: AbortSignalLike,
  ): DatasetOverview {
    const startedAt = performance.now();
    const bytes = new TextEncoder().encode(text);
    const reader = new CsvTableReader({
      fileName,
      totalBytes: bytes.length,
      signal,
      onProgress: (fraction) => progress(0.8 * fraction, `Parsing ${fileName}`),
    });
    for (let start = 0; start < bytes.length; start += TEXT_CHUNK_BYTES) {
      reader.push(bytes.subarray(start, start + TEXT_CHUNK_BYTES));
    }
    return this.take(reader.finish(), bytes.length, progress, signal, startedAt, 'auto');
  }

  /** Infers, builds and summarises a file just read, and makes it this session's dataset. */
  private take(
    raw: StoredTable,
    bytes: number,
    progress: ProgressListener,
    signal: AbortSignalLike,
    startedAt: number,
    encodingChoice: CsvEncodingChoice,
  ): DatasetOverview {
    const fileName = raw.fileName;
    progress(0.8, 'Inferring column types');
    const inferredSchema = inferSchema(raw);
    progress(0.85, 'Building columns');
    const { table, report } = buildTable(raw, inferredSchema, {
      signal,
      onProgress: (fraction) => progress(0.85 + 0.1 * fraction, 'Building columns'),
    });
    progress(0.95, 'Summarising columns');
    const profiles = summarizeTable(table);
    this.raw = raw;
    this.built = { schemaKey: schemaToJson(inferredSchema), table, report };
    this.releases.clear();
    progress(1, 'Loaded');
    return {
      datasetId: newId(),
      fileName,
      nRows: raw.nRows,
      header: raw.header,
      delimiter: raw.delimiter,
      bytes,
      inferredSchema,
      profiles,
      parseMillis: performance.now() - startedAt,
      ...(raw.encodingNote === undefined ? {} : { encodingNote: raw.encodingNote }),
      encoding: { used: raw.encoding ?? 'utf-8', choice: encodingChoice },
    };
  }

  /**
   * Rows [start, start + count) as strings, as read from the file, for the preview (a column of
   * many distinct numbers shows its numbers as JavaScript writes them: stored-column.ts).
   */
  previewRows(start: number, count: number): string[][] {
    const raw = this.requireRaw();
    const end = Math.min(raw.nRows, start + count);
    const rows: string[][] = [];
    for (let r = Math.max(0, start); r < end; r++) rows.push(raw.columns.map((column) => tokenAt(column, r)));
    return rows;
  }

  /**
   * Distinct non-missing tokens of a column sorted by Unicode code point (as inference sorts
   * categories), at most `limit` of them: read from the data, so "inferred".
   * In a column of many distinct numbers (stored-column.ts) the reading stops once `limit` + 1
   * distinct tokens are seen, so the list is then truncated among the first rows.
   */
  distinctTokens(
    columnName: string,
    missingTokens: string[],
    limit: number,
  ): { tokens: string[]; truncated: boolean } {
    const raw = this.requireRaw();
    const index = raw.header.indexOf(columnName);
    if (index < 0) throw new Error(`The file has no column named "${columnName}"; pick one of its columns.`);
    const missing = new Set(missingTokens);
    const seen = new Set<string>();
    const column = raw.columns[index]!;
    if (column.mode === 'dictionary') {
      for (const token of column.tokens) if (!missing.has(token)) seen.add(token);
    } else {
      for (let i = 0; i < column.length && seen.size <= limit; i++) {
        const token = tokenAt(column, i);
        if (!missing.has(token)) seen.add(token);
      }
    }
    const tokens = sortedByCodePoint(seen);
    return { tokens: tokens.slice(0, limit), truncated: tokens.length > limit };
  }

  /**
   * Learns the facts of `schema` that are not declared with DP (core/domain/learn-domain.ts) from
   * the parsed rows; reproducible when `seed` is set (then not for release).
   */
  learnDomain(schema: Schema, options: LearnDomainOptions, seed: string | null): LearnDomainResult {
    return learnDomain(this.requireRaw(), schema, options, makeRng(seed ?? undefined));
  }

  /**
   * The plan of learning `schema`'s undeclared facts (core/domain/domain-plan.ts): from the number
   * of rows (public), the budget and what the schema declares only; no cell is read. A budget the
   * learning would refuse outright (δ = 0 with a list to learn) comes back as `error`.
   */
  planDomain(schema: Schema, options: LearnDomainOptions): DomainPlanView | { error: string } {
    try {
      return planView(planLearning(schema, this.requireRaw().nRows, options).plan);
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  /** Counts of values outside the schema's declared domain (clamped, rejected, rounded). */
  validate(schema: Schema): SchemaValidation {
    const { report } = this.tableFor(schema);
    return { columns: report.columns, messages: report.messages };
  }

  /** The table built under `schema` (cached for the latest schema). */
  tableFor(schema: Schema): BuiltTable {
    const schemaKey = schemaToJson(schema);
    if (this.built?.schemaKey !== schemaKey) {
      const { table, report } = buildTable(this.requireRaw(), schema);
      this.built = { schemaKey, table, report };
    }
    return this.built;
  }

  keepReleases(
    jobId: string,
    schema: Schema,
    datasets: Table[],
    holdoutRows: Uint32Array | null = null,
  ): void {
    this.releases.set(jobId, { schemaKey: schemaToJson(schema), datasets, holdoutRows });
    while (this.releases.size > this.keptRunLimit) {
      const oldest = this.releases.keys().next().value as string;
      this.releases.delete(oldest);
    }
  }

  /** Drops the releases of run `jobId`, if kept. */
  forgetReleases(jobId: string): void {
    this.releases.delete(jobId);
  }

  /** Release `index` (0-based) of run `jobId` as CSV pieces, formula-like text escaped (csvChunks escapeFormulas). */
  releaseCsvChunks(jobId: string, index: number): Iterable<string> {
    return csvChunks(this.requireRelease(jobId, index), { escapeFormulas: true });
  }

  /** Real vs synthetic joint shares of two columns for release `index` of run `jobId`. */
  heatmap(
    jobId: string,
    index: number,
    schema: Schema,
    rowColumn: string,
    columnColumn: string,
  ): PairHeatmap {
    const release = this.requireRelease(jobId, index);
    return pairHeatmap(this.evaluationInputs(jobId, schema).real, release, rowColumn, columnColumn);
  }

  /**
   * The real rows the run's mechanism saw (all rows, or those not kept back), the releases and
   * the kept-back rows, for the evaluation job and the comparisons.
   */
  evaluationInputs(jobId: string, schema: Schema): { real: Table; releases: Table[]; holdout: Table | null } {
    const kept = this.keptReleases(jobId);
    const { table } = this.tableFor(schema);
    if (kept.holdoutRows === null) return { real: table, releases: kept.datasets, holdout: null };
    const { train, holdout } = partsFromHoldoutRows(table, kept.holdoutRows);
    return { real: train, releases: kept.datasets, holdout };
  }

  /** A run's releases and kept-back row indices as kept (not copied). */
  keptReleases(jobId: string): { datasets: Table[]; holdoutRows: Uint32Array | null } {
    const kept = this.releases.get(jobId);
    if (kept === undefined) throw new Error('The results of this run are no longer held; run it again.');
    return kept;
  }

  private requireRelease(jobId: string, index: number): Table {
    const release = this.releases.get(jobId)?.datasets[index];
    if (release === undefined) throw new Error('The results of this run are no longer held; run it again.');
    return release;
  }

  private requireRaw(): StoredTable {
    if (this.raw === undefined)
      throw new Error('No data is loaded yet; load a file or a demo in the Data step first.');
    return this.raw;
  }
}

/** Demo texts are handed to the reader in pieces of this many bytes: the grain of progress. */
const TEXT_CHUNK_BYTES = 1 << 20;

function newId(): string {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return Array.from(words, (word) => word.toString(36)).join('');
}

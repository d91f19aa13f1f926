import { createReadStream, readFileSync, statSync } from 'node:fs';
import { readCsvStream, type StoredTable } from '../core/table/csv-stream-read';
import { InputError } from '../core/table/errors';
import type { CsvEncodingChoice } from '../core/table/text-encoding';

/**
 * How this invocation decodes CSV files (the --encoding option, set by runCli) and where the
 * warning goes when a file that is not UTF-8 is read as Windows-1252.
 */
export const csvReading: { encoding: CsvEncodingChoice; warn: (text: string) => void } = {
  encoding: 'auto',
  warn: () => {},
};

/**
 * Where a command prints; the real process streams, or buffers in tests. Files are written by
 * output-files.ts (checked first, then written under a temporary name and renamed).
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Shows progress of a long step (a terminal status line); may do nothing. */
  progress?(fraction: number, message?: string): void;
  /** Whether `progress` is shown without --progress or --no-progress (true when stderr is a terminal). */
  progressByDefault?: boolean;
}

/** The size of a user-named file; InputErrors name the path for a missing, empty or directory path. */
function checkUserFile(path: string, what: string): number {
  let size: number;
  try {
    const stats = statSync(path);
    if (stats.isDirectory())
      throw new InputError(`${path} is a directory, not a ${what} file.`, { file: path });
    size = stats.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${path}: no such ${what} file. Check the path and try again.`, { file: path });
  }
  if (size === 0)
    throw new InputError(`${path} is empty: a ${what} file with a header row is needed.`, { file: path });
  return size;
}

/** Reads a user-named file as bytes, turning file-system failures into InputErrors that name the path. */
export function readUserFile(path: string, what: string): Uint8Array {
  checkUserFile(path, what);
  try {
    return readFileSync(path);
  } catch (error) {
    throw new InputError(`${path} cannot be read (${(error as Error).message}).`, { file: path });
  }
}

/** Bytes per read of a CSV file: the grain of progress; the reader holds about one at a time. */
const READ_CHUNK_BYTES = 1 << 20;

/**
 * Reads a user-named CSV file as a stream into stored columns (never its whole text): memory is
 * about the size of the columns. Same InputErrors as readUserFile for the path, then the reader's
 * (file, line, column, what to do).
 */
export async function readCsvFile(
  path: string,
  opts: { onProgress?: (fraction: number) => void } = {},
): Promise<StoredTable> {
  const totalBytes = checkUserFile(path, 'CSV');
  const stream = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  try {
    const table = await readCsvStream(stream as AsyncIterable<Uint8Array>, {
      fileName: path,
      totalBytes,
      encoding: csvReading.encoding,
      ...(opts.onProgress === undefined ? {} : { onProgress: opts.onProgress }),
    });
    if (table.encodingNote !== undefined) csvReading.warn(`dpsynth: warning: ${table.encodingNote}\n`);
    return table;
  } catch (error) {
    if (error instanceof InputError || (error as Error).name === 'AbortError') throw error;
    if ((error as NodeJS.ErrnoException).code !== undefined) {
      throw new InputError(`${path} cannot be read (${(error as Error).message}).`, { file: path });
    }
    throw error;
  } finally {
    stream.destroy();
  }
}

import { readFileSync, statSync } from 'node:fs';
import { InputError } from '../core/table/errors';

/**
 * Where a command prints; the real process streams, or buffers in tests. Files are written by
 * output-files.ts (checked first, then written under a temporary name and renamed).
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Shows progress of a long step (a terminal status line); may do nothing. */
  progress?(fraction: number, message?: string): void;
}

/** Reads a user-named file as bytes, turning file-system failures into InputErrors that name the path. */
export function readUserFile(path: string, what: string): Uint8Array {
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
  try {
    return readFileSync(path);
  } catch (error) {
    throw new InputError(`${path} cannot be read (${(error as Error).message}).`, { file: path });
  }
}

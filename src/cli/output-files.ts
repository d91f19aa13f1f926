import {
  closeSync,
  existsSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { InputError } from '../core/table/errors';

/** A file the command reads or writes, with what it is in words ("the schema", "release 2"). */
export interface NamedPath {
  path: string;
  what: string;
}

/**
 * A path's identity for comparison: the real path when the file exists (symbolic links resolved),
 * otherwise the real path of its folder joined with its name, so `./a.csv`, `dir/../a.csv` and a link
 * to it compare equal.
 */
function identity(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return join(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

/** Device and inode of an existing file, to catch hard links to an input as well. */
function inode(path: string): string | null {
  try {
    const stats = statSync(path);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return null;
  }
}

/**
 * Refuses, before any work is done, every output that would lose or corrupt a file: an output that is
 * one of the inputs (the data, the schema, a ledger), two outputs that are the same file, an output
 * whose folder does not exist or is not a folder, and, without `force`, an output that already exists.
 * Throws InputError with a sentence naming the file and what to do (exit code 2).
 */
export function checkOutputPaths(outputs: NamedPath[], inputs: NamedPath[], force: boolean): void {
  const inputIds = inputs.map((input) => ({ ...input, id: identity(input.path), inode: inode(input.path) }));
  const seen = new Map<string, NamedPath>();
  for (const output of outputs) {
    const id = identity(output.path);
    const node = inode(output.path);
    const input = inputIds.find(
      (candidate) => candidate.id === id || (node !== null && candidate.inode === node),
    );
    if (input) {
      throw new InputError(
        `${output.path} is ${input.what} given on the same command line; dpsynth never writes over an ` +
          `input. Choose another name for ${output.what}.`,
        { file: output.path },
      );
    }
    const earlier = seen.get(id);
    if (earlier) {
      throw new InputError(
        `${output.path} would receive both ${earlier.what} and ${output.what}; give them different names.`,
        { file: output.path },
      );
    }
    seen.set(id, output);
    const folder = dirname(resolve(output.path));
    let folderStats;
    try {
      folderStats = statSync(folder);
    } catch {
      throw new InputError(
        `the folder ${dirname(output.path)} for ${output.what} (${output.path}) does not exist; create it ` +
          'or choose another path.',
        { file: output.path },
      );
    }
    if (!folderStats.isDirectory()) {
      throw new InputError(
        `${dirname(output.path)} is not a folder, so ${output.what} (${output.path}) cannot be written there.`,
        { file: output.path },
      );
    }
    if (existsSync(output.path)) {
      const isFolder = statSync(output.path).isDirectory();
      if (isFolder) {
        throw new InputError(`${output.path} is a folder; give a file name for ${output.what}.`, {
          file: output.path,
        });
      }
      if (!force) {
        throw new InputError(
          `${output.path} already exists; dpsynth does not replace files unless --force is given. ` +
            `Choose another name for ${output.what} or add --force.`,
          { file: output.path },
        );
      }
    }
  }
}

/**
 * An output file's contents: a string, or pieces of text made one at a time (csvChunks), so that a
 * synthetic table of millions of rows is never one string in memory.
 */
export interface OutputFile {
  path: string;
  contents: string | Iterable<string>;
  /** Called after each piece with the number of pieces written so far. */
  onPiece?: (pieces: number) => void;
}

/** Writes all of `text` as UTF-8 at the descriptor's position (a write may take part of it). */
function writeAll(descriptor: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let offset = 0; offset < bytes.length;) offset += writeSync(descriptor, bytes, offset);
}

/** Writes the pieces to a new file (flag wx: never over an existing one), one write per piece. */
function writeNewFile(path: string, file: OutputFile): void {
  const descriptor = openSync(path, 'wx');
  try {
    const pieces = typeof file.contents === 'string' ? [file.contents] : file.contents;
    let written = 0;
    for (const piece of pieces) {
      writeAll(descriptor, piece);
      file.onPiece?.(++written);
    }
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Writes every file (a string, or pieces written one at a time) under a temporary name in its own
 * folder (".name.<pid>.<random>.partial" plus the file's extension), then renames each into place, so an interrupted or failed run never leaves a
 * half-written output under the final name (a rename within one folder is atomic on POSIX file
 * systems). If a write fails, the temporary files are removed, no output appears, and the error is
 * thrown as it came (a full disk is not bad input: the CLI reports it as an internal error).
 */
export function writeFilesAtomically(files: OutputFile[]): void {
  const staged: { temporary: string; path: string }[] = [];
  try {
    for (const file of files) {
      const name = basename(file.path);
      const temporary = join(
        dirname(file.path),
        `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.partial${extname(name)}`,
      );
      staged.push({ temporary, path: file.path });
      writeNewFile(temporary, file);
    }
  } catch (error) {
    for (const { temporary } of staged) rmSync(temporary, { force: true });
    throw error;
  }
  staged.forEach(({ temporary, path }, i) => {
    try {
      renameSync(temporary, path);
    } catch (error) {
      for (const rest of staged.slice(i)) rmSync(rest.temporary, { force: true });
      throw error;
    }
  });
}

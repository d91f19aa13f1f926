/** Where in the user's input a problem was found. Line numbers are 1-based lines of the file (header = line 1). */
export interface InputLocation {
  file?: string;
  line?: number;
  column?: string;
}

/**
 * A problem with the user's input (a CSV file, a schema, a flag), as opposed to a bug.
 * The CLI exits with status 2 on it; the studio shows `message` next to the drop zone.
 * Messages name the place and say what to do about it.
 */
export class InputError extends Error {
  readonly file?: string;
  readonly line?: number;
  readonly column?: string;

  constructor(message: string, where: InputLocation = {}) {
    super(message);
    this.name = 'InputError';
    if (where.file !== undefined) this.file = where.file;
    if (where.line !== undefined) this.line = where.line;
    if (where.column !== undefined) this.column = where.column;
  }
}

/** "data.csv, line 57: " or "data.csv: " or "" — the prefix every located message starts with. */
export function describeLocation(where: InputLocation): string {
  const parts: string[] = [];
  if (where.file !== undefined && where.file !== '') parts.push(where.file);
  if (where.line !== undefined) parts.push(`line ${where.line}`);
  return parts.length > 0 ? `${parts.join(', ')}: ` : '';
}

/** Builds an InputError whose message starts with the file and line it concerns. */
export function inputErrorAt(where: InputLocation, message: string): InputError {
  return new InputError(describeLocation(where) + message, where);
}

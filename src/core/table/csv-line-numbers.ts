/**
 * The 1-based line of the file on which CSV record `recordIndex` (0 = header) starts, counting the
 * line breaks inside quoted fields as lines, so that an editor jumps to the right place.
 *
 * Follows RFC 4180 as PapaParse reads it: a quote opens a quoted field only at the start of a field;
 * inside one, `""` is a literal quote. `linebreak` is the record separator PapaParse detected
 * ("\n", "\r\n" or "\r"). Used only to word error messages: O(position of the record).
 */
export function lineNumberOfRecord(
  text: string,
  recordIndex: number,
  delimiter: string,
  linebreak: string,
): number {
  const physicalBreak = linebreak === '\r' ? '\r' : '\n';
  let record = 0;
  let line = 1;
  let inQuotes = false;
  let atFieldStart = true;
  for (let i = 0; i < text.length && record < recordIndex; i++) {
    const char = text[i]!;
    if (char === physicalBreak) line++;
    if (inQuotes) {
      if (char === '"') {
        if (text[i + 1] === '"') i++;
        else inQuotes = false;
      }
      continue;
    }
    if (char === '"' && atFieldStart) {
      inQuotes = true;
      atFieldStart = false;
    } else if (text.startsWith(linebreak, i)) {
      record++;
      i += linebreak.length - 1;
      if (linebreak === '\r\n') line++;
      atFieldStart = true;
    } else if (text.startsWith(delimiter, i)) {
      i += delimiter.length - 1;
      atFieldStart = true;
    } else {
      atFieldStart = false;
    }
  }
  return line;
}

import type { Linebreak } from './csv-scanner';

/**
 * The record separator of a CSV text, guessed from its first MiB as PapaParse guesses it (so files
 * read as before): quoted fields are left out; \n when there is no \r or a \n comes first; else
 * \r\n when at least half of the \r are followed by \n, otherwise \r.
 */
export function guessLinebreak(sample: string): Linebreak {
  const text = sample.slice(0, 1 << 20).replace(/"[^]*?"/g, '');
  const byCr = text.split('\r');
  const byLf = text.split('\n');
  const lfFirst = byLf.length > 1 && byLf[0]!.length < byCr[0]!.length;
  if (byCr.length === 1 || lfFirst) return '\n';
  let followedByLf = 0;
  for (const part of byCr) if (part[0] === '\n') followedByLf++;
  return followedByLf >= byCr.length / 2 ? '\r\n' : '\r';
}

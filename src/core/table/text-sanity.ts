import { inputErrorAt } from './errors';

/** How much of the text is examined for replacement characters (the whole text is searched for NUL). */
const SAMPLE_LENGTH = 1 << 20;
/** More than this share of U+FFFD replacement characters in the sample means the bytes were not UTF-8 text. */
const MAX_REPLACEMENT_SHARE = 0.01;
/** A handful of stray replacement characters in a big text file is tolerated (one mis-encoded name). */
const MIN_REPLACEMENTS_TO_REJECT = 8;

/**
 * Why the decoded text does not look like a text CSV file, or undefined when it does.
 * Binary files (spreadsheets, archives, UTF-16 text) contain NUL characters; files in a legacy
 * encoding decoded as UTF-8 contain many U+FFFD replacement characters.
 */
export function findBinaryContentReason(text: string): string | undefined {
  if (text.indexOf('\u0000') !== -1) return 'it contains NUL bytes';
  const sampleLength = Math.min(text.length, SAMPLE_LENGTH);
  let replacements = 0;
  for (let i = text.indexOf('\ufffd'); i !== -1 && i < sampleLength; i = text.indexOf('\ufffd', i + 1)) {
    replacements++;
  }
  if (replacements >= MIN_REPLACEMENTS_TO_REJECT && replacements > MAX_REPLACEMENT_SHARE * sampleLength) {
    return `${replacements} of its first ${sampleLength} characters are not valid UTF-8`;
  }
  return undefined;
}

/** Throws an InputError when the text does not look like a text CSV file (see findBinaryContentReason). */
export function assertLooksLikeText(text: string, fileName: string): void {
  const reason = findBinaryContentReason(text);
  if (reason !== undefined) {
    throw inputErrorAt(
      { file: fileName },
      `does not look like a text CSV file (${reason}). Export it from your spreadsheet as "CSV UTF-8" and try again.`,
    );
  }
}

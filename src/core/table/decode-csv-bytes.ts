import { inputErrorAt } from './errors';
import { assertLooksLikeText } from './text-sanity';
import { firstInvalidUtf8 } from './text-encoding';

/** The part of the TextDecoder API used here; core compiles without DOM types, and TextDecoder exists in browsers, workers and Node. */
interface Utf8Decoder {
  decode(bytes: Uint8Array): string;
}
type Utf8DecoderConstructor = new (
  label: string,
  options: { fatal: boolean; ignoreBOM: boolean },
) => Utf8Decoder;

function createUtf8Decoder(): Utf8Decoder {
  const Constructor = (globalThis as unknown as { TextDecoder?: Utf8DecoderConstructor }).TextDecoder;
  if (Constructor === undefined) throw new Error('TextDecoder is not available in this environment.');
  return new Constructor('utf-8', { fatal: false, ignoreBOM: false });
}

/** True when the bytes start with a UTF-16 byte-order mark (FF FE or FE FF). */
function startsWithUtf16ByteOrderMark(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  );
}

/**
 * Decodes the bytes of a CSV file as UTF-8 (a UTF-8 byte-order mark is dropped). Throws an InputError
 * naming the file when the bytes are UTF-16 or not text at all (NUL bytes, many invalid UTF-8 sequences).
 */
export function decodeCsvBytes(bytes: Uint8Array, fileName = 'input'): string {
  if (startsWithUtf16ByteOrderMark(bytes)) {
    throw inputErrorAt(
      { file: fileName },
      'is encoded as UTF-16; dpsynth reads UTF-8. Save it as "CSV UTF-8" and try again.',
    );
  }
  const text = createUtf8Decoder().decode(bytes);
  // Invalid UTF-8 is refused, never replaced (a sequence cut by the end of a partial read is dropped
  // by the decoder above as U+FFFD at the very end only).
  const bad = firstInvalidUtf8(bytes, false);
  if (bad !== -1) {
    let line = 1;
    for (let i = bytes.indexOf(0x0a); i !== -1 && i < bad; i = bytes.indexOf(0x0a, i + 1)) line++;
    throw inputErrorAt(
      { file: fileName, line },
      `byte 0x${bytes[bad]!.toString(16).toUpperCase().padStart(2, '0')} is not valid UTF-8. Save the ` +
        'file as UTF-8 ("CSV UTF-8" in a spreadsheet) and try again.',
    );
  }
  assertLooksLikeText(text, fileName);
  return text;
}

/**
 * UTF-8 encoding and decoding through the platform's TextEncoder and TextDecoder (browsers,
 * workers and Node all have them; core compiles without DOM types, hence the narrow interfaces).
 */
interface Utf8Decoder {
  decode(bytes?: Uint8Array, options?: { stream: boolean }): string;
}
interface Utf8Encoder {
  encode(text: string): Uint8Array;
  encodeInto(text: string, into: Uint8Array): { read: number; written: number };
}
type DecoderConstructor = new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => Utf8Decoder;
type EncoderConstructor = new () => Utf8Encoder;

/** A decoder that turns invalid sequences into U+FFFD and keeps a byte-order mark (callers drop it). */
export function createUtf8Decoder(): Utf8Decoder {
  const Constructor = (globalThis as unknown as { TextDecoder?: DecoderConstructor }).TextDecoder;
  if (Constructor === undefined) throw new Error('TextDecoder is not available in this environment.');
  return new Constructor('utf-8', { fatal: false, ignoreBOM: true });
}

export function createUtf8Encoder(): Utf8Encoder {
  const Constructor = (globalThis as unknown as { TextEncoder?: EncoderConstructor }).TextEncoder;
  if (Constructor === undefined) throw new Error('TextEncoder is not available in this environment.');
  return new Constructor();
}

const sharedDecoder = { current: undefined as Utf8Decoder | undefined };

/**
 * The text of bytes[start, end). Short ASCII runs (most CSV tokens) are built directly, which is
 * several times faster than a TextDecoder call per token.
 */
export function decodeUtf8Range(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 24) {
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (bytes[i]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      let text = '';
      for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]!);
      return text;
    }
  }
  sharedDecoder.current ??= createUtf8Decoder();
  return sharedDecoder.current.decode(bytes.subarray(start, end));
}

/**
 * The one piece of the Web Crypto API the core uses. src/core compiles without the DOM lib, so the
 * type is declared here instead of relying on `Crypto` from lib.dom.d.ts; it matches
 * `crypto.getRandomValues` in browsers, workers and Node >= 20.
 */
export interface RandomValuesSource {
  getRandomValues(array: Uint32Array): Uint32Array;
}

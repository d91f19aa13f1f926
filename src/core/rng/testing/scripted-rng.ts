import type { Rng } from '../types';

/** An Rng that replays fixed 32-bit words and counts how many were read; throws when they run out. */
export function scriptedRng(words: readonly number[]): Rng & { readonly used: number } {
  let position = 0;
  return {
    seeded: true,
    get used() {
      return position;
    },
    nextUint32: () => {
      if (position >= words.length) throw new Error('script exhausted');
      return words[position++]!;
    },
    nextFloat: () => {
      throw new Error('not used');
    },
  };
}

/** An Rng that replays fixed uniforms from nextFloat and counts them; throws when they run out or a word is asked for. */
export function scriptedFloatRng(floats: readonly number[]): Rng & { readonly used: number } {
  let position = 0;
  return {
    seeded: true,
    get used() {
      return position;
    },
    nextUint32: () => {
      throw new Error('not used');
    },
    nextFloat: () => {
      if (position >= floats.length) throw new Error('script exhausted');
      return floats[position++]!;
    },
  };
}

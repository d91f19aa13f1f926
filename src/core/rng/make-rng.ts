import { CryptoRng } from './crypto-rng';
import { SeededRng } from './seeded-rng';
import type { Rng } from './types';

/**
 * The generator for a job: a reproducible SeededRng when the user set a seed (outputs are then not
 * for release), otherwise the cryptographically secure CryptoRng (DESIGN.md privacy rule 3).
 */
export function makeRng(seed?: number | string): Rng {
  return seed === undefined ? new CryptoRng() : new SeededRng(seed);
}

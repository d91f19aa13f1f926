export type { Rng } from './types';
export { Rational, parseRational } from './rational';
export { SeededRng } from './seeded-rng';
export { CryptoRng } from './crypto-rng';
export { makeRng } from './make-rng';
export { uniformInt, uniformBigInt } from './uniform-int';

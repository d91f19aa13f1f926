/**
 * The source of all randomness in dpsynth. Every sampler takes an Rng argument;
 * nothing in src/core reaches for a global generator (privacy rule 3).
 */
export interface Rng {
  /** A uniformly random integer in [0, 2^32). */
  nextUint32(): number;
  /** A uniformly random double in [0, 1) built from 53 random bits. */
  nextFloat(): number;
  /** True for SeededRng: outputs are reproducible and therefore not for release. */
  readonly seeded: boolean;
  /**
   * Optional, seeded generators only: a generator in the same state, which gives the numbers this one
   * would give next. Used to replay a stretch of the stream exactly where a seeded output is produced
   * in pieces (a release handed out in row blocks); the original is then advanced past that stretch,
   * so no number is drawn into one output twice. A secure generator has no copy.
   */
  copy?(): Rng;
}

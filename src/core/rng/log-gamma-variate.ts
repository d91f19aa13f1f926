import { stdlibSamplersFor } from './stdlib-samplers';
import type { Rng } from './types';

/**
 * log G for G ~ Gamma(shape, 1), without underflow for small shapes: for shape >= 1 the log of a
 * Marsaglia–Tsang draw; for shape < 1, log G(shape + 1) + log(U)/shape, the boost of Marsaglia &
 * Tsang ("A simple method for generating gamma variables", ACM TOMS 26(3), 2000, §6), kept in logs
 * because G itself can be far below the smallest double when the shape is tiny.
 * Used to build Beta and Dirichlet draws as normalised gammas. Shape > 0 is not checked.
 */
export function sampleLogGammaVariate(rng: Rng, shape: number): number {
  const { gamma } = stdlibSamplersFor(rng);
  if (shape >= 1) return Math.log(gamma(shape, 1));
  return Math.log(gamma(shape + 1, 1)) + Math.log(1 - rng.nextFloat()) / shape;
}

import { makeNormalSampler, sampleGamma } from '../../rng/continuous';
import type { Rng } from '../../rng/types';

/**
 * A vector e in R^D with density ∝ exp(−‖e‖/scale) (Chaudhuri & Monteleoni 2009, Algorithm 1, with
 * scale = Δ/ε; for the binary loss Δ = 2/(nλ), i.e. density ∝ exp(−nλε‖e‖/2)): in polar coordinates
 * the density of the norm r is ∝ r^{D−1}·e^{−r/scale}, so ‖e‖ ~ Gamma(D, scale), independent of a
 * direction uniform on the sphere, drawn as a standard normal vector divided by its norm (Muller 1959).
 * Floating-point samplers from the project's generator: the density holds up to their accuracy.
 * Cost O(D).
 */
export function sampleOutputPerturbation(rng: Rng, dimension: number, scale: number): Float64Array {
  const norm = sampleGamma(rng, dimension, scale);
  const normal = makeNormalSampler(rng);
  const direction = new Float64Array(dimension);
  let length = 0;
  while (length === 0) {
    length = 0;
    for (let c = 0; c < dimension; c++) {
      direction[c] = normal(0, 1);
      length += direction[c]! * direction[c]!;
    }
    length = Math.sqrt(length);
  }
  for (let c = 0; c < dimension; c++) direction[c] = (direction[c]! / length) * norm;
  return direction;
}

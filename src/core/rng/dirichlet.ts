import { sampleLogGammaVariate } from './log-gamma-variate';
import type { Rng } from './types';

/**
 * Dirichlet(α): a probability vector with density ∝ Π x_i^(α_i − 1), E[x_i] = α_i/Σα.
 * Drawn as normalised independent Gamma(α_i, 1) variates (Devroye, Non-Uniform Random Variate
 * Generation, 1986, §XI.4.1), in log space so that small α_i cannot underflow every component to 0:
 * log G_i for α_i >= 1 directly, and for α_i < 1 as log G(α_i + 1) + log(U)/α_i (Marsaglia & Tsang
 * 2000, §6), then x_i = exp(log G_i − max) / Σ exp(log G_j − max). Cost O(k).
 *
 * Throws RangeError for an empty α or any α_i that is not a finite number > 0.
 * Example: `sampleDirichlet(rng, [1, 1, 1])` is uniform on the 2-simplex.
 */
export function sampleDirichlet(rng: Rng, alpha: ArrayLike<number>): Float64Array {
  const k = alpha.length;
  if (k === 0) throw new RangeError('sampleDirichlet: alpha must not be empty');
  const logGammas = new Float64Array(k);
  let largest = -Infinity;
  for (let i = 0; i < k; i++) {
    const a = alpha[i];
    if (!(a > 0 && a < Infinity)) {
      throw new RangeError(`sampleDirichlet: alpha[${i}] must be a finite number > 0, got ${String(a)}`);
    }
    const logG = sampleLogGammaVariate(rng, a);
    logGammas[i] = logG;
    if (logG > largest) largest = logG;
  }
  let total = 0;
  for (let i = 0; i < k; i++) {
    logGammas[i] = Math.exp(logGammas[i] - largest);
    total += logGammas[i];
  }
  for (let i = 0; i < k; i++) logGammas[i] /= total;
  return logGammas;
}

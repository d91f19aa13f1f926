import { makeDiscreteGaussianSampler } from '../../../rng/discrete-gaussian';
import type { Rational } from '../../../rng/rational';
import type { Rng } from '../../../rng/types';
import { throwIfAborted } from '../../../abort';
import type { AbortSignalLike } from '../../types';

/** Cells between two looks at the abort signal. */
const CELLS_PER_ABORT_CHECK = 65_536;

/**
 * y = x + Z with Z ~ N_ℤ(0, σ²) independently in every cell of the integer counts x, sampled
 * exactly (Canonne, Kamath & Steinke 2020, Algorithm 3). Under replace-one neighbours one row moves
 * two cells of a histogram by one each, so the L2 sensitivity is √2 and the release is
 * (2/(2σ²)) = (1/σ²)-zCDP (CKS 2020, Theorem 4). Cost O(cells) draws.
 */
export function addDiscreteGaussianNoise(
  rng: Rng,
  counts: Float64Array,
  sigma2: Rational,
  signal?: AbortSignalLike,
): Float64Array {
  const sample = makeDiscreteGaussianSampler(sigma2);
  const noisy = new Float64Array(counts.length);
  for (let c = 0; c < counts.length; c++) {
    if (c % CELLS_PER_ABORT_CHECK === 0) throwIfAborted(signal);
    noisy[c] = counts[c]! + sample(rng);
  }
  return noisy;
}

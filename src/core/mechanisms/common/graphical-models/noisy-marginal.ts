import type { ChargeableStep } from '../../../privacy/meter';
import { meteredDiscreteGaussian } from '../../../privacy/metered/discrete-gaussian';
import type { QueryKind } from '../../../privacy/query-sensitivity';
import type { Rational } from '../../../rng/rational';
import type { Rng } from '../../../rng/types';
import type { AbortSignalLike } from '../../types';

/** A marginal: the counts of the rows in the cells of a public domain (a partition of the rows). */
export const MARGINAL_QUERY: QueryKind = { kind: 'partition-counts' };

/**
 * y = x + Z with Z ~ N_ℤ(0, σ²) independently in every cell of the marginal's integer counts x, sampled
 * exactly (Canonne, Kamath & Steinke 2020, Algorithm 3) through the privacy meter: the draw charges
 * `step` ρ = Δ₂²/(2σ²) for counts over a partition, 1/σ² under replace-one (Δ₂ = √2: one row moves two
 * cells by one each; CKS 2020, Theorem 4). Cost O(cells) draws.
 */
export function addDiscreteGaussianNoise(
  step: ChargeableStep,
  rng: Rng,
  counts: Float64Array,
  sigma2: Rational,
  signal?: AbortSignalLike,
): Float64Array {
  return meteredDiscreteGaussian(step, MARGINAL_QUERY, counts, sigma2, rng, signal);
}

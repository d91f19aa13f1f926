import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../../abort';
import { makeDiscreteGaussianSampler } from '../../rng/discrete-gaussian';
import { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { ChargeableStep } from '../meter';
import { describeQuery, querySensitivity, type QueryKind } from '../query-sensitivity';

/** Cells between two looks at the abort signal. */
const CELLS_PER_ABORT_CHECK = 65_536;

/**
 * y = x + Z with Z ~ N_ℤ(0, σ²) independently in every entry of the integer answers x of `query`,
 * sampled exactly (Canonne, Kamath & Steinke 2020, Algorithm 3), metered: before the first draw it
 * charges `step` ρ = Δ₂²/(2σ²) (CKS 2020, Theorem 4), Δ₂ the query's L2 sensitivity under the step's
 * neighbouring relation (for counts over a partition under replace-one, Δ₂² = 2: ρ = 1/σ²). The step
 * must be a zCDP step. Cost O(entries) draws; the abort signal is read every 65,536 entries.
 */
export function meteredDiscreteGaussian(
  step: ChargeableStep,
  query: QueryKind,
  answers: Float64Array,
  sigma2: Rational,
  rng: Rng,
  signal?: AbortSignalLike,
): Float64Array {
  if (step.notion !== 'zcdp') {
    throw new RangeError(
      `discrete Gaussian noise on ${describeQuery(query)} needs a zCDP step; "${step.what}" is not one`,
    );
  }
  const sample = makeDiscreteGaussianSampler(sigma2);
  const { l2Squared } = querySensitivity(query, step.neighbouring);
  step.charge({ notion: 'zcdp', rho: l2Squared.div(Rational.of(2).mul(sigma2)) });
  const noisy = new Float64Array(answers.length);
  for (let c = 0; c < answers.length; c++) {
    if (c % CELLS_PER_ABORT_CHECK === 0) throwIfAborted(signal);
    noisy[c] = answers[c]! + sample(rng);
  }
  return noisy;
}

import { makeNormalSampler, sampleGamma } from '../../rng/continuous';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { ChargeableStep } from '../meter';
import {
  describeL2Query,
  exactRationalOfDouble,
  l2QuerySensitivity,
  type L2QueryKind,
} from '../query-sensitivity';
import { pureCost } from './costs';

/**
 * A vector e in R^D with density ∝ exp(−‖e‖/b) (Chaudhuri & Monteleoni 2009, Algorithm 1): in polar
 * coordinates the norm r has density ∝ r^{D−1}·e^{−r/b}, so ‖e‖ ~ Gamma(D, b), independent of a direction
 * uniform on the sphere, drawn as a standard normal vector divided by its norm (Muller 1959).
 * Floating-point samplers from the run's generator. Cost O(D).
 */
function drawOutputPerturbation(rng: Rng, dimension: number, scale: number): Float64Array {
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

/**
 * Output perturbation (Chaudhuri & Monteleoni 2009, Algorithm 1), metered: β + e with e of density
 * ∝ exp(−ε‖e‖/Δ₂), Δ₂ the L2 sensitivity of `query` under the step's relation
 * (privacy/query-sensitivity.ts, l2QuerySensitivity), at the exact ε given. Before drawing it checks,
 * exactly, that the scale b = Δ₂/ε it draws at (a double, from Δ₂ rounded up and ε rounded down) satisfies
 * b·ε >= Δ₂, and charges `step` ε — (ε, 0) on an (ε, δ) step, ε²/2 on a zCDP step (Bun & Steinke 2016,
 * Proposition 1.4). ε holds for exact continuous draws; the draws here are floating point, so the mechanism's
 * claim must call its bound unproven. Cost O(D).
 */
export function meteredOutputPerturbation(
  step: ChargeableStep,
  query: L2QueryKind,
  estimate: Float64Array,
  epsilon: Rational,
  rng: Rng,
): Float64Array {
  if (!epsilon.isPositive()) throw new RangeError(`ε must be > 0; got ${epsilon.toString()}`);
  const { l2Squared, l2Upper } = l2QuerySensitivity(query, step.neighbouring);
  const scale = l2Upper / epsilon.toNumberDown();
  const reach = exactRationalOfDouble(scale).mul(epsilon);
  if (!(Number.isFinite(scale) && reach.mul(reach).compare(l2Squared) >= 0)) {
    throw new RangeError(`the noise scale for ${describeL2Query(query)} falls below Δ₂/ε`);
  }
  step.charge(pureCost(step, epsilon, false));
  const noise = drawOutputPerturbation(rng, estimate.length, scale);
  return estimate.map((b, c) => b + noise[c]!);
}

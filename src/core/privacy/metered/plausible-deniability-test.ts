import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import { bernoulliRationalSafe } from '../../rng/bernoulli-rational';
import { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { ChargeableStep } from '../meter';
import { plausibleDeniabilityTestCost, type PlausibleDeniabilityTest } from '../plausible-deniability-cost';

/**
 * `draws` draws of the test, metered: charges `step` draws × the cost above (an (ε, δ) step) before
 * the first one and returns the draw, usable `draws` times (one more throws). A draw: with probability
 * p_f (exact Bernoulli) false, a row from the network alone; otherwise `pickSeed(rng)` draws the seed
 * and ω and returns c(d, ω), and the draw is true iff c(d, ω) − k >= Z, Z exact discrete Laplace of
 * scale 1/ε0 (false: a row from the network alone). Cost per draw: a few random words.
 */
export function meteredPlausibleDeniabilityTest(
  step: ChargeableStep,
  test: PlausibleDeniabilityTest,
  draws: number,
): (rng: Rng, pickSeed: (rng: Rng) => number) => boolean {
  if (step.notion !== 'approx-dp') {
    throw new RangeError(`the plausible-deniability test needs an (ε, δ) step; "${step.what}" is not one`);
  }
  if (step.neighbouring !== 'replace-one') {
    throw new RangeError(
      'the plausible-deniability test is derived for replace-one neighbours (n_S public) only',
    );
  }
  if (!(Number.isSafeInteger(draws) && draws >= 0))
    throw new RangeError(`draws must be a whole number; got ${draws}`);
  const { epsilon, delta } = plausibleDeniabilityTestCost(test);
  const noise = makeDiscreteLaplaceSampler(test.testEpsilon.inverse());
  const times = Rational.of(draws);
  step.charge({ notion: 'approx-dp', epsilon: epsilon.mul(times), delta: delta.mul(times) });
  let left = draws;
  return (rng, pickSeed) => {
    if (left <= 0) throw new RangeError('the plausible-deniability test was drawn more often than charged');
    left -= 1;
    if (bernoulliRationalSafe(rng, test.fallbackNum, test.fallbackDen)) return false;
    const plausible = pickSeed(rng);
    return plausible - test.k >= noise(rng);
  };
}

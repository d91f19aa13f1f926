import gammaFactory from '@stdlib/random-base-gamma';
import normalFactory from '@stdlib/random-base-normal';
import type { Rng } from './types';

/**
 * stdlib's variate generators, all fed by one Rng through their `prng` option. Only the normal and
 * gamma generators are used: stdlib's beta and binomial (0.2.2) fail goodness-of-fit tests in parts
 * of their parameter range, so those are written in beta via gammas and in binomial.ts.
 */
export interface StdlibSamplers {
  /** Normal(mean, sd), sd > 0: improved ziggurat (Doornik 2005). */
  readonly normal: (mean: number, sd: number) => number;
  /** Gamma(shape, rate): Marsaglia & Tsang 2000, with U^(1/shape) boosting for shape < 1. */
  readonly gamma: (shape: number, rate: number) => number;
}

const cache = new WeakMap<Rng, StdlibSamplers>();

/**
 * The stdlib generators bound to `rng`, built once per Rng and cached (building a factory costs far
 * more than a draw). They receive `rng.nextFloat`, uniform on [0, 1), as their source, so seeded
 * runs are reproducible and unseeded ones use the crypto generator. For post-processing only:
 * these are floating-point samplers, never privacy noise (DESIGN.md rule 4).
 */
export function stdlibSamplersFor(rng: Rng): StdlibSamplers {
  let samplers = cache.get(rng);
  if (samplers === undefined) {
    const options = { prng: () => rng.nextFloat() };
    samplers = {
      normal: normalFactory.factory(options),
      gamma: gammaFactory.factory(options),
    };
    cache.set(rng, samplers);
  }
  return samplers;
}

import betaFactory from '@stdlib/random-base-beta';
import binomialFactory from '@stdlib/random-base-binomial';
import gammaFactory from '@stdlib/random-base-gamma';
import normalFactory from '@stdlib/random-base-normal';
import type { Rng } from './types';

/** stdlib's variate generators, all fed by one Rng through their `prng` option. */
export interface StdlibSamplers {
  /** Normal(mean, sd), sd > 0: improved ziggurat (Doornik 2005). */
  readonly normal: (mean: number, sd: number) => number;
  /** Gamma(shape, rate): Marsaglia & Tsang 2000, with U^(1/shape) boosting for shape < 1. */
  readonly gamma: (shape: number, rate: number) => number;
  /** Beta(a, b): Jöhnk 1964 when a, b < 1, otherwise stdlib's rejection or ratio-of-gammas methods. */
  readonly beta: (a: number, b: number) => number;
  /** Binomial(n, p), n >= 1: BTRD (Hörmann 1993) for n·p >= 10, summed Bernoullis below. */
  readonly binomial: (n: number, p: number) => number;
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
      beta: betaFactory.factory(options),
      binomial: binomialFactory.factory(options),
    };
    cache.set(rng, samplers);
  }
  return samplers;
}

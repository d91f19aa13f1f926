export type { Rng } from './types';
export { Rational, parseRational } from './rational';
export { SeededRng } from './seeded-rng';
export { CryptoRng } from './crypto-rng';
export { makeRng } from './make-rng';
export { uniformInt, uniformBigInt } from './uniform-int';
export { sampleBernoulliRational } from './bernoulli-rational';
export { sampleBernoulliExpNeg } from './bernoulli-exp-neg';
export { sampleExponentialMechanism } from './exponential-mechanism';
export { sampleGeometricExpNeg, makeGeometricExpNegSampler } from './geometric-exp-neg';
export { sampleDiscreteLaplace, makeDiscreteLaplaceSampler } from './discrete-laplace';
export { sampleDiscreteGaussian, makeDiscreteGaussianSampler } from './discrete-gaussian';
export {
  sampleNormal,
  makeNormalSampler,
  sampleGamma,
  sampleBeta,
  sampleInverseGamma,
  sampleDirichlet,
  sampleBinomial,
  sampleMultinomial,
  sampleWishart,
  sampleInverseWishart,
} from './continuous';

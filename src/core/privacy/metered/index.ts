/**
 * The metered privacy primitives: the only way a mechanism draws privacy noise, makes a private
 * selection or samples privately. Each takes a step handle (from `reserve`), the kind of query (never a
 * sensitivity number), its noise or privacy parameter and the generator, computes its own cost and
 * charges the step before drawing.
 */
export { meteredDiscreteGaussian } from './discrete-gaussian';
export { meteredDiscreteLaplace } from './discrete-laplace';
export { meteredExponentialMechanism, meteredExponentialMechanismBig } from './exponential-mechanism';
export { meteredNoisyPositiveCells } from './noisy-positive-cells';
export { meteredPriorUrnDraws } from './prior-urn-draws';
export { meteredSmoothedHistogramDraws, type SmoothingDesign } from './smoothed-histogram-draws';
export { meteredPlausibleDeniabilityTest } from './plausible-deniability-test';
export { meteredThresholdedCounts } from './thresholded-counts';
export { chargeUnusedShare } from './unused-share';

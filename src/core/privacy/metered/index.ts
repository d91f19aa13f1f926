/**
 * The metered privacy primitives: the only way a mechanism draws privacy noise or makes a private
 * selection. Each takes a step handle (from `reserve`), the kind of query (never a sensitivity number),
 * its noise parameter and the generator, computes its own cost and charges the step before drawing.
 */
export { meteredDiscreteGaussian } from './discrete-gaussian';
export { meteredDiscreteLaplace } from './discrete-laplace';
export { meteredExponentialMechanism, meteredExponentialMechanismBig } from './exponential-mechanism';

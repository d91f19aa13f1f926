import type { Rng } from '../../rng/types';
import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../types';
import { kipLoss, kipMomentsFromRelease, type KipProblem } from './kip-loss';
import type { ClustmixMixture } from './mixture';
import type { ClustmixPlan } from './plan';
import { drawRandomFrequencies, type NoisyMoments, type RandomFrequencies } from './random-features';

export { releaseMoments } from './random-features';

/** Adam settings (Kingma & Ba 2015, Algorithm 1) for centres on the 0–1 scale. */
export const ADAM_STEP_SIZE = 0.01;
const ADAM_BETA1 = 0.9;
const ADAM_BETA2 = 0.999;
const ADAM_EPSILON = 1e-8;

/** ω for the plan: ℓ = lengthScale·√p, F frequencies. Called after every reservation. */
export function drawFrequencies(plan: ClustmixPlan, rng: Rng): RandomFrequencies {
  const lengthScale = plan.settings.lengthScale * Math.sqrt(plan.encoding.columns);
  return drawRandomFrequencies(plan.settings.features, plan.encoding.dimension, lengthScale, rng);
}

/**
 * Minimises `loss` from `start` by Adam for `steps` steps, each iterate projected into the box
 * [0, upper_j]. Returns the last iterate. With a zero gradient at the start it never moves.
 */
export function adamInBox(
  loss: (x: Float64Array, gradient: Float64Array) => number,
  start: Float64Array,
  boxUpper: Float64Array,
  steps: number,
  onStep?: (step: number) => void,
): Float64Array {
  const x = Float64Array.from(start);
  const d = boxUpper.length;
  const gradient = new Float64Array(x.length);
  const first = new Float64Array(x.length);
  const second = new Float64Array(x.length);
  for (let t = 1; t <= steps; t++) {
    onStep?.(t);
    if (!Number.isFinite(loss(x, gradient))) break;
    const c1 = 1 - ADAM_BETA1 ** t;
    const c2 = 1 - ADAM_BETA2 ** t;
    for (let i = 0; i < x.length; i++) {
      const gi = gradient[i]!;
      first[i] = ADAM_BETA1 * first[i]! + (1 - ADAM_BETA1) * gi;
      second[i] = ADAM_BETA2 * second[i]! + (1 - ADAM_BETA2) * gi * gi;
      const step = (ADAM_STEP_SIZE * (first[i]! / c1)) / (Math.sqrt(second[i]! / c2) + ADAM_EPSILON);
      const upper = boxUpper[i % d]!;
      x[i] = Math.min(upper, Math.max(0, x[i]! - step));
    }
  }
  return x;
}

/** The DP-KIP problem for the kept centres (post-processing of released values only). */
export function kipProblemFor(
  mixture: ClustmixMixture,
  released: NoisyMoments,
  frequencies: RandomFrequencies,
  plan: ClustmixPlan,
): KipProblem {
  return {
    points: mixture.components,
    dimension: plan.encoding.dimension,
    classOf: mixture.classOf,
    start: mixture.means,
    alpha: plan.settings.alpha,
    ridge: plan.settings.ridge,
    frequencies,
    moments: kipMomentsFromRelease(released, plan.n),
  };
}

/**
 * Adapt (eqs. 4–5): moves the centres μ_k to lower eq. 5 for kipSteps Adam steps; spreads, weights
 * and classes stay. Uses the released mixture and moments only.
 */
export function adaptMixture(
  mixture: ClustmixMixture,
  released: NoisyMoments,
  frequencies: RandomFrequencies,
  plan: ClustmixPlan,
  options: { signal?: AbortSignalLike; onStep?: (step: number, total: number) => void } = {},
): { mixture: ClustmixMixture; initialLoss: number; finalLoss: number } {
  const problem = kipProblemFor(mixture, released, frequencies, plan);
  const steps = plan.settings.kipSteps;
  const initialLoss = kipLoss(problem, mixture.means);
  const means = adamInBox(
    (x, gradient) => kipLoss(problem, x, gradient),
    mixture.means,
    plan.encoding.boxUpper,
    steps,
    (step) => {
      throwIfAborted(options.signal);
      options.onStep?.(step, steps);
    },
  );
  return { mixture: { ...mixture, means }, initialLoss, finalLoss: kipLoss(problem, means) };
}

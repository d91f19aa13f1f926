import type { Rational } from '../../../rng/rational';
import type * as NoisyMarginal from '../pgm/noisy-marginal';

/** One call of the graphical models' noise step: the true counts, what it released, and σ². */
export interface RecordedNoise {
  counts: Float64Array;
  noisy: Float64Array;
  sigma2: Rational;
}

const recorded: RecordedNoise[] = [];

/**
 * The noise module with its noise step recorded, for run-path noise audits of mechanisms whose
 * released tables have no closed-form distribution (MST, AIM): each call still draws its noise with
 * the real sampler. Use in a test file:
 *   vi.mock('../common/pgm/noisy-marginal', async (importOriginal) =>
 *     (await import('../common/testing/noise-spy')).spyOnNoise(await importOriginal()));
 */
export function spyOnNoise(actual: typeof NoisyMarginal): typeof NoisyMarginal {
  return {
    ...actual,
    addDiscreteGaussianNoise: (step, rng, counts, sigma2, signal) => {
      const noisy = actual.addDiscreteGaussianNoise(step, rng, counts, sigma2, signal);
      recorded.push({ counts: counts.slice(), noisy, sigma2 });
      return noisy;
    },
  };
}

/**
 * The noise added to cell `cell` of the `call`-th measurement since the last take (noisy − true
 * count), and the record cleared. Throws if the run measured fewer marginals, so a run that stops
 * calling the noise step fails the audit rather than passing it.
 */
export function takeNoise(call: number, cell: number): number {
  const measurement = recorded[call];
  recorded.length = 0;
  if (measurement === undefined) throw new Error(`the run made no measurement number ${call + 1}`);
  return measurement.noisy[cell]! - measurement.counts[cell]!;
}

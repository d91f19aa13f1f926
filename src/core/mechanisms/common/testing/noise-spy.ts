import type { Rational } from '../../../rng/rational';
import type * as NoisyMarginal from '../graphical-models/noisy-marginal';

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
 *   vi.mock('../common/graphical-models/noisy-marginal', async (importOriginal) =>
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

/**
 * The noise added to the first empty cell (true count 0) of the `call`-th measurement since the last
 * take, and the record cleared: audits look at empty cells too, so that noise skipped or shrunk where
 * nothing was counted is seen. Throws when the measurement has no empty cell, unless `orFirstCell`
 * (for a measurement whose marginal the run chose: its noise does not depend on the counts), which
 * then takes cell 0.
 */
export function takeNoiseInEmptyCell(call: number, orFirstCell = false): number {
  const measurement = recorded[call];
  if (measurement === undefined) {
    recorded.length = 0;
    throw new Error(`the run made no measurement number ${call + 1}`);
  }
  const empty = measurement.counts.indexOf(0);
  if (empty < 0 && !orFirstCell) {
    recorded.length = 0;
    throw new Error(`measurement number ${call + 1} has no empty cell`);
  }
  return takeNoise(call, Math.max(empty, 0));
}

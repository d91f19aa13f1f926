import type { ChargeableStep } from './meter';
import { querySensitivity, type QueryKind } from './query-sensitivity';
import { roundUpRational } from './round-up';
import { Rational } from '../rng/rational';
import { InputError } from '../table/errors';
import { CROSS_TABULATION_SENSITIVITY_REPLACE_ONE } from './count-sensitivity';
import type { AbortSignalLike } from '../abort';

export { CROSS_TABULATION_SENSITIVITY_REPLACE_ONE } from './count-sensitivity';
export type { NoisyPositiveCells } from './metered/sparse-cell-noise';

/**
 * The discrete Laplace scale t = Δ/ε for noisy counts, exactly as a rational. Adding independent
 * noise P(z) ∝ exp(−|z|/t) to every cell of a query with L1 sensitivity Δ is ε-DP
 * (Canonne, Kamath & Steinke 2020, §5.2; the discrete analogue of DIPS Definition 3).
 * Example: ε = 1/2, Δ = 2 → t = 4.
 */
export function countNoiseScale(
  epsilon: Rational,
  sensitivity: number = CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
): Rational {
  return Rational.of(sensitivity).div(epsilon);
}

/**
 * Largest noise scale accepted: 2^40. A discrete Laplace draw then exceeds 2^53 (beyond exact
 * integers in a double) with probability about e^(−2^53/2^40) = e^(−8192), i.e. never; larger
 * scales (ε below about 2·10⁻¹² per count) are refused up front instead of failing mid-run.
 */
export const LARGEST_COUNT_NOISE_SCALE = 2 ** 40;

/** Δ/ε, refused with an InputError above LARGEST_COUNT_NOISE_SCALE (a sentence saying what to do). */
export function checkedCountNoiseScale(epsilon: Rational, sensitivity: number): Rational {
  const scale = countNoiseScale(epsilon, sensitivity);
  if (scale.toNumber() > LARGEST_COUNT_NOISE_SCALE) {
    throw new InputError(
      `ε = ${roundUpRational(epsilon)} per count gives a noise scale of ${scale.toNumber().toPrecision(3)}, above ` +
        `${LARGEST_COUNT_NOISE_SCALE.toExponential(2)}: the counts would be pure noise and cannot be sampled ` +
        'exactly. Use a larger ε or fewer releases.',
    );
  }
  return scale;
}

/**
 * The discrete Laplace scale at which noise on `query` costs exactly ε at this step: t = Δ₁/ε, Δ₁ the
 * query's L1 sensitivity under the step's relation (privacy/query-sensitivity.ts; counts over a
 * partition under replace-one: 2, so t = 2/ε). The metered primitive charges Δ₁/t back, which is ε.
 * Throws InputError when t passes LARGEST_COUNT_NOISE_SCALE (see there).
 */
export function laplaceScaleFor(
  step: Pick<ChargeableStep, 'neighbouring'>,
  query: QueryKind,
  epsilon: Rational,
): Rational {
  const { l1 } = querySensitivity(query, step.neighbouring);
  if (l1.den !== 1n) throw new RangeError(`a count query has a whole sensitivity; got ${l1.toString()}`);
  return checkedCountNoiseScale(epsilon, Number(l1.num));
}

/** The upper clamp of a repair: n for boundary-inflated, none (Infinity) for zero. */
export function repairUpper(repair: NoisyCountRepair, nRows: number): number {
  return repair === 'boundary-inflated' ? nRows : Infinity;
}

/**
 * How noisy counts are made legitimate (post-processing, so no privacy cost; DIPS §3.1.2):
 * - 'zero': negative counts become 0 (Barak et al. 2007);
 * - 'boundary-inflated': counts are clamped to [0, n], the mass outside piling up on the
 *   boundaries (boundary inflated truncation, Liu 2016c; DIPS §4.1).
 */
export type NoisyCountRepair = 'zero' | 'boundary-inflated';

export interface CountNoiseOptions {
  /** Size K of the domain: every cell 0 … K − 1 gets noise, empty or not. */
  domainCells: number;
  repair: NoisyCountRepair;
  /** Public row count n, the upper clamp of 'boundary-inflated'. */
  nRows: number;
  signal: AbortSignalLike;
  /** Called with the fraction of the domain done. */
  onProgress?: (fraction: number) => void;
  /** L1 sensitivity Δ of the whole table of counts (default 2: a cross-tabulation under replace-one). */
  sensitivity?: number;
}

import { formatCount } from '../format/format-count';

/** The default δ when n is not public (add/remove neighbours) or small: 10⁻⁹. */
export const DEFAULT_DELTA_CAP = '1e-9';

/** The δ a run uses when a mechanism needs δ > 0 and none was set, with the sentence that says so. */
export interface DefaultDelta {
  /** An exact decimal, m·10^−k with one significant digit m. */
  delta: string;
  /** One sentence for the claim, the CLI's stderr and the studio, beside ε. */
  reason: string;
}

/**
 * The default δ from public facts only: min(10⁻⁹, 1/n²) rounded down to one significant digit, with n
 * the public row count (replace-one neighbours); 10⁻⁹ when n is not given. Why: δ bounds the chance
 * that the ε guarantee fails, and a δ near 1/n would allow releasing one person's row in full with
 * some probability; 1/n² keeps nδ ≤ 1/n, vanishing as n grows (Dwork & Roth 2014, §2.3: δ should be
 * less than the inverse of any polynomial in n), and 10⁻⁹ keeps small tables far below 1/n too.
 * Computed with integers: with k the number of digits of n², m = floor(10^k / n²) ∈ [1, 10] and
 * δ = m·10^−k ≤ 1/n². Example: n = 48,842 → n² = 2,385,540,964 (10 digits), m = 4, δ = 4e-10.
 */
export function defaultDelta(n?: number): DefaultDelta {
  const capped = (why: string): DefaultDelta => ({
    delta: DEFAULT_DELTA_CAP,
    reason:
      `δ was not set, so the default δ = ${DEFAULT_DELTA_CAP} applies (${why}): the chance that the ε ` +
      'guarantee fails, far below 1/n, so it cannot amount to publishing a person’s row.',
  });
  if (n === undefined || !Number.isInteger(n) || n < 1) return capped('10⁻⁹ when n is not public');
  const squared = BigInt(n) * BigInt(n);
  if (squared <= 1_000_000_000n) return capped(`the smaller of 10⁻⁹ and 1/n² for n = ${formatCount(n)}`);
  const k = squared.toString().length;
  const m = 10n ** BigInt(k) / squared;
  // n² a power of ten gives m = 10: the same number as 1e−(k−1).
  const delta = m === 10n ? `1e-${k - 1}` : `${m}e-${k}`;
  return {
    delta,
    reason:
      `δ was not set, so the default δ = ${delta} applies (the smaller of 10⁻⁹ and 1/n² for n = ` +
      `${formatCount(n)} public rows, rounded down): the chance that the ε guarantee fails, far below 1/n, ` +
      'so it cannot amount to publishing a person’s row.',
  };
}

import { roundUp } from '../../../privacy/round-up';
import { CROSS_TABULATION_SENSITIVITY_REPLACE_ONE } from '../../../privacy/count-sensitivity';
import { formatCount } from '../../../format/format-count';

/**
 * Expected positive part E[max(X, 0)] of one discrete Laplace draw X with P(X = k) ∝ e^(−|k|/b):
 * with q = e^(−1/b), Σ_{k≥1} k·(1 − q)/(1 + q)·q^k = q / (1 − q²). For counts at ε with L1
 * sensitivity 2, b = 2/ε. Example: ε = 1 → q = e^(−0.5) = 0.6065, E[X⁺] = 0.9596. Cost O(1).
 */
export function expectedPositiveNoise(
  epsilon: number,
  sensitivity = CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
): number {
  const q = Math.exp(-epsilon / sensitivity);
  return q / (1 - q * q);
}

/**
 * A public warning when noise would dominate the drawn rows: every one of the K cells gets noise,
 * and an empty cell keeps its positive part, about K·E[X⁺] in all, against the n real rows. When
 * that exceeds n, more than half of the synthetic rows are expected to land in cells drawn by
 * noise alone. From K, n and ε only. Example: K = 17,694,720, n = 10,000, ε = 1 → 99.9 %.
 */
export function noiseDominanceWarning(domainCells: number, n: number, releaseEpsilon: number): string[] {
  const noiseMass = domainCells * expectedPositiveNoise(releaseEpsilon);
  if (!(noiseMass > n)) return [];
  const share = noiseMass / (noiseMass + n);
  return [
    `With ${formatCount(domainCells)} cells, ${formatCount(n)} rows and ε = ` +
      `${roundUp(releaseEpsilon, 3)} per release, up to about ${(100 * share).toFixed(1)}% of the synthetic ` +
      'rows are expected to come from noise in cells the data may not occupy: choose fewer bins or columns, ' +
      'or spend more ε.',
  ];
}

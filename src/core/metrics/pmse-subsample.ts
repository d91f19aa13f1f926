import type { Rng } from '../rng/types';
import type { Table } from '../table/types';
import { sampleIndicesWithoutReplacement } from './sample-indices';
import { selectRows } from './select-rows';

/**
 * Rows per side at most for pMSE in the full evaluation: a CART fit and its permutation refits on
 * 2 × 50,000 rows take seconds; on millions of rows they would take the evaluation's whole time.
 * Linear metrics (TVD, per-column, correlations) still read every row.
 */
export const PMSE_MAX_ROWS_PER_SIDE = 50_000;

/** The rows pMSE is computed on: the tables themselves, or uniform subsamples of at most `maxRows` each. */
export function pmseRows(
  real: Table,
  synth: Table,
  maxRows: number,
  rng: Rng,
): { real: Table; synth: Table; subsample: { realRows: number; synthRows: number } | null } {
  if (real.nRows <= maxRows && synth.nRows <= maxRows) return { real, synth, subsample: null };
  const part = (table: Table) =>
    table.nRows <= maxRows
      ? table
      : selectRows(table, sampleIndicesWithoutReplacement(table.nRows, maxRows, rng));
  const realPart = part(real);
  const synthPart = part(synth);
  return {
    real: realPart,
    synth: synthPart,
    subsample: { realRows: realPart.nRows, synthRows: synthPart.nRows },
  };
}

/**
 * Standard error of a pMSE computed on a uniform subsample, given the fitted propensities p̂ᵢ of its
 * N = n_r + n_s pooled rows: pMSE = (1/N) Σ (p̂ᵢ − c)², c = n_s/N (Snoke, Raab, Nowok, Dibben &
 * Slavkovic 2018, eq. 1), a mean of N terms tᵢ = (p̂ᵢ − c)², so SE = s_t / √N with s_t the sample
 * standard deviation of the terms (the standard error of a mean under simple random sampling,
 * Cochran 1977, Sampling Techniques, eq. 2.12, finite-population correction left out). It holds the
 * fitted model fixed: the variation of the fit itself from subsample to subsample is not in it.
 */
export function pmseStandardError(propensities: { real: Float64Array; synth: Float64Array }): number {
  const n = propensities.real.length + propensities.synth.length;
  if (n < 2) return Number.NaN;
  const c = propensities.synth.length / n;
  let sum = 0;
  let sumSquares = 0;
  for (const p of [propensities.real, propensities.synth]) {
    for (let i = 0; i < p.length; i++) {
      const t = (p[i]! - c) ** 2;
      sum += t;
      sumSquares += t * t;
    }
  }
  const mean = sum / n;
  const variance = Math.max(0, (sumSquares - n * mean * mean) / (n - 1));
  return Math.sqrt(variance / n);
}

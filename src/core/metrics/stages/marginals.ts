import { meanOfFinite } from '../../stats/mean';
import { encodeMarginalCells } from '../marginal-cells';
import {
  FULL_TABLE_TVD_MAX_CELLS,
  fullTableTvdFromEncoded,
  kMarginalScore,
  tvdKWayFromEncoded,
} from '../tvd';
import type { TvdOrderReport } from '../utility-report';
import { defineMetricStage } from './stage';

/** A k-way TVD is skipped when C(m, k) · k · (n_r + n_s) exceeds this many cell visits (about 10 s). */
export const TVD_MAX_WORK = 2e9;

/** C(m, k), the number of k-column subsets of m columns. */
function binomial(m: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (m - k + i)) / i;
  return Math.round(result);
}

/** Why the full-table TVD is missing for some releases, or undefined when every release has it. */
function fullTableSkipReason(perRelease: (number | null)[], m: number): string | undefined {
  const missing = perRelease.flatMap((v, j) => (v === null ? [j + 1] : []));
  if (missing.length === 0) return undefined;
  const which =
    perRelease.length === 1
      ? ''
      : missing.length === perRelease.length
        ? ' in every release'
        : ` in release${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${perRelease.length}`;
  const limit = String(FULL_TABLE_TVD_MAX_CELLS).replace(/\B(?=(\d{3})+(?!\d))/g, ','); // 1,000,000
  return (
    `the joint table of all ${m} columns has more than ${limit} cells${which}: almost every cell ` +
    'would hold at most one row, so it is not compared.'
  );
}

/**
 * TVD of marginals (../tvd.ts; TVD = ½·Σ|p − q|, numeric columns in `bins` equal-width bins over the
 * pooled range): for each k in options.tvdK (default 1, 2, 3) the mean over k-column subsets per
 * release and over releases, skipped with the reason when k is out of range or too costly
 * (TVD_MAX_WORK); the full-table TVD (skipped above FULL_TABLE_TVD_MAX_CELLS cells); and SDNist's
 * k-marginal score 1000 · (1 − mean 2-way TVD) when k = 2 is computed.
 */
export const marginalsStage = defineMetricStage({
  id: 'marginals',
  label: 'Marginal distances',
  weight: 2,
  section: 'tvd',
  enabled: () => true,
  run({ real, synths, options, bins }) {
    const ks = options.tvdK ?? [1, 2, 3];
    const encoded = synths.map((synth) => encodeMarginalCells(real, synth, bins));
    const m = encoded[0]!.columns.length;
    const byK: Record<string, TvdOrderReport> = {};
    for (const k of ks) {
      const work = binomial(m, k) * k * (real.nRows + synths[0]!.nRows);
      if (k < 1 || k > m) {
        byK[String(k)] = { k, perRelease: null, mean: null, skipped: `k must be between 1 and ${m}.` };
      } else if (work > TVD_MAX_WORK) {
        byK[String(k)] = {
          k,
          perRelease: null,
          mean: null,
          skipped: `${binomial(m, k)} subsets of ${m} columns: too many to compare in reasonable time.`,
        };
      } else {
        const perRelease = encoded.map((e) => tvdKWayFromEncoded(e, k));
        byK[String(k)] = { k, perRelease, mean: meanOfFinite(perRelease.map((r) => r.mean)) };
      }
    }
    const full = encoded.map((e) => fullTableTvdFromEncoded(e));
    const two = byK['2']?.perRelease;
    const scores = two ? two.map((r) => kMarginalScore(r.mean)) : null;
    const fullSkipped = fullTableSkipReason(full, m);
    return {
      bins,
      byK,
      fullTable: {
        perRelease: full,
        mean: meanOfFinite(full),
        ...(fullSkipped === undefined ? {} : { skipped: fullSkipped }),
      },
      kMarginalScore: scores ? { perRelease: scores, mean: meanOfFinite(scores)! } : null,
    };
  },
});

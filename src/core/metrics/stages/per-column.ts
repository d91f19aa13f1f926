import { meanOfFinite } from '../../stats/mean';
import { compareColumns, type ColumnComparison } from '../per-column';
import type { ColumnMeanComparison } from '../utility-report';
import { defineMetricStage } from './stage';

/** Each column's TVD, KS and Wasserstein distances averaged over releases (finite values only). */
function meanColumnComparisons(perRelease: ColumnComparison[][]): ColumnMeanComparison[] {
  return perRelease[0]!.map((first, j) => {
    const all = perRelease.map((release) => release[j]!);
    const numeric = (pick: (c: ColumnComparison & { kind: 'numeric' }) => number | null) =>
      first.kind === 'numeric' ? meanOfFinite(all.map((c) => (c.kind === 'numeric' ? pick(c) : null))) : null;
    return {
      name: first.name,
      kind: first.kind,
      tvd: meanOfFinite(all.map((c) => c.tvd))!,
      ks: numeric((c) => c.ks),
      wasserstein: numeric((c) => c.wasserstein),
      wassersteinRangeNormalized: numeric((c) => c.wassersteinRangeNormalized),
    };
  });
}

/** Per-column comparisons (../per-column.ts: KS, Wasserstein-1, TVD, mean, SD, missing rate) per release and as means. */
export const perColumnStage = defineMetricStage({
  id: 'columns',
  label: 'Per-column comparison',
  weight: 1,
  section: 'perColumn',
  enabled: () => true,
  run({ real, synths, bins }) {
    const perRelease = synths.map((synth) => compareColumns(real, synth, { bins }));
    return { perRelease, mean: meanColumnComparisons(perRelease) };
  },
});

import { meanOfFinite } from '../../stats/mean';
import { compareAssociations } from '../correlation';
import { defineMetricStage } from './stage';

/** The entry-wise mean of equally shaped matrices (finite entries only; null where none is). */
function entrywiseMean(matrices: (number | null)[][][]): (number | null)[][] {
  return matrices[0]!.map((row, i) =>
    row.map((_, j) => meanOfFinite(matrices.map((matrix) => matrix[i]![j]!))),
  );
}

/**
 * Association matrices (../correlation.ts: Pearson, Cramér's V, the correlation ratio) of the real
 * table and each release, their differences, and entry-wise means over releases.
 */
export const correlationStage = defineMetricStage({
  id: 'correlation',
  label: 'Correlations',
  weight: 1,
  section: 'correlation',
  enabled: () => true,
  run({ real, synths }) {
    const perRelease = synths.map((synth) => compareAssociations(real, synth));
    const absolute = perRelease.map((r) => r.meanAbsoluteDifference);
    return {
      perRelease,
      meanSynth: entrywiseMean(perRelease.map((r) => r.synth)),
      meanDifference: entrywiseMean(perRelease.map((r) => r.difference)),
      meanAbsoluteDifference: { perRelease: absolute, mean: meanOfFinite(absolute) },
    };
  },
});

import { compareRegressions } from '../regression-comparison';
import { defineMetricStage } from './stage';

/**
 * The user's regression fitted on the real table and each release, with standardized differences,
 * interval overlap and the combining rules over releases (../regression-comparison.ts).
 */
export const regressionStage = defineMetricStage({
  id: 'regression',
  label: 'Regression comparison',
  weight: 1,
  section: 'regression',
  enabled: (options) => options.regression !== undefined,
  run({ real, synths, options }) {
    return compareRegressions(real, synths, options.regression!);
  },
});

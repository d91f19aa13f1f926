import { mlEfficacy } from '../ml-efficacy';
import { defineMetricStage } from './stage';

/** Classifiers trained on each release and on the real table, scored on held-out real rows (../ml-efficacy.ts). */
export const mlEfficacyStage = defineMetricStage({
  id: 'ml',
  label: 'Machine-learning efficacy',
  weight: 4,
  section: 'mlEfficacy',
  enabled: (options) => options.ml !== undefined,
  run({ real, synths, options, rng }) {
    const { holdout, ...mlOptions } = options.ml!;
    return mlEfficacy(real, holdout, synths, mlOptions, rng);
  },
});

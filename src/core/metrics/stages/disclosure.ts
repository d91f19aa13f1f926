import { DISCLOSURE_LABEL, disclosureDiagnostics } from '../disclosure';
import { defineMetricStage } from './stage';

/** Exact matches and distance to the closest record, per release (../disclosure.ts; not DP, a sanity check). */
export const disclosureStage = defineMetricStage({
  id: 'disclosure',
  label: 'Disclosure checks',
  weight: 2,
  section: 'disclosure',
  enabled: (options) => options.disclosure !== false,
  run({ real, rng, perRelease }) {
    return {
      label: DISCLOSURE_LABEL,
      perRelease: perRelease((synth) => disclosureDiagnostics(real, synth, rng)),
    };
  },
});

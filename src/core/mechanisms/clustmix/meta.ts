import type { Mechanism } from '../types';
import { checkClustmix } from './check';
import { clustmixClaim } from './claim';
import { describeClustmix } from './describe';
import { CLUSTMIX_PARAMS } from './params';
import { clustmixFit } from './fit';

/** Everything about clustmix but its run: the catalogue, the form, the claim (no run code imported). */
export const clustmixMeta: Omit<Mechanism, 'run'> = {
  id: 'clustmix',
  label: 'ClustMix (noisy clusters)',
  summary:
    'An isotropic Gaussian mixture from noisy cluster counts, clipped residual sums and spreads found by noisy k-means iterations; optional label-aware adaptation of the centres.',
  reference:
    'Approximate, Adapt, Anonymize (3A): a framework for privacy-preserving training data release for machine learning (2023), ClustMix: Methods, eqs. 1–7 and Theorem 2, re-derived for replace-one neighbours in zCDP',
  supports: { numeric: true, categorical: true },
  fit: clustmixFit,
  params: CLUSTMIX_PARAMS,
  claim: clustmixClaim,
  describe: describeClustmix,
  check: checkClustmix,
};

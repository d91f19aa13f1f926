import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mechanismIds } from './registry';

/**
 * Mechanisms whose released noise is not yet audited through `run`, each with the reason. The
 * pMSE mechanism's output is an MCMC approximation of the exponential mechanism (its claim lists
 * that assumption), so no exact distribution of a released statistic is available to test against.
 * clustmix's noise is tested where it is added (the exact cluster statistics), not through the tables.
 */
const NOT_AUDITED: Record<string, string> = {
  'pmse-mechanism': 'sampled by MCMC: no exact distribution of a released statistic',
  clustmix:
    'a synthetic table passes the noisy statistics through l_min selection, clamps and Gaussian spread, so no ' +
    'statistic of it has a closed-form distribution; the released statistics themselves are audited on ' +
    'worst-case neighbours in tests/privacy/clustmix-empirical.test.ts',
  'plausible-deniability':
    'a synthetic row comes from a seed behind a noisy test or from a network whose structure and Dirichlet-drawn ' +
    'tables follow noisy entropies and counts, so no statistic of a table has a closed-form distribution; the ' +
    'network noise is the exact discrete Laplace sampler tested in rng/, its scales are checked by hand in ' +
    'models/bayes-net, and one draw (test, fallback coin, generation) is audited on worst-case neighbours in ' +
    'tests/privacy/plausible-deniability-empirical.test.ts',
};

describe('run-path noise audits', () => {
  it.each(mechanismIds())('%s has a noise audit beside it (or a stated reason why not)', (id) => {
    const audit = new URL(`./${id}/noise-audit.test.ts`, import.meta.url);
    if (id in NOT_AUDITED) {
      expect(existsSync(audit), `${id} is audited now: remove it from NOT_AUDITED`).toBe(false);
    } else {
      expect(existsSync(audit), `add ${id}/noise-audit.test.ts (see mechanisms/README.md)`).toBe(true);
    }
  });
});

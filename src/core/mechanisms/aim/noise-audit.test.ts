import { vi } from 'vitest';
import { zcdpRhoForBudget, zcdpToApproxDp } from '../../privacy/zcdp';
import { auditTable } from '../common/testing/audit-tables';
import { describeNoiseAudit, type AuditBudget } from '../common/testing/noise-audit';
import { takeNoise } from '../common/testing/noise-spy';
import { discreteGaussianPmf } from '../common/testing/released-count-distributions';
import { resolveParams } from '../params';
import { aim } from './index';

vi.mock('../common/pgm/noisy-marginal', async (importOriginal) =>
  (await import('../common/testing/noise-spy')).spyOnNoise(await importOriginal()),
);

// Claim (McKenna et al. 2022, Alg. 1, re-derived for replace-one): ρ from (ε, δ) by CKS Cor. 13;
// T rounds share ρ, each spending the share s on measuring; a histogram's L2 sensitivity is √2, so
// noise N_ℤ(0, σ²) costs 1/σ² and the starting σ² = T/(s·ρ). The d one-way histograms are measured
// first at that σ². The observation is the noise the run added to cell x = a of x's one-way
// histogram (its first measurement), recorded by a spy on the noise step.
const ROUNDS = 4;
const SHARE = 0.9;
const DELTA = 1e-6;
const params = resolveParams(aim, { rounds: ROUNDS, measureShare: SHARE, maxIters: 1 });
const budget: AuditBudget = { epsilon: 4, releases: 1, delta: DELTA };
const rho = (at: AuditBudget) => zcdpRhoForBudget(at.epsilon, at.delta!);
/** The budget at which a correct run spends `factor` × the audited ρ (what a bug that does so draws). */
const withRhoTimes = (factor: number): AuditBudget => ({
  epsilon: zcdpToApproxDp(factor * rho(budget), DELTA),
  releases: 1,
  delta: DELTA,
});

describeNoiseAudit({
  mechanism: aim,
  ...auditTable(),
  params,
  budget,
  what: 'cell x = a of the one-way histogram of x',
  observeRun: () => [takeNoise(0, 0)],
  expected: (at) => discreteGaussianPmf(ROUNDS / (SHARE * rho(at))),
  broken: {
    'no noise': { epsilon: 1e6, releases: 1, delta: DELTA },
    'sensitivity 1 (the add/remove cost 1/(2σ²): σ² halved)': withRhoTimes(2),
    'ρ not shared over the rounds (σ² = 1/(s·ρ))': withRhoTimes(ROUNDS),
  },
  runs: 2_000,
});

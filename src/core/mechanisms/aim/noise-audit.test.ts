import { vi } from 'vitest';
import { zcdpRhoForBudget, zcdpToApproxDp } from '../../privacy/zcdp';
import { auditTable } from '../common/testing/audit-tables';
import { describeNoiseAudit, type AuditBudget } from '../common/testing/noise-audit';
import { takeNoise, takeNoiseInEmptyCell } from '../common/testing/noise-spy';
import { discreteGaussianPmf } from '../common/testing/released-count-distributions';
import { resolveParams } from '../params';
import { aim } from './index';

vi.mock('../common/graphical-models/noisy-marginal', async (importOriginal) =>
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

const broken = {
  'no noise': { epsilon: 1e6, releases: 1, delta: DELTA },
  'sensitivity 1 (the add/remove cost 1/(2σ²): σ² halved)': withRhoTimes(2),
  'ρ not shared over the rounds (σ² = 1/(s·ρ))': withRhoTimes(ROUNDS),
};

describeNoiseAudit({
  mechanism: aim,
  ...auditTable(),
  params,
  budget,
  what: 'cell x = a of the one-way histogram of x',
  observeRun: () => [takeNoise(0, 0)],
  expected: (at) => discreteGaussianPmf(ROUNDS / (SHARE * rho(at))),
  broken,
  runs: 2_000,
});

// Empty cells too: y has no missing value, so the missing cell of y's one-way histogram (the second
// measurement) counts 0.
describeNoiseAudit({
  mechanism: aim,
  ...auditTable(),
  params,
  budget,
  what: 'the empty missing-value cell of the one-way histogram of y',
  observeRun: () => [takeNoiseInEmptyCell(1)],
  expected: (at) => discreteGaussianPmf(ROUNDS / (SHARE * rho(at))),
  broken,
  runs: 2_000,
});

// The marginal the first adaptive round chose (the third measurement), in its first empty cell (cell 0
// when it has none, e.g. x's one-way): with d = 2 one-ways at ρ₀ = 2/σ² = 0.45ρ and rounds of cost
// 0.25ρ, 0.55ρ is left, at least twice a round, so the first round measures at the starting σ² whatever
// it chose; the noise does not depend on which marginal or cell.
describeNoiseAudit({
  mechanism: aim,
  ...auditTable(),
  params,
  budget,
  what: 'an empty cell of the marginal the first adaptive round measured',
  observeRun: () => [takeNoiseInEmptyCell(2, true)],
  expected: (at) => discreteGaussianPmf(ROUNDS / (SHARE * rho(at))),
  broken,
  runs: 2_000,
});

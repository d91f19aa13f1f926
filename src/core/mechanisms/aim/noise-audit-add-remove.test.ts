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

// Claim under add/remove neighbours (McKenna et al. 2022, Alg. 1, whose relation this is): ρ from
// (ε, δ) by CKS Cor. 13; T rounds share ρ, each spending the share s on measuring; a histogram's L2
// sensitivity is 1, so noise N_ℤ(0, σ²) costs 1/(2σ²) and the starting σ² = T/(2·s·ρ), half the
// replace-one variance. With d = 2 one-ways at ρ₀ = 2/(2σ²) = 0.45ρ and rounds of 0.25ρ, 0.55ρ is left,
// twice a round, so the first adaptive round (the third measurement) also measures at that σ².
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
  'noise for half the sensitivity (σ² a quarter)': withRhoTimes(4),
  'the replace-one σ² kept under add/remove (σ² doubled)': withRhoTimes(0.5),
};

for (const [what, observe] of [
  ['cell x = a of the one-way histogram of x', () => takeNoise(0, 0)],
  ['the empty missing-value cell of the one-way histogram of y', () => takeNoiseInEmptyCell(1)],
  ['an empty cell of the marginal the first adaptive round measured', () => takeNoiseInEmptyCell(2, true)],
] as const) {
  describeNoiseAudit({
    mechanism: aim,
    ...auditTable(),
    params,
    budget,
    neighbouring: 'add-remove',
    what,
    observeRun: () => [observe()],
    expected: (at) => discreteGaussianPmf(ROUNDS / (2 * SHARE * rho(at))),
    broken,
    runs: 2_000,
  });
}

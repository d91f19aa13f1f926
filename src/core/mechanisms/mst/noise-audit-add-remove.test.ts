import { vi } from 'vitest';
import { zcdpRhoForBudget, zcdpToApproxDp } from '../../privacy/zcdp';
import { auditTable } from '../common/testing/audit-tables';
import { describeNoiseAudit, type AuditBudget } from '../common/testing/noise-audit';
import { takeNoise, takeNoiseInEmptyCell } from '../common/testing/noise-spy';
import { discreteGaussianPmf } from '../common/testing/released-count-distributions';
import { resolveParams } from '../params';
import { mst } from './index';

vi.mock('../common/graphical-models/noisy-marginal', async (importOriginal) =>
  (await import('../common/testing/noise-spy')).spyOnNoise(await importOriginal()),
);

// Claim under add/remove neighbours (McKenna, Miklau & Sheldon 2021, §4.1, whose relation this is):
// ρ from (ε, δ) by CKS Cor. 13, a third each for the d one-ways, the d − 1 selections and the d − 1
// two-ways; a histogram's L2 sensitivity is 1, so noise N_ℤ(0, σ²) costs 1/(2σ²): σ₁² = 3d/(2ρ) and
// σ₂² = 3(d − 1)/(2ρ), half the replace-one variances. d = 2 (the audit table's x and y). Observed: the
// noise the run added to a cell of x's one-way histogram, an empty cell of y's, and the first empty cell
// of the tree's two-way histogram (a spy on the noise step).
const D = 2;
const DELTA = 1e-6;
const params = resolveParams(mst, { iterations: 1, compress: false });
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

for (const [what, observe, cells] of [
  ['cell x = a of the one-way histogram of x', () => takeNoise(0, 0), D],
  ['the empty missing-value cell of the one-way histogram of y', () => takeNoiseInEmptyCell(1), D],
  ['the first empty cell of the tree’s two-way histogram', () => takeNoiseInEmptyCell(D), D - 1],
] as const) {
  describeNoiseAudit({
    mechanism: mst,
    ...auditTable(),
    params,
    budget,
    neighbouring: 'add-remove',
    what,
    observeRun: () => [observe()],
    expected: (at) => discreteGaussianPmf((3 * cells) / (2 * rho(at))),
    broken,
    runs: 2_000,
  });
}

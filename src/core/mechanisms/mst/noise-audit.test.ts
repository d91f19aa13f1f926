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

// Claim (McKenna, Miklau & Sheldon 2021, §4.1, re-derived for replace-one): ρ from (ε, δ) by CKS
// Cor. 13; a third of ρ for the d one-way histograms, a third for d − 1 selections, a third for the
// d − 1 two-way histograms; a histogram's L2 sensitivity is √2, so noise N_ℤ(0, σ²) costs 1/σ²:
// σ₁² = 3d/ρ and σ₂² = 3(d − 1)/ρ. Here d = 2 (the audit table's x and y). The observation is the
// noise the run added to cell x = a of x's one-way histogram (the run's first measurement) and to
// the first cell of the tree's one two-way histogram (its third), recorded by a spy on the noise step.
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
  'sensitivity 1 (the add/remove cost 1/(2σ²): σ² halved)': withRhoTimes(2),
  'ρ not split in three (σ² a third)': withRhoTimes(3),
};

describeNoiseAudit({
  mechanism: mst,
  ...auditTable(),
  params,
  budget,
  what: 'cell x = a of the one-way histogram of x',
  observeRun: () => [takeNoise(0, 0)],
  expected: (at) => discreteGaussianPmf((3 * D) / rho(at)),
  broken,
  runs: 2_000,
});

describeNoiseAudit({
  mechanism: mst,
  ...auditTable(),
  params,
  budget,
  what: 'first cell of the tree’s two-way histogram',
  observeRun: () => [takeNoise(D, 0)],
  expected: (at) => discreteGaussianPmf((3 * (D - 1)) / rho(at)),
  broken,
  runs: 2_000,
});

// Empty cells too: y has no missing value, so the missing cell of y's one-way histogram (the run's
// second measurement) counts 0, and so do cells of the two-way histogram (x = a, y missing, …).
describeNoiseAudit({
  mechanism: mst,
  ...auditTable(),
  params,
  budget,
  what: 'the empty missing-value cell of the one-way histogram of y',
  observeRun: () => [takeNoiseInEmptyCell(1)],
  expected: (at) => discreteGaussianPmf((3 * D) / rho(at)),
  broken,
  runs: 2_000,
});

describeNoiseAudit({
  mechanism: mst,
  ...auditTable(),
  params,
  budget,
  what: 'the first empty cell of the tree’s two-way histogram',
  observeRun: () => [takeNoiseInEmptyCell(D)],
  expected: (at) => discreteGaussianPmf((3 * (D - 1)) / rho(at)),
  broken,
  runs: 2_000,
});

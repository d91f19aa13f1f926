import { AUDIT_CELL_COUNTS, auditTable, rowsInEmptyAuditedCell } from '../common/testing/audit-tables';
import { rowsInAuditedCell } from '../common/testing/dirichlet-distributions';
import { describeNoiseAudit } from '../common/testing/noise-audit';
import { binomialMass } from '../common/testing/released-count-distributions';
import { tabulatePmf } from '../../rng/testing/distribution-fit';
import { binomialBetaMr } from './index';

// Claim: per release ε/M, n = 10 rows drawn independently with p_k = (n_k + α)/(n + Kα), K = 9 cells,
// α = 1/(e^(ε/(M·n)) − 1). The synthetic rows in the cell (x = a, y = u), 4 real rows, are then
// Binomial(10, (4 + α)/(10 + 9α)).
describeNoiseAudit({
  mechanism: binomialBetaMr,
  ...auditTable(),
  budget: { epsilon: 4, releases: 2 },
  statistic: rowsInAuditedCell,
  expected: ({ epsilon, releases }) => {
    const alpha = 1 / Math.expm1(epsilon / (releases * 10));
    const p = (AUDIT_CELL_COUNTS[0]! + alpha) / (10 + 9 * alpha);
    return tabulatePmf(0, 10, (s) => binomialMass(s, 10, p));
  },
  broken: {
    'almost no prior (ε = 10⁶)': { epsilon: 1e6, releases: 2 },
    'the total ε on every release': { epsilon: 4, releases: 1 },
  },
  runs: 2_000,
});

// The empty cell (x = a, y missing): only the prior puts rows there, Binomial(10, α/(10 + 9α)).
describeNoiseAudit({
  mechanism: binomialBetaMr,
  ...auditTable(),
  what: 'an empty cell',
  budget: { epsilon: 4, releases: 2 },
  statistic: rowsInEmptyAuditedCell,
  expected: ({ epsilon, releases }) => {
    const alpha = 1 / Math.expm1(epsilon / (releases * 10));
    return tabulatePmf(0, 10, (s) => binomialMass(s, 10, alpha / (10 + 9 * alpha)));
  },
  broken: {
    'almost no prior (ε = 10⁶)': { epsilon: 1e6, releases: 2 },
    'the total ε on every release': { epsilon: 4, releases: 1 },
  },
  // 4,000 runs: α moves little between ε/M and ε (4.52 against 2.03), so the test needs the observations.
  runs: 4_000,
});

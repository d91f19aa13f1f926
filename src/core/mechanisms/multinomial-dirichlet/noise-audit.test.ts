import { AUDIT_CELL_COUNTS, auditTable, rowsInEmptyAuditedCell } from '../common/testing/audit-tables';
import { betaBinomialMass, rowsInAuditedCell } from '../common/testing/dirichlet-distributions';
import { describeNoiseAudit } from '../common/testing/noise-audit';
import { tabulatePmf } from '../../rng/testing/distribution-fit';
import { multinomialDirichlet } from './index';

// Claim: per release ε/M, n = 10 rows from Dirichlet–multinomial(α + counts) over the 9 cells, with
// α = n/(e^(ε/M) − 1) per cell. The statistic, the synthetic rows in the cell (x = a, y = u) with 4
// real rows, is then beta-binomial(10, α + 4, 9α + 10 − (α + 4)).

describeNoiseAudit({
  mechanism: multinomialDirichlet,
  ...auditTable(),
  budget: { epsilon: 4, releases: 2 },
  statistic: rowsInAuditedCell,
  expected: ({ epsilon, releases }) => {
    const alpha = 10 / Math.expm1(epsilon / releases);
    const own = alpha + AUDIT_CELL_COUNTS[0]!;
    return tabulatePmf(0, 10, (s) => betaBinomialMass(s, 10, own, 9 * alpha + 10 - own));
  },
  broken: {
    'almost no prior (ε = 10⁶)': { epsilon: 1e6, releases: 2 },
    'the total ε on every release (α = n/(e^ε − 1))': { epsilon: 4, releases: 1 },
  },
  runs: 2_000,
});

// The empty cell (x = a, y missing): only the prior puts rows there, beta-binomial(10, α, 8α + 10).
describeNoiseAudit({
  mechanism: multinomialDirichlet,
  ...auditTable(),
  what: 'an empty cell',
  budget: { epsilon: 4, releases: 2 },
  statistic: rowsInEmptyAuditedCell,
  expected: ({ epsilon, releases }) => {
    const alpha = 10 / Math.expm1(epsilon / releases);
    return tabulatePmf(0, 10, (s) => betaBinomialMass(s, 10, alpha, 8 * alpha + 10));
  },
  broken: {
    // ε = 60 rather than 10⁶: the beta-binomial needs α > 0 (here 10/(e^30 − 1) ≈ 10⁻¹²).
    'almost no prior (ε = 60)': { epsilon: 60, releases: 2 },
    'the total ε on every release (α = n/(e^ε − 1))': { epsilon: 4, releases: 1 },
  },
  runs: 2_000,
});

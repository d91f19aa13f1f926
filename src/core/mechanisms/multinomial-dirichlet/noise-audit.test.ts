import { AUDIT_CELL_COUNTS, auditTable } from '../common/testing/audit-tables';
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

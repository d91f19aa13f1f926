import {
  AUDIT_CELL_COUNTS,
  AUDIT_EMPTY_CELL,
  auditTable,
  rowsInAuditedCell,
  rowsInEmptyAuditedCell,
} from '../common/testing/audit-tables';
import { describeNoiseAudit } from '../common/testing/noise-audit';
import { smoothedHistogramDrawPmf, smoothingWeightFor } from '../common/testing/released-count-distributions';
import { smoothedHistogram } from './index';

// Claim: T = M·n draws from q = (1 − λ)·p̂ + λ/K with λ = K/(K + n(e^(ε/T) − 1)), K = 9, n = 10.
// Each release's rows in the cell (x = a, y = u) are Binomial(n, q_cell); releases are independent.
// At ε = 5, M = 2: λ = 0.760 (T = 20); λ for n draws would be 0.581.
describeNoiseAudit({
  mechanism: smoothedHistogram,
  ...auditTable(),
  budget: { epsilon: 5, releases: 2 },
  statistic: rowsInAuditedCell,
  expected: ({ epsilon, releases }) =>
    smoothedHistogramDrawPmf(AUDIT_CELL_COUNTS, 0, smoothingWeightFor(9, 10, releases * 10, epsilon), 10),
  broken: {
    'no smoothing (λ ≈ 0)': { epsilon: 1e6, releases: 2 },
    'λ sized for n draws instead of M·n': { epsilon: 5, releases: 1 },
  },
  runs: 2_000,
});

// The empty cell (x = a, y missing): only the uniform branch reaches it, q = λ/K; without smoothing it
// never gets a row, with λ sized for n draws too rarely.
describeNoiseAudit({
  mechanism: smoothedHistogram,
  ...auditTable(),
  what: 'an empty cell',
  budget: { epsilon: 5, releases: 2 },
  statistic: rowsInEmptyAuditedCell,
  expected: ({ epsilon, releases }) =>
    smoothedHistogramDrawPmf(
      AUDIT_CELL_COUNTS,
      AUDIT_EMPTY_CELL,
      smoothingWeightFor(9, 10, releases * 10, epsilon),
      10,
    ),
  broken: {
    'no smoothing (λ ≈ 0)': { epsilon: 1e6, releases: 2 },
    'λ sized for n draws instead of M·n': { epsilon: 5, releases: 1 },
  },
  runs: 2_000,
});

import {
  AUDIT_CELL_COUNTS,
  AUDIT_EMPTY_CELL,
  auditTable,
  rowsInAuditedCell,
  rowsInEmptyAuditedCell,
} from '../common/testing/audit-tables';
import { describeNoiseAudit } from '../common/testing/noise-audit';
import { noisyHistogramDrawPmf } from '../common/testing/released-count-distributions';
import { laplaceHistogram } from './index';

// Claim: ε/M per release, discrete Laplace of scale Δ/(ε/M) = 2M/ε on each of the 9 cells
// (Δ = 2 under replace-one), negatives to 0, n = 10 rows drawn from the noisy counts. The statistic
// is the number of synthetic rows in the cell (x = a, y = u).
describeNoiseAudit({
  mechanism: laplaceHistogram,
  ...auditTable(),
  budget: { epsilon: 1, releases: 2 },
  statistic: rowsInAuditedCell,
  expected: ({ epsilon, releases }) =>
    noisyHistogramDrawPmf(AUDIT_CELL_COUNTS, 0, (2 * releases) / epsilon, 10),
  broken: {
    'no noise': { epsilon: 1e6, releases: 2 },
    'the total ε on every release (scale 2/ε)': { epsilon: 1, releases: 1 },
    'sensitivity Δ = 1 (scale M/ε)': { epsilon: 2, releases: 2 },
  },
  runs: 2_000,
});

// The empty cell (x = a, y missing): it gets the same noise, so a correct run sometimes draws rows there;
// noise skipped on empty cells would never put a row in it, noise at half the scale too rarely.
describeNoiseAudit({
  mechanism: laplaceHistogram,
  ...auditTable(),
  what: 'an empty cell',
  budget: { epsilon: 1, releases: 2 },
  statistic: rowsInEmptyAuditedCell,
  expected: ({ epsilon, releases }) =>
    noisyHistogramDrawPmf(AUDIT_CELL_COUNTS, AUDIT_EMPTY_CELL, (2 * releases) / epsilon, 10),
  broken: {
    'no noise on empty cells (no noise at all)': { epsilon: 1e6, releases: 2 },
    'noise at half the scale (scale M/ε)': { epsilon: 2, releases: 2 },
  },
  // 6,000 runs: an empty cell rarely gets rows at either scale, so half the scale needs more observations.
  runs: 6_000,
});

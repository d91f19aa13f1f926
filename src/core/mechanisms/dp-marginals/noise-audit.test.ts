import {
  AUDIT_X_MARGINAL,
  AUDIT_Y_MARGINAL_MISSING_FIRST,
  auditTable,
  rowsMissing,
  rowsWithCategory,
} from '../common/testing/audit-tables';
import { describeNoiseAudit } from '../common/testing/noise-audit';
import { noisyHistogramDrawPmf } from '../common/testing/released-count-distributions';
import { dpMarginals } from './index';

// Claim: ε/(M·p) per marginal (p = 2 columns), discrete Laplace of scale 2·M·p/ε on the 3 levels
// of column x (a, b, missing; Δ = 2 under replace-one), negatives to 0, n = 10 values drawn. The
// statistic is the number of synthetic rows with x = a.
const COLUMNS = 2;
describeNoiseAudit({
  mechanism: dpMarginals,
  ...auditTable(),
  budget: { epsilon: 1, releases: 2 },
  statistic: (dataset) => rowsWithCategory(dataset, 'x', 'a'),
  expected: ({ epsilon, releases }) =>
    noisyHistogramDrawPmf(AUDIT_X_MARGINAL, 0, (2 * releases * COLUMNS) / epsilon, 10),
  broken: {
    'no noise': { epsilon: 1e6, releases: 2 },
    'the total ε on every release (scale 2p/ε)': { epsilon: 1, releases: 1 },
    'ε/M on every marginal, not split over the columns (scale 2M/ε)': { epsilon: 2, releases: 2 },
    'sensitivity Δ = 1 (scale M·p/ε)': { epsilon: 2, releases: 2 },
  },
  runs: 2_000,
});

// The empty missing level of column y (no real row lacks y): it gets the same noise as the others.
describeNoiseAudit({
  mechanism: dpMarginals,
  ...auditTable(),
  what: 'an empty level',
  budget: { epsilon: 1, releases: 2 },
  statistic: (dataset) => rowsMissing(dataset, 'y'),
  expected: ({ epsilon, releases }) =>
    noisyHistogramDrawPmf(AUDIT_Y_MARGINAL_MISSING_FIRST, 0, (2 * releases * COLUMNS) / epsilon, 10),
  broken: {
    'no noise on empty levels (no noise at all)': { epsilon: 1e6, releases: 2 },
    'noise at half the scale (scale M·p/ε)': { epsilon: 2, releases: 2 },
  },
  runs: 2_000,
});

import { auditTable } from '../common/testing/audit-tables';
import { describeMeteredRun } from '../common/testing/metered-run';
import { smoothedHistogram } from './index';

// The audit table (n = 10, two columns, 9 cells), ε = 1, M = 2 releases: 1 planned step(s), each charged by 2 draw(s).
describeMeteredRun({
  mechanism: smoothedHistogram,
  ...auditTable(),
  epsilon: '1',
  releases: 2,
  steps: 1,
  drawsPerStep: 2,
});

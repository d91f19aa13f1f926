import { auditTable } from '../common/testing/audit-tables';
import { describeMeteredRun } from '../common/testing/metered-run';
import { dpMarginals } from './index';

// The audit table (n = 10, two columns, 9 cells), ε = 1, M = 2 releases: 4 planned step(s), each charged by 1 draw(s).
describeMeteredRun({
  mechanism: dpMarginals,
  ...auditTable(),
  epsilon: '1',
  releases: 2,
  steps: 4,
  drawsPerStep: 1,
});

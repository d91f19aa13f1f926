import { mixedTable } from '../common/testing/fixtures';
import { describeMeteredRun } from '../common/testing/metered-run';
import { resolveParams } from '../params';
import { dpSequentialRegression } from './index';

// age and income (p = 2) and sex (one logistic regression), M = 2: per release 2 means, 3 covariance
// entries, 1 regression and 3 missing counts: 2 · 9 = 18 steps, each drawn once.
describeMeteredRun({
  mechanism: dpSequentialRegression,
  ...mixedTable(60),
  params: resolveParams(dpSequentialRegression, {}),
  epsilon: '1',
  releases: 2,
  steps: 18,
  drawsPerStep: 1,
});

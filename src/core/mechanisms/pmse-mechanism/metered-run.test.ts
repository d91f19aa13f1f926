import { mixedTable } from '../common/testing/fixtures';
import { describeMeteredRun } from '../common/testing/metered-run';
import { resolveParams } from '../params';
import { pmseMechanism } from './index';

// Two chains give the M = 3 releases (draws taken 5 iterations apart); each release is one step charged
// once, by the chain whose draw it is (stages on one thread, their charges absorbed into the run's meter).
describeMeteredRun({
  mechanism: pmseMechanism,
  ...mixedTable(40),
  params: resolveParams(pmseMechanism, { burnIn: 10, steps: 20, thinning: 5, chains: 2 }),
  epsilon: '1',
  releases: 3,
  steps: 3,
  drawsPerStep: 1,
});

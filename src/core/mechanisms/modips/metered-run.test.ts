import { mixedTable } from '../common/testing/fixtures';
import { describeMeteredRun } from '../common/testing/metered-run';
import { resolveParams } from '../params';
import { modips } from './index';

const { table, schema } = mixedTable(60);
const numericOnly = {
  table: { nRows: 60, columns: table.columns.filter((column) => column.kind === 'numeric') },
  schema: { ...schema, columns: schema.columns.filter((column) => column.type === 'numeric') },
};

// Normal model on age and income, M = 2: per release and column a missing count, x̄ and S², each its
// own step drawn once: 2 · 2 · 3 = 12 steps.
describeMeteredRun({
  mechanism: modips,
  ...numericOnly,
  params: resolveParams(modips, { model: 'normal' }),
  epsilon: '1',
  releases: 2,
  steps: 12,
  drawsPerStep: 1,
});

// General location model, K = 3 cells (F, M, missing), p = 2, M = 2: per release the counts, 2 sum
// vectors, 3 scatter entries and 2 missing counts: 2 · 8 = 16 steps, each drawn once.
describeMeteredRun({
  mechanism: modips,
  table,
  schema,
  params: resolveParams(modips, { model: 'glom' }),
  epsilon: '1',
  releases: 2,
  steps: 16,
  drawsPerStep: 1,
});

// Saturated log-linear model, M = 2: one noisy cross-tabulation per release.
describeMeteredRun({
  mechanism: modips,
  table,
  schema,
  params: resolveParams(modips, { model: 'loglinear' }),
  epsilon: '1',
  releases: 2,
  steps: 2,
  drawsPerStep: 1,
});

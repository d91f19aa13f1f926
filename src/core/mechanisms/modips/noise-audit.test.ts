import { AUDIT_CELL_COUNTS, auditTable } from '../common/testing/audit-tables';
import {
  betaBinomialMass,
  clampedNoisyCountPmf,
  convolvePmfs,
  rowsInAuditedCell,
} from '../common/testing/dirichlet-distributions';
import { numericColumn } from '../common/testing/fixtures';
import { describeNoiseAudit } from '../common/testing/noise-audit';
import { discreteLaplaceMass } from '../common/testing/released-count-distributions';
import { tabulatePmf } from '../../rng/testing/distribution-fit';
import { resolveParams } from '../params';
import { modips } from './index';

// Claim (model loglinear, prior α = 0.5): per release ε/M, every one of the 9 cells gets discrete
// Laplace noise of scale 2M/ε (Δ = 2), clamped to [0, n]; π ~ Dirichlet(α + n*), n = 10 rows from
// Multinomial(π). Given the noisy counts, the rows in the audited cell (4 real rows) are
// beta-binomial(10, α + y, 8α + R) with y its noisy count and R the sum of the other 8; the pmf sums
// over the exact distributions of y and R.
const PRIOR = 0.5;
describeNoiseAudit({
  mechanism: modips,
  ...auditTable(),
  params: resolveParams(modips, { model: 'loglinear' }),
  budget: { epsilon: 4, releases: 2 },
  statistic: rowsInAuditedCell,
  expected: ({ epsilon, releases }) => {
    const scale = (2 * releases) / epsilon;
    const own = clampedNoisyCountPmf(AUDIT_CELL_COUNTS[0]!, scale, 10);
    let rest: Float64Array = Float64Array.of(1);
    for (const count of AUDIT_CELL_COUNTS.slice(1))
      rest = convolvePmfs(rest, clampedNoisyCountPmf(count, scale, 10));
    const mass = new Float64Array(11);
    for (let y = 0; y < own.length; y++) {
      for (let r = 0; r < rest.length; r++) {
        const weight = own[y]! * rest[r]!;
        if (weight < 1e-300) continue;
        for (let s = 0; s <= 10; s++) mass[s] += weight * betaBinomialMass(s, 10, PRIOR + y, 8 * PRIOR + r);
      }
    }
    return tabulatePmf(0, 10, (s) => mass[s]!);
  },
  broken: {
    'no noise': { epsilon: 1e6, releases: 2 },
    'the total ε on every release (scale 2/ε)': { epsilon: 4, releases: 1 },
    'sensitivity Δ = 1 (scale M/ε)': { epsilon: 8, releases: 2 },
  },
  runs: 6_000,
});

// Model glom on the audit table's column x (a, b and the missing level: K = 3 cells) with a numeric
// column z = row index in [0, 10] (y left out: 9 cells would need 12 rows): with p = 1 and
// missingShare 1/4, each of the 3 statistics of a release gets (3/4)·(ε/M)/3 = ε/(4M). The cell sums of
// z, centred at 5, are released on the grid 10/100 with discrete Laplace noise of 102/(ε/(4M)) grid
// steps (L1 sensitivity 10 = 100 steps, plus one rounding step in each of the two cells a replaced row
// touches). Cell a holds rows 0–5: sum (0 + 1 + … + 5) − 6·5 = −15, grid index −150. The audited
// statistic is the released sum's grid index minus −150, one per release (diagnostics hold the DP outputs).
const GLOM_SUM_INDEX = -150;
function glomAuditTable(): ReturnType<typeof auditTable> {
  const { table, schema } = auditTable();
  return {
    table: {
      ...table,
      columns: [
        table.columns[0]!,
        numericColumn(
          'z',
          Array.from({ length: 10 }, (_, i) => i),
        ),
      ],
    },
    schema: {
      ...schema,
      columns: [schema.columns[0]!, { name: 'z', type: 'numeric', bounds: [0, 10], source: 'declared' }],
    },
  };
}
describeNoiseAudit({
  mechanism: modips,
  ...glomAuditTable(),
  what: 'model glom, the noisy cell sum of z in cell x = a',
  params: resolveParams(modips, { model: 'glom', missingShare: 0.25 }),
  budget: { epsilon: 408, releases: 2 },
  observeRun: (release) =>
    (release.diagnostics.sanitizedStatistics as { sums: Record<string, number[]> }[]).map(
      (statistics) => Math.round(statistics.sums.z![0]! / 0.1) - GLOM_SUM_INDEX,
    ),
  expected: ({ epsilon, releases }) =>
    tabulatePmf(-60, 60, (z) => discreteLaplaceMass(z, 102 / (epsilon / (4 * releases)))),
  broken: {
    'no noise': { epsilon: 1e6, releases: 2 },
    'the release’s whole ε on the sums (scale 102·M/ε)': { epsilon: 1632, releases: 2 },
    'sensitivity (c₁ − c₀)/2, as if a row never changed cells (scale 51 steps)': {
      epsilon: 816,
      releases: 2,
    },
  },
  runs: 3_000,
});

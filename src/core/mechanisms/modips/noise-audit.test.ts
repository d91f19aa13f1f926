import { AUDIT_CELL_COUNTS, auditTable } from '../common/testing/audit-tables';
import {
  betaBinomialMass,
  clampedNoisyCountPmf,
  convolvePmfs,
  rowsInAuditedCell,
} from '../common/testing/dirichlet-distributions';
import { describeNoiseAudit } from '../common/testing/noise-audit';
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

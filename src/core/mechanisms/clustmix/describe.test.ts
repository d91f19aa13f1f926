import { describe, expect, it } from 'vitest';
import type { Schema } from '../../table/types';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { clustmix } from './index';

// describe() and the claim's own sentences, word for word, on the mixed table's schema (age, income,
// sex: d = 7 coordinates from p = 3 columns; with label `sex` d = 4 from p = 2). ρ of ε = 1 at
// δ = 10⁻⁴ is 0.0406327… (CKS Corollary 13, as in plan.test.ts); shown values are rounded up to 4 digits.

const { schema } = mixedTable(10);
const describeWith = (params: Record<string, string | number>, context: Record<string, unknown> = {}) =>
  clustmix.describe!(
    resolveParams(clustmix, params),
    runContext(schema, 5000, { epsilon: '1', delta: '0.0001', ...context }),
  );

describe('clustmix describe', () => {
  it('states d, C, K, l_min, ρ with its split and a mean coordinate’s noise SD (defaults, n = 5,000)', () => {
    // C = 0.2·√3 = 0.34641; l_min = 42 and K = ⌊5000/84⌋ = 59 (plan.test.ts, by hand); iterations
    // 0.3ρ/4 = 0.0030475 → 0.003048, final 0.7ρ = 0.028443 → 0.02845; μ = √(2ρ) = 0.28507 → 0.2851;
    // SD = 2C/√(2·ρ_S)/(n/K) with ρ_S = 0.7ρ/2: 0.69282/0.16865/84.746 = 0.04847.
    expect(describeWith({})).toEqual([
      'Encoded rows: d = 7 coordinates from p = 3 columns; residuals clipped to C = 0.3464.',
      'K = 59 clusters, each kept when its noisy size is at least l_min = 42.',
      'Budget ρ = 0.04064 (μ = √(2ρ) = 0.2851, shown for comparison, not a GDP claim): 4 iterations 0.003048 each, final release 0.02845.',
      'A cluster of n/K = 84.75 rows has noise SD 0.04847 on one coordinate of its mean (0–1 scale).',
    ]);
  });

  it('gives the final release the whole ρ without iterations, and warns when n/K < 2·l_min', () => {
    expect(describeWith({ iterations: 0 })[2]).toBe(
      'Budget ρ = 0.04064 (μ = √(2ρ) = 0.2851, shown for comparison, not a GDP claim): final release 0.04064.',
    );
    // K = 400: n/K = 12.5 < 2·42 = 84.
    expect(describeWith({ clusters: 400 }).slice(1)).toEqual([
      'K = 400 clusters, each kept when its noisy size is at least l_min = 42.',
      'Budget ρ = 0.04064 (μ = √(2ρ) = 0.2851, shown for comparison, not a GDP claim): 4 iterations 0.003048 each, final release 0.02845.',
      'A cluster of n/K = 12.5 rows has noise SD 0.3286 on one coordinate of its mean (0–1 scale).',
      'n/K = 12.5 rows per cluster is below 2·l_min = 84: many clusters will fall below l_min and be dropped; choose fewer clusters or a larger sigmaMax.',
    ]);
  });

  it('states the adapt share and warns about δ > 1/n and a Gram matrix drowned in noise', () => {
    // n = 200, δ = 0.01 > 1/200. Adapt ρ_A = 0.2ρ = 0.020686…; the Gram noise SD in feature units is
    // √(B_φ⁴/(ρ_A/2))/B_φ² = 1/√(ρ_A/2) = 9.833…, above n/(2F) = 200/512 = 0.390625.
    expect(
      describeWith({ label: 'sex', alpha: 0.5, adaptShare: 0.2, features: 256 }, { n: 200, delta: '0.01' }),
    ).toEqual([
      'Encoded rows: d = 4 coordinates from p = 2 columns; residuals clipped to C = 0.2828.',
      'K = 3 clusters (1 per class of `sex`, missing included), each kept when its noisy size is at least l_min = 25.',
      'Budget ρ = 0.1035 (μ = √(2ρ) = 0.4548, shown for comparison, not a GDP claim): 4 iterations 0.007756 each, final release 0.05171, adapt 0.02069.',
      'A cluster of n/K = 66.67 rows has noise SD 0.03732 on one coordinate of its mean (0–1 scale).',
      'δ = 0.01 is above 1/n = 0.005: such a δ allows releasing a few rows outright; choose δ ≤ 1/n.',
      'The random-feature Gram matrix gets noise SD 9.834, above n/(2F) = 0.3906, the size of its diagonal: the adapt step would mostly fit noise; give it a larger share or fewer features.',
    ]);
    // ε = 20, F = 4: the Gram noise 1/√(ρ_A/2) is below n/(2F) = 625, and n/K ≥ 2·l_min: no warning.
    expect(
      describeWith({ label: 'sex', alpha: 0.5, adaptShare: 0.2, features: 4 }, { epsilon: '20' }),
    ).toHaveLength(4);
  });

  it('warns only past each boundary: δ = 1/n and n/K = 2·l_min exactly are accepted', () => {
    const warnings = (lines: string[]) => lines.filter((line) => /above 1\/n|below 2·l_min/.test(line));
    // δ = 0.0002 = 1/5,000 exactly (the same double).
    expect(warnings(describeWith({}, { delta: '0.0002' }))).toEqual([]);
    expect(warnings(describeWith({}, { delta: '0.00021' }))).toHaveLength(1);
    // l_min = 42 does not depend on n; n = 4,200 with K = 50 gives n/K = 84 = 2·l_min, K = 51 gives 82.35.
    expect(warnings(describeWith({ clusters: 50 }, { n: 4200 }))).toEqual([]);
    expect(warnings(describeWith({ clusters: 51 }, { n: 4200 }))).toEqual([
      'n/K = 82.35 rows per cluster is below 2·l_min = 84: many clusters will fall below l_min and be dropped; choose fewer clusters or a larger sigmaMax.',
    ]);
  });

  it('says nothing without a mixture (an unreadable ε)', () => {
    expect(describeWith({ label: 'sex' }, { epsilon: 'abc' })).toEqual([]);
  });
});

describe('clustmix claim sentences', () => {
  it('states the clamping, the clipping radius, the composition and the fixed public choices', () => {
    const { assumptions } = clustmix.claim(
      resolveParams(clustmix, {}),
      runContext(schema, 5000, { epsilon: '1', delta: '0.0001' }),
    );
    for (const sentence of [
      'Numeric values outside their declared bounds are clamped into them, and categorical values outside the ' +
        'declared categories count as missing (refused in a column that cannot be missing): fixed rules from the ' +
        'schema, so every row’s encoding, and with it each sensitivity, is bounded whatever the data.',
      // C = 0.2·√3 to 6 significant digits.
      'Each row’s residual to its cluster’s public centroid is clipped to norm C = 0.346410 and truncated toward 0 ' +
        'on a grid of C/4096: this biases the cluster means and spreads toward the centroids for far rows and never ' +
        'weakens the guarantee.',
      'The steps compose in zero-concentrated DP (their ρ add up; Bun & Steinke 2016, Lemma 1.7), and the total ρ ' +
        'is converted to (ε, δ) by Canonne, Kamath & Steinke 2020, Corollary 13. μ = √(2ρ) is shown for comparison ' +
        'with Gaussian DP only: the discrete Gaussian is not exactly μ-GDP, so μ is no GDP claim.',
      'Centroids start uniformly in the encoding’s box, the number of iterations and clusters are fixed in advance, ' +
        'and the synthetic tables are drawn from the one released mixture (post-processing).',
    ])
      expect(assumptions).toContain(sentence);
  });
});

describe('clustmix complete columns in describe and the claim', () => {
  // age and sex declared complete, income's completeness read from the data. A numeric column has one
  // coordinate, F/M two, and each column that can be missing one more.
  const columns: Schema['columns'] = [
    {
      name: 'age',
      type: 'numeric',
      bounds: [17, 90],
      integer: true,
      canBeMissing: false,
      source: 'declared',
    },
    {
      name: 'income',
      type: 'numeric',
      bounds: [0, 1000],
      canBeMissing: true,
      source: 'declared',
      sources: { canBeMissing: 'inferred' },
    },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], canBeMissing: false, source: 'declared' },
  ];
  const withColumns = (cols: Schema['columns']): Schema => ({ version: 1, missing: [''], columns: cols });
  const firstLine = (s: Schema) =>
    clustmix.describe!(resolveParams(clustmix, {}), runContext(s, 3000, { delta: '1e-6' }))[0];

  it('counts the columns without a missing coordinate: none, one, two, all', () => {
    const plain = columns.map(({ canBeMissing: _c, sources: _s, ...column }) => column);
    expect(firstLine(withColumns(plain))).toBe(
      'Encoded rows: d = 7 coordinates from p = 3 columns; residuals clipped to C = 0.3464.',
    );
    expect(firstLine(withColumns([columns[0]!, plain[1]!, plain[2]!]))).toBe(
      'Encoded rows: d = 6 coordinates from p = 3 columns (1 without a missing-value coordinate: the schema says it cannot be missing); residuals clipped to C = 0.3464.',
    );
    expect(firstLine(withColumns(columns))).toBe(
      'Encoded rows: d = 5 coordinates from p = 3 columns (2 without a missing-value coordinate: the schema says they cannot be missing); residuals clipped to C = 0.3464.',
    );
    expect(firstLine(withColumns([columns[0]!, { ...columns[1]!, canBeMissing: false }, columns[2]!]))).toBe(
      'Encoded rows: d = 4 coordinates from p = 3 columns (none has a missing-value coordinate: the schema says none can be missing); residuals clipped to C = 0.3464.',
    );
  });

  it('names what a complete column lacks and what an inferred one keeps', () => {
    const { assumptions } = clustmix.claim(
      resolveParams(clustmix, {}),
      runContext(withColumns(columns), 3000, { delta: '1e-6' }),
    );
    expect(assumptions.slice(-2)).toEqual([
      'The schema says `age`, `sex` cannot be missing: they have no missing-value coordinate in the encoding (as ' +
        'the label: no missing class), a run whose data has a missing value there is refused, and no synthetic value ' +
        'there is missing.',
      'Whether a column can be missing was read from the data for some columns (named above): such a column has a ' +
        'missing-value coordinate in the encoding (as the label: a missing class) only when the data has a missing ' +
        'value there.',
    ]);
  });
});

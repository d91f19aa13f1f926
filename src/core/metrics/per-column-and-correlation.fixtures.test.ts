// Per-column statistics and association matrices against scipy/numpy/pandas (values written by
// tests/reference/metrics/make_fixture_stats.py; definitions in its doc string).
import { describe, expect, it } from 'vitest';
import {
  METRIC_FIXTURE_PAIRS,
  readFixtureJson,
  readFixtureTables,
} from '../../../tests/reference/metrics/fixture-tables';
import { compareAssociations } from './correlation';
import { compareColumns } from './per-column';
import { expectCloseOnUnitScale as expectClose } from '../testing/expect-close';

interface StatsExpectation {
  columns: string[];
  per_column: Record<
    string,
    {
      missing_rate_real: number;
      missing_rate_synth: number;
      ks?: number | null;
      wasserstein?: number | null;
      mean_real?: number | null;
      mean_synth?: number | null;
      sd_real?: number | null;
      sd_synth?: number | null;
    }
  >;
  correlation_real: (number | null)[][];
  correlation_synth: (number | null)[][];
  tvd: Record<string, { per_subset: { cols: string[]; tvd: number }[] }>;
}

describe.each(METRIC_FIXTURE_PAIRS)(
  'per-column and correlation on $synth',
  ({ real: realFile, synth: synthFile, expected }) => {
    const { real, synths } = readFixtureTables(realFile, synthFile);
    const want = readFixtureJson<StatsExpectation>(expected);

    it('matches scipy KS, Wasserstein, moments and missing rates', () => {
      const columns = compareColumns(real, synths[0]!);
      expect(columns.map((c) => c.name)).toEqual(want.columns);
      const oneWay = new Map(want.tvd['1']!.per_subset.map((s) => [s.cols[0]!, s.tvd]));
      for (const column of columns) {
        const w = want.per_column[column.name]!;
        // Shares of counts: one division each, identical to the Python value.
        expect(column.missingRate).toEqual({ real: w.missing_rate_real, synth: w.missing_rate_synth });
        // Same cells and formula as tvd_ref.py: bit-identical.
        expect(column.tvd).toBe(oneWay.get(column.name));
        const marginalTotal = column.marginal.reduce((s, bar) => s + bar.real, 0);
        expect(marginalTotal).toBeCloseTo(1, 12);
        if (column.kind !== 'numeric') continue;
        // KS: differences of count fractions formed as scipy forms them; 2 ulp allowance.
        expectClose(column.ks, w.ks, 4 * Number.EPSILON, `${column.name} ks`);
        // Sums in a different order (numpy uses pairwise summation): 1e-12 relative.
        expectClose(column.wasserstein, w.wasserstein, 1e-12, `${column.name} wasserstein`);
        expectClose(column.mean.real, w.mean_real, 1e-12, `${column.name} mean real`);
        expectClose(column.mean.synth, w.mean_synth, 1e-12, `${column.name} mean synth`);
        expectClose(column.sd.real, w.sd_real, 1e-12, `${column.name} sd real`);
        expectClose(column.sd.synth, w.sd_synth, 1e-12, `${column.name} sd synth`);
      }
    });

    it('matches Pearson, Cramér V and η matrices', () => {
      const comparison = compareAssociations(real, synths[0]!);
      expect(comparison.columns).toEqual(want.columns);
      // Different summation order and normalisation than scipy: 1e-12 absolute on values in [-1, 1].
      comparison.real.forEach((row, i) =>
        row.forEach((v, j) =>
          expectClose(
            v,
            want.correlation_real[i]![j],
            1e-12,
            `real [${want.columns[i]}, ${want.columns[j]}]`,
          ),
        ),
      );
      comparison.synth.forEach((row, i) =>
        row.forEach((v, j) =>
          expectClose(
            v,
            want.correlation_synth[i]![j],
            1e-12,
            `synth [${want.columns[i]}, ${want.columns[j]}]`,
          ),
        ),
      );
    });
  },
);

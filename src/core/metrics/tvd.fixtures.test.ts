// TVD against the normative reference script: every fixture pair, k = 1, 2, 3, exact equality
// of every subset's value and of the mean (values in tests/fixtures/metrics/*.expected.json were
// printed by reference/tvd_ref.py; the command is recorded in each file).
import { describe, expect, it } from 'vitest';
import {
  METRIC_FIXTURE_PAIRS,
  readFixtureJson,
  readFixtureTables,
} from '../../../tests/reference/metrics/fixture-tables';
import { encodeMarginalCells } from './marginal-cells';
import { tvdKWay, tvdKWayFromEncoded } from './tvd';

interface TvdExpectation {
  tvd: Record<string, { command: string; mean_tvd: number; per_subset: { cols: string[]; tvd: number }[] }>;
}

describe.each(METRIC_FIXTURE_PAIRS)('TVD on $synth', ({ real: realFile, synth: synthFile, expected }) => {
  const { real, synths } = readFixtureTables(realFile, synthFile);
  const synth = synths[0]!;
  const reference = readFixtureJson<TvdExpectation>(expected).tvd;

  it.each([1, 2, 3])('k = %i equals tvd_ref.py bit for bit', (k) => {
    const result = tvdKWay(real, synth, k);
    const want = reference[String(k)]!;
    expect(result.subsets.map((s) => s.columns)).toEqual(want.per_subset.map((s) => s.cols));
    expect(result.subsets.map((s) => s.tvd)).toEqual(want.per_subset.map((s) => s.tvd));
    expect(result.mean).toBe(want.mean_tvd);
  });

  it('gives the same values from one shared encoding', () => {
    const encoded = encodeMarginalCells(real, synth);
    for (const k of [1, 2, 3]) {
      expect(tvdKWayFromEncoded(encoded, k).mean).toBe(reference[String(k)]!.mean_tvd);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { readFixtureTables } from '../../../tests/reference/metrics/fixture-tables';
import { SYNTHPOP_CART_DEFAULTS } from '../models/cart/cart-types';
import { SeededRng } from '../rng/seeded-rng';
import { evaluateUtility } from './evaluate';
import { computePmse } from './pmse';
import { pmseRows, pmseStandardError } from './pmse-subsample';

describe('pMSE on uniform subsamples of large tables', () => {
  const { real, synths } = readFixtureTables('mixed_real.csv', 'mixed_synth.1.csv');
  const synth = synths[0]!;

  it('keeps tables within the limit whole and draws distinct rows of larger ones', () => {
    expect(pmseRows(real, synth, 1000, new SeededRng(1)).subsample).toBeNull();
    const rows = pmseRows(real, synth, 120, new SeededRng(1));
    expect(rows.subsample).toEqual({ realRows: 120, synthRows: 120 });
    expect(rows.real.nRows).toBe(120);
    expect(rows.real.columns.map((c) => c.name)).toEqual(real.columns.map((c) => c.name));
  });

  it('gives the standard error of the mean of the squared deviations', () => {
    // Terms (p − 0.5)²: 0.09, 0.01, 0.01, 0.09; mean 0.05, sample variance 4·0.04²/3, SE = √(var/4).
    const se = pmseStandardError({ real: Float64Array.of(0.2, 0.6), synth: Float64Array.of(0.4, 0.8) });
    expect(se).toBeCloseTo(Math.sqrt((4 * 0.04 ** 2) / 3 / 4), 12);
    expect(pmseStandardError({ real: Float64Array.of(0.5, 0.5), synth: Float64Array.of(0.5, 0.5) })).toBe(0);
  });

  it('reports the subsample sizes and a standard error in the evaluation, and the same pMSE as on those rows', () => {
    const options = { pmse: { permutations: 5, maxRowsPerSide: 150 }, distinguishingGame: false as const };
    const report = evaluateUtility(real, [synth], { ...options, disclosure: false }, new SeededRng(3));
    const first = report.pmse.perRelease[0]!;
    expect(first.subsample?.realRows).toBe(150);
    expect(first.subsample?.synthRows).toBe(150);
    expect(first.subsample!.standardError).toBeGreaterThan(0);
    // The same generator draws the same subsamples, so the value is the pMSE of those rows.
    const rng = new SeededRng(3);
    const rows = pmseRows(real, synth, 150, rng);
    expect(first.value).toBeCloseTo(
      computePmse(
        rows.real,
        rows.synth,
        { model: 'cart', cart: SYNTHPOP_CART_DEFAULTS, permutations: 5, maxOrder: 1 },
        rng,
      ).value,
      12,
    );
    // TVD reads every row: the report counts all of them.
    expect(report.rows).toEqual({ real: real.nRows, releases: [synth.nRows] });
  });
});

import { describe, expect, it } from 'vitest';
import { readFixtureTables } from '../../../tests/reference/metrics/fixture-tables';
import { SeededRng } from '../rng/seeded-rng';
import { EVALUATION_NOTE, evaluateUtility } from './evaluate';
import { splitHoldout } from './holdout-split';
import { computePmse } from './pmse';
import { testTable } from './testing/test-table';
import { FULL_TABLE_TVD_MAX_CELLS, fullTableTvd, tvdKWay } from './tvd';

describe('evaluateUtility on the mixed fixture (3 releases)', () => {
  const { real: fullReal, synths } = readFixtureTables(
    'mixed_real.csv',
    'mixed_synth.1.csv',
    'mixed_synth.2.csv',
    'mixed_synth.3.csv',
  );
  const { train: real, holdout } = splitHoldout(fullReal, 0.25, new SeededRng(1));
  const progress: [number, string][] = [];
  const report = evaluateUtility(
    real,
    synths,
    {
      regression: { target: 'income', predictors: ['age', 'hours', 'sex', 'education', 'region'] },
      ml: { holdout, target: 'high_income' },
      pmse: { permutations: 10 },
    },
    new SeededRng(2),
    (fraction, stage) => progress.push([fraction, stage]),
  );

  it('is plain JSON: a round trip through JSON.stringify changes nothing', () => {
    const roundTrip = JSON.parse(JSON.stringify(report)) as unknown;
    expect(roundTrip).toEqual(report);
    expect(report.note).toBe(EVALUATION_NOTE);
    expect(report.releases).toBe(3);
    expect(report.rows).toEqual({ real: 300, releases: [350, 350, 350] });
  });

  it('carries the same TVDs and pMSE as the single metrics', () => {
    for (const k of [1, 2, 3]) {
      const byK = report.tvd.byK[String(k)]!;
      synths.forEach((synth, j) => expect(byK.perRelease![j]!.mean).toBe(tvdKWay(real, synth, k).mean));
      expect(byK.mean).toBeCloseTo(byK.perRelease!.reduce((s, r) => s + r.mean, 0) / 3, 15);
    }
    expect(report.tvd.kMarginalScore!.perRelease[0]).toBe(
      1000 * (1 - report.tvd.byK['2']!.perRelease![0]!.mean),
    );
    // The CART pMSE value does not depend on the rng (only its permutation null does).
    const single = computePmse(real, synths[1]!, { model: 'cart', permutations: 0 }, new SeededRng(9));
    expect(report.pmse.perRelease[1]!.value).toBe(single.value);
    expect(report.pmse.perRelease[0]!.propensities.real.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
  });

  it('assembles every section per release and as a mean', () => {
    expect(report.perColumn.perRelease).toHaveLength(3);
    expect(report.perColumn.mean.map((c) => c.name)).toEqual(real.columns.map((c) => c.name));
    expect(report.correlation.meanDifference).toHaveLength(real.columns.length);
    expect(report.regression!.releases).toHaveLength(3);
    expect(report.regression!.combined).not.toBeNull();
    expect(report.mlEfficacy!.models.map((m) => m.model)).toEqual(['cart', 'forest', 'logistic']);
    expect(report.mlEfficacy!.task.holdoutRowsScored).toBe(100);
    expect(report.distinguishingGame!.perRelease).toHaveLength(3);
    expect(report.disclosure!.perRelease[0]!.differentiallyPrivate).toBe(false);
  });

  it('reports progress in order, ending at 1', () => {
    const fractions = progress.map(([fraction]) => fraction);
    expect(fractions[0]).toBe(0);
    expect(fractions.at(-1)).toBe(1);
    for (let i = 1; i < fractions.length; i++)
      expect(fractions[i]!).toBeGreaterThanOrEqual(fractions[i - 1]!);
  });

  it('stops with an AbortError when the signal is set', () => {
    const signal = { aborted: false };
    expect(() =>
      evaluateUtility(real, synths, { signal }, new SeededRng(3), (_fraction, stage) => {
        if (stage.startsWith('Correlations')) signal.aborted = true;
      }),
    ).toThrow(expect.objectContaining({ name: 'AbortError' }));
  });

  it('skips ML efficacy without a holdout and a k larger than the column count', () => {
    const small = evaluateUtility(
      real,
      synths.slice(0, 1),
      { tvdK: [2, 11], distinguishingGame: false, disclosure: false, pmse: { permutations: 0 } },
      new SeededRng(4),
    );
    expect(small.mlEfficacy).toBeNull();
    expect(small.tvd.byK['11']!.skipped).toMatch(/between 1 and 10/);
    expect(small.regression).toBeNull();
    expect(small.distinguishingGame).toBeNull();
    expect(small.pmse.mean.ratio).toBeNull();
  });
});

describe('evaluateUtility with the pMSE null computed elsewhere', () => {
  const { real, synths } = readFixtureTables('mixed_real.csv', 'mixed_synth.1.csv', 'mixed_synth.2.csv');

  it('asks for each null mean after every other metric, and the other metrics are unchanged', () => {
    const stages: string[] = [];
    const asked: { release: number; stagesBefore: number }[] = [];
    const nullMeans = (release: number) => {
      asked.push({ release, stagesBefore: stages.length });
      return 0.01 * (release + 1);
    };
    const elsewhere = evaluateUtility(real, synths, { pmse: { nullMeans } }, new SeededRng(5), (_f, stage) =>
      stages.push(stage),
    );
    // The pMSE step comes last: the game and the disclosure checks were reported before the first ask.
    expect(asked.map((a) => a.release)).toEqual([0, 1]);
    const before = stages.slice(0, asked[0]!.stagesBefore);
    expect(before.some((stage) => stage.startsWith('Distinguishing game'))).toBe(true);
    expect(before.some((stage) => stage.startsWith('Disclosure checks'))).toBe(true);
    expect(
      stages.slice(asked[0]!.stagesBefore).every((s) => s.startsWith('Propensity') || s === 'Done'),
    ).toBe(true);
    // In the usual order, with a pMSE step that draws nothing (no refits): the metrics that draw from
    // the generator (the game's forests, the disclosure checks' samples) get the same draws.
    const inOrder = evaluateUtility(real, synths, { pmse: { permutations: 0 } }, new SeededRng(5));
    expect(elsewhere.distinguishingGame).toEqual(inOrder.distinguishingGame);
    expect(elsewhere.disclosure).toEqual(inOrder.disclosure);
    expect(elsewhere.pmse.perRelease.map((r) => r.value)).toEqual(
      inOrder.pmse.perRelease.map((r) => r.value),
    );
    expect(elsewhere.pmse.perRelease.map((r) => r.nullMean)).toEqual([0.01, 0.02]);
    expect(inOrder.pmse.perRelease[0]!.nullMean).toBeNull();
  });
});

describe('full-table TVD cutoff', () => {
  // m categorical columns, each with all 8 levels observed: the joint table has 8^m observed cells.
  const table = (m: number, shift: number) =>
    testTable(
      Object.fromEntries(
        Array.from({ length: m }, (_, j) => [
          `c${j}`,
          Array.from({ length: 16 }, (_, i) => `v${(i + shift * j) % 8}`),
        ]),
      ),
    );
  const options = {
    tvdK: [1],
    distinguishingGame: false as const,
    disclosure: false,
    pmse: { permutations: 0 },
  };

  it('compares up to 10^6 cells and returns null above, with the reason in the report', () => {
    expect(8 ** 6).toBeLessThanOrEqual(FULL_TABLE_TVD_MAX_CELLS);
    expect(8 ** 7).toBeGreaterThan(FULL_TABLE_TVD_MAX_CELLS);
    expect(fullTableTvd(table(6, 0), table(6, 1))).toBeGreaterThan(0);
    expect(fullTableTvd(table(7, 0), table(7, 1))).toBeNull();

    const small = evaluateUtility(table(6, 0), [table(6, 1)], options, new SeededRng(1));
    expect(small.tvd.fullTable.mean).toBeGreaterThan(0);
    expect(small.tvd.fullTable.skipped).toBeUndefined();
    const large = evaluateUtility(table(7, 0), [table(7, 1), table(7, 2)], options, new SeededRng(1));
    expect(large.tvd.fullTable).toEqual({
      perRelease: [null, null],
      mean: null,
      skipped: expect.stringMatching(/all 7 columns has more than 1,000,000 cells in every release/),
    });
  });
});

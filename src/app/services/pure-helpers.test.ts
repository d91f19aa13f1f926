import { describe, expect, it } from 'vitest';
import { fnv1aHex, stableJson, tableKeyOf } from './cache-keys';
import {
  epsilonAtSliderPosition,
  logGrid,
  roundToSignificantDecimal,
  sliderPositionOfEpsilon,
} from './epsilon-scale';
import {
  epsilonForFileName,
  evaluationReportFileName,
  releaseCsvFileName,
  releaseReportFileName,
  schemaFileName,
} from './file-names';
import { summarizeSweep } from './sweep-summary';
import { tuningNotes } from './tuning-notes';
import { DEFAULT_PREFERENCES, migratePreferences, sanitizePreferences } from '../state/prefs-migration';

describe('file names', () => {
  it('carry the mechanism, ε and the release index', () => {
    expect(releaseCsvFileName('laplace-histogram', '1', 1, 3)).toBe(
      'synth_laplace-histogram_eps1_1-of-3.csv',
    );
    expect(releaseCsvFileName('dp-marginals', '0.5', 2, 2)).toBe('synth_dp-marginals_eps0_5_2-of-2.csv');
    expect(releaseReportFileName('laplace-histogram', '1e-3')).toBe(
      'release-report_laplace-histogram_eps1e-3.json',
    );
    expect(evaluationReportFileName('x', '2')).toBe('evaluation-for-data-holder-not-for-release_x_eps2.json');
  });

  it('say "not-for-release" for a seeded run, and only then', () => {
    expect(releaseCsvFileName('laplace-histogram', '1', 1, 3, true)).toBe(
      'synth_laplace-histogram_eps1_1-of-3.not-for-release.csv',
    );
    expect(releaseReportFileName('laplace-histogram', '1', true)).toBe(
      'release-report_laplace-histogram_eps1.not-for-release.json',
    );
    expect(releaseCsvFileName('laplace-histogram', '1', 1, 3, false)).not.toContain('not-for-release');
  });

  it('drop characters that do not belong in a file name', () => {
    expect(epsilonForFileName(' 1/3 ')).toBe('13');
    expect(schemaFileName('penguins.csv')).toBe('penguins.schema.json');
    expect(schemaFileName('.csv')).toBe('data.schema.json');
  });
});

describe('ε slider scale', () => {
  it('maps ε = 1 to two thirds of the 0.01–10 log track and back', () => {
    // log10(1) − log10(0.01) = 2 of a span of 3 decades, times 300 steps.
    expect(sliderPositionOfEpsilon(1)).toBe(200);
    expect(epsilonAtSliderPosition(200)).toBe('1');
    expect(sliderPositionOfEpsilon(0.01)).toBe(0);
    expect(sliderPositionOfEpsilon(10)).toBe(300);
  });

  it('clamps values off the track and rounds to two significant digits', () => {
    expect(sliderPositionOfEpsilon(100)).toBe(300);
    expect(sliderPositionOfEpsilon(0)).toBe(0);
    expect(sliderPositionOfEpsilon(Number.NaN)).toBe(0);
    // 10^(−2 + 150/300 · 3) = 10^−0.5 = 0.316…
    expect(epsilonAtSliderPosition(150)).toBe('0.32');
    expect(roundToSignificantDecimal(0.012345, 2)).toBe('0.012');
    expect(roundToSignificantDecimal(1234.5, 2)).toBe('1200');
  });

  it('builds the default sweep grid: 8 values evenly spaced in log ε from 0.1 to 10', () => {
    // 10^(−1 + 2i/7), i = 0 … 7, rounded to two significant digits.
    expect(logGrid(0.1, 10, 8)).toEqual([0.1, 0.19, 0.37, 0.72, 1.4, 2.7, 5.2, 10]);
    expect(logGrid(0.1, 10, 3)).toEqual([0.1, 1, 10]);
    expect(logGrid(2, 2, 1)).toEqual([2]);
  });
});

describe('sweep summary', () => {
  it('averages repeats per ε, keeps their range and sorts by ε', () => {
    const point = (epsilon: number, repeat: number, tvd: number) => ({
      epsilon,
      repeat,
      tvdOneWay: tvd / 2,
      tvdTwoWay: tvd,
      pmse: tvd / 10,
      runMillis: 1,
    });
    const summary = summarizeSweep(
      [point(1, 0, 0.2), point(0.1, 0, 0.6), point(1, 1, 0.4), point(0.1, 1, Number.NaN)],
      'two-way',
    );
    expect(summary).toEqual([
      { epsilon: 0.1, mean: 0.6, min: 0.6, max: 0.6, repeats: 1 },
      { epsilon: 1, mean: 0.30000000000000004, min: 0.2, max: 0.4, repeats: 2 },
    ]);
    expect(summarizeSweep([point(1, 0, 0.2)], 'one-way')[0]!.mean).toBe(0.1);
    expect(summarizeSweep([point(1, 0, 0.2), point(1, 1, 0.4)], 'pmse')[0]).toMatchObject({
      min: 0.02,
      max: 0.04,
    });
  });
});

describe('cache keys', () => {
  it('hash with FNV-1a and ignore key order', () => {
    // FNV-1a 32-bit reference values: "" → 811c9dc5, "a" → e40c292c (Fowler–Noll–Vo test vectors).
    expect(fnv1aHex('')).toBe('811c9dc5');
    expect(fnv1aHex('a')).toBe('e40c292c');
    expect(stableJson({ b: 1, a: [2, { d: 3, c: undefined }] })).toBe('{"a":[2,{"d":3}],"b":1}');
    expect(tableKeyOf('data1', { x: 1, y: 2 })).toBe(tableKeyOf('data1', { y: 2, x: 1 }));
    expect(tableKeyOf('data1', { x: 1 })).not.toBe(tableKeyOf('data2', { x: 1 }));
    // Different schemas never share a key (the key holds the schema, not a hash of it).
    expect(tableKeyOf('data1', { x: 1 })).not.toBe(tableKeyOf('data1', { x: 2 }));
    expect(tableKeyOf('data1', { columns: ['a'] })).toBe('data1:{"columns":["a"]}');
  });
});

describe('persisted preferences', () => {
  it('keep only whitelisted keys of the right type', () => {
    expect(
      sanitizePreferences({
        sweepRepeats: 3,
        sweepMetric: 'one-way',
        data: 'secret rows',
        sweepPointCount: '9',
      }),
    ).toEqual({ sweepRepeats: 3, sweepMetric: 'one-way' });
    expect(sanitizePreferences(null)).toEqual({});
    expect(sanitizePreferences({ sweepMetric: 'pmse' })).toEqual({ sweepMetric: 'pmse' });
    expect(sanitizePreferences({ sweepMetric: 'three-way' })).toEqual({});
    expect(sanitizePreferences({ lastMechanismId: 'dp-marginals' })).toEqual({
      lastMechanismId: 'dp-marginals',
    });
  });

  it('migrate any older stored shape onto the defaults', () => {
    expect(migratePreferences({ sweepRepeats: 7, schema: { columns: [] } }, 0)).toEqual({
      ...DEFAULT_PREFERENCES,
      sweepRepeats: 7,
    });
    expect(migratePreferences('garbage', 0)).toEqual(DEFAULT_PREFERENCES);
    expect(migratePreferences({ sweepRepeats: 7 }, 99)).toEqual(DEFAULT_PREFERENCES);
  });
});

describe('tuning notes', () => {
  const none = { sweep: false, compare: false, epsilonFromSweep: null };

  it('are empty when nothing computed on the real data was shown', () => {
    expect(tuningNotes(none, '1')).toEqual([]);
  });

  it('name an ε picked from a sweep point, and fall back to the general sentence once ε is retyped', () => {
    const picked = { sweep: true, compare: false, epsilonFromSweep: '0.37' };
    expect(tuningNotes(picked, ' 0.37 ')).toEqual([
      expect.stringMatching(/^ε = 0\.37 was picked from an ε sweep/),
    ]);
    expect(tuningNotes(picked, '2')).toEqual([expect.stringMatching(/^An ε sweep was run on the real data/)]);
  });

  it('mention a comparison of mechanisms on the real data', () => {
    const notes = tuningNotes({ ...none, compare: true }, '1');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/Mechanisms were compared on the real data .* not differentially private/);
  });
});

import { describe, expect, it } from 'vitest';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { smoothedHistogram } from '.';

// describe, the claim's own sentence and the progress reports of the smoothed histogram, on the mixed
// table binned in 5 (K = 6 · 6 · 3 = 108 cells).

const fiveBins = resolveParams(smoothedHistogram, { bins: 5 });
const { schema } = mixedTable(10);
const domainLines = [
  'Histogram of 108 cells: age 6, income 6, sex 3 (each count includes a missing-value cell).',
  'Bins of consecutive whole numbers, synthetic values drawn uniformly among the integers of their bin: age (74 integers in 5 bins).',
];

describe('smoothed-histogram describe', () => {
  it('states λ rounded down, with the warning when it is above 1/2', () => {
    // n = T = 1,000, ε = 0.5: λ = 108/(108 + 1000·(e^0.0005 − 1)) = 0.99539…, shown 0.995.
    expect(smoothedHistogram.describe!(fiveBins, runContext(schema, 1000, { epsilon: '0.5' }))).toEqual([
      ...domainLines,
      'Each row comes from the uniform distribution over all cells with probability λ = 0.995: most rows carry ' +
        'no information from the data; fewer cells or a larger ε lower λ.',
    ]);
    // ε = 1,000: λ = 108/(108 + 1000·(e − 1)) = 0.059136…, shown 0.0591, no warning.
    expect(smoothedHistogram.describe!(fiveBins, runContext(schema, 1000, { epsilon: '1000' }))).toEqual([
      ...domainLines,
      'Each row comes from the uniform distribution over all cells with probability λ = 0.0591.',
    ]);
  });

  it('leaves λ out when ε cannot be read, and says nothing for a schema without columns', () => {
    expect(smoothedHistogram.describe!(fiveBins, runContext(schema, 1000, { epsilon: 'abc' }))).toEqual(
      domainLines,
    );
    const empty = { version: 1 as const, missing: [], columns: [] };
    expect(smoothedHistogram.describe!(fiveBins, runContext(empty, 1000))).toEqual([]);
  });

  it('states that the privacy comes from the M·n draws', () => {
    expect(smoothedHistogram.claim(fiveBins, runContext(schema, 1000)).assumptions).toContain(
      'The privacy comes from sampling: the M releases of n rows are M·n draws from one smoothed histogram, ' +
        'and λ is set for that total; releasing more rows from it would spend more ε.',
    );
  });
});

describe('smoothed-histogram progress', () => {
  it('reports each release at (r + 0.8·f)/M, f the fraction of its rows drawn, then done', async () => {
    const small = mixedTable(60);
    const reports: [number, string][] = [];
    const progress = (fraction: number, what?: string) => reports.push([fraction, what!]);
    await smoothedHistogram.run(
      small.table,
      small.schema,
      fiveBins,
      runContext(small.schema, 60, { releases: 2, progress }),
    );
    // 60 rows: the draws report once per release, at f = 0.
    expect(reports).toEqual([
      [0, 'release 1 of 2: drawing rows'],
      [0.5, 'release 2 of 2: drawing rows'],
      [1, 'done'],
    ]);
  });

  it('reports a release with more rows than one check interval again after the first 65,536 draws', async () => {
    // 65,537 rows: a second report after the first 65,536 draws, f = 65,536/65,537.
    const large = mixedTable(65_537);
    const reports: [number, string][] = [];
    const progress = (fraction: number, what?: string) => reports.push([fraction, what!]);
    await smoothedHistogram.run(
      large.table,
      large.schema,
      fiveBins,
      runContext(large.schema, 65_537, { progress }),
    );
    expect(reports).toEqual([
      [0, 'release 1 of 1: drawing rows'],
      [(0.8 * 65_536) / 65_537, 'release 1 of 1: drawing rows'],
      [1, 'done'],
    ]);
  });
});

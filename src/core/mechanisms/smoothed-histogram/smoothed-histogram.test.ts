import { roundDown } from '../../privacy/round-up';
import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../privacy/budget';
import { SeededRng } from '../../rng/seeded-rng';
import type { NumericColumn } from '../../table/types';
import { resolveParams } from '../params';
import {
  mixedTable,
  missingRate,
  RecordingAccountant,
  recordingRng,
  runContext,
} from '../common/testing/fixtures';
import {
  epsilonOfSmoothedDraws,
  largestSmoothingOddsForEpsilon,
  runSmoothedHistogram,
  smoothedHistogram,
  smoothingWeight,
} from '.';

const fiveBins = resolveParams(smoothedHistogram, { bins: 5 });

describe('smoothing weight λ', () => {
  it('matches the worked example: K = 10, n = T = 100, ε = 1', () => {
    // ρ_max = n·(e^(ε/T) − 1)/K = 100·(e^0.01 − 1)/10 = 0.1005016708…, λ = 1/(1 + ρ_max) = 0.9086764941…
    expect(largestSmoothingOddsForEpsilon(10, 100, 100, 1)).toBeCloseTo(0.1005016708, 9);
    const lambda = smoothingWeight(10, 100, 100, 1);
    expect(lambda).toBeGreaterThanOrEqual(1 / (1 + 0.10050167084168057));
    expect(lambda - 0.9086764940894498).toBeLessThan(1e-12);
  });

  it('equals DIPS eq. (7) when one dataset of n rows is drawn: λ = K/(K + n(e^(ε/n) − 1))', () => {
    const [K, n, epsilon] = [250, 1000, 2];
    expect(smoothingWeight(K, n, n, epsilon)).toBeCloseTo(K / (K + n * Math.expm1(epsilon / n)), 11);
  });

  it('never spends more than ε, even when λ is within 10⁻¹⁰ of 1', () => {
    for (const [K, n, T, epsilon] of [
      [10, 100, 100, 1],
      [108, 20_000, 60_000, 1000],
      [1_000_000, 1000, 5000, 0.01],
      [20_000_000, 1_000_000, 1_000_000, 0.1],
      [4, 3, 3, 50],
    ] as const) {
      const spent = epsilonOfSmoothedDraws(K, n, T, smoothingWeight(K, n, T, epsilon));
      expect(spent).toBeLessThanOrEqual(epsilon);
      expect(spent).toBeGreaterThan(epsilon * (1 - 1e-6));
    }
  });

  it('makes M releases of n rows cost what one release of n rows costs at ε/M', () => {
    expect(smoothingWeight(300, 500, 3 * 500, 1.5)).toBeCloseTo(smoothingWeight(300, 500, 500, 0.5), 12);
  });
});

describe('smoothed-histogram claim and check', () => {
  it('spends the whole ε in one sampling step sized for M·n rows', async () => {
    const { table, schema } = mixedTable(1000);
    const ctx = runContext(schema, 1000, { releases: 2, epsilon: '0.5' });
    const claim = smoothedHistogram.claim(fiveBins, ctx);
    // K = 6 · 6 · 3 = 108; T = 2000; λ = 108/(108 + 1000·(e^(0.5/2000) − 1)) = 0.998…
    const lambda = smoothingWeight(108, 1000, 2000, 0.5);
    expect(claim).toMatchObject({
      notion: 'pure-dp',
      epsilon: 0.5,
      delta: 0,
      neighbouring: 'replace-one',
      bound: 'proven',
    });
    expect(claim.steps).toEqual([
      {
        // λ is shown rounded down (privacy rule 7: a smaller λ claims less smoothing than was done).
        what: `2,000 rows (2 × 1,000) drawn from the smoothed histogram of 108 cells, λ = ${roundDown(lambda, 6)}`,
        epsilon: 0.5,
      },
    ]);
    const release = await smoothedHistogram.run(table, schema, fiveBins, ctx);
    expect(release.claim).toEqual(claim);
    expect(release.diagnostics.lambda).toBe(lambda);
  });

  it('refuses missing bounds and oversized domains', () => {
    const { schema } = mixedTable(10);
    const noBounds = {
      ...schema,
      columns: [{ name: 'x', type: 'numeric' as const, source: 'declared' as const }],
    };
    expect(smoothedHistogram.check(noBounds, fiveBins)).toEqual([
      'needs bounds for numeric column `x`: declare them in the schema.',
    ]);
    const wide = {
      ...schema,
      columns: [
        ...schema.columns,
        {
          name: 'y',
          type: 'numeric' as const,
          bounds: [0, 1] as [number, number],
          source: 'declared' as const,
        },
      ],
    };
    const [problem] = smoothedHistogram.check(wide, resolveParams(smoothedHistogram, { bins: 1000 }));
    expect(problem).toMatch(/more than the limit of 20,000,000: choose fewer bins/);
  });
});

describe('smoothed-histogram run', () => {
  it('draws n rows per release, in bounds, with missing rates (1 − λ)·r + λ/levels', async () => {
    const n = 20_000;
    const { table, schema } = mixedTable(n);
    const ctx = runContext(schema, n, { epsilon: '1000', releases: 2 });
    const release = await smoothedHistogram.run(table, schema, fiveBins, ctx);
    const lambda = release.diagnostics.lambda as number;
    expect(release.datasets).toHaveLength(2);
    for (const dataset of release.datasets) {
      expect(dataset.nRows).toBe(n);
      const [age, income] = dataset.columns as NumericColumn[];
      for (let i = 0; i < n; i++) {
        if (
          age!.missing[i] === 0 &&
          !(Number.isInteger(age!.values[i]) && age!.values[i]! >= 17 && age!.values[i]! <= 90)
        ) {
          throw new Error(`age ${age!.values[i]} at row ${i} is not a whole number in [17, 90]`);
        }
        if (income!.missing[i] === 0 && !(income!.values[i]! >= 0 && income!.values[i]! <= 1000)) {
          throw new Error(`income ${income!.values[i]} at row ${i} is outside [0, 1000]`);
        }
      }
      // Each row is an independent draw from q, so the missing count is Binomial(n, p) with
      // p = (1 − λ)·r + λ/levels exactly; tolerance 5 SD = 5·sqrt(p(1 − p)/n).
      for (const [index, rate, levels] of [
        [0, 0.1, 6],
        [1, 0.25, 6],
        [2, 0.05, 3],
      ] as const) {
        const p = (1 - lambda) * rate + lambda / levels;
        expect(Math.abs(missingRate(dataset.columns[index]!) - p)).toBeLessThan(
          5 * Math.sqrt((p * (1 - p)) / n),
        );
      }
    }
  });

  it('reserves the budget before drawing, and draws nothing when refused', async () => {
    const { table, schema } = mixedTable(300);
    const log: string[] = [];
    const ctx = runContext(schema, 300, { rng: recordingRng(new SeededRng(2), log) });
    await runSmoothedHistogram(table, schema, fiveBins, ctx, new RecordingAccountant(parseBudget('1'), log));
    expect(log.slice(0, 2)).toEqual(['reserve', 'draw']);
    const refused: string[] = [];
    const refusingCtx = runContext(schema, 300, { rng: recordingRng(new SeededRng(2), refused) });
    await expect(
      runSmoothedHistogram(
        table,
        schema,
        fiveBins,
        refusingCtx,
        new RecordingAccountant(parseBudget('0.1'), refused),
      ),
    ).rejects.toMatchObject({ name: 'OverspendError' });
    expect(refused).toEqual(['reserve']);
  });

  it('stops with an AbortError when cancelled', async () => {
    const { table, schema } = mixedTable(100);
    const ctx = runContext(schema, 100, { signal: { aborted: true } });
    await expect(smoothedHistogram.run(table, schema, fiveBins, ctx)).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});

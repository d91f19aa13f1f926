import { describe, expect, it } from 'vitest';
import { OverspendError } from '../../privacy/accountant';
import { parseRational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import type { CategoricalColumn, NumericColumn } from '../../table/types';
import { missingRate, mixedTable, recordingRng, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { clustmix, runClustmix } from './index';
import { readClustmixSettings } from './params';
import { buildClustmixPlan, clustmixAccountant, RESIDUAL_GRID } from './plan';
import { RecordingZcdpAccountant } from './testing';

describe('clustmix run', () => {
  it('returns M tables of n rows in schema order, values in bounds, integers whole, declared categories', async () => {
    const n = 3000;
    const { table, schema } = mixedTable(n);
    for (const label of ['', 'sex']) {
      const params = resolveParams(clustmix, { label, adaptShare: 0.2, kipSteps: 20 });
      const ctx = runContext(schema, n, { delta: '0.0003', releases: 2 });
      const release = await clustmix.run(table, schema, params, ctx);
      expect(release.datasets).toHaveLength(2);
      for (const dataset of release.datasets) {
        expect(dataset.nRows).toBe(n);
        expect(dataset.columns.map((c) => c.name)).toEqual(['age', 'income', 'sex']);
        const age = dataset.columns[0] as NumericColumn;
        const income = dataset.columns[1] as NumericColumn;
        const sex = dataset.columns[2] as CategoricalColumn;
        for (let i = 0; i < n; i++) {
          if (age.missing[i] === 0) {
            expect(Number.isInteger(age.values[i])).toBe(true);
            expect(age.values[i]).toBeGreaterThanOrEqual(17);
            expect(age.values[i]).toBeLessThanOrEqual(90);
          } else expect(age.values[i]).toBeNaN();
          if (income.missing[i] === 0) {
            expect(income.values[i]).toBeGreaterThanOrEqual(0);
            expect(income.values[i]).toBeLessThanOrEqual(1000);
          }
        }
        expect(sex.dictionary).toEqual(['F', 'M']);
      }
      expect(release.claim).toEqual(clustmix.claim(params, ctx));
      expect(JSON.parse(JSON.stringify(release.diagnostics))).toEqual(release.diagnostics);
      expect(release.dataHolderDiagnostics).toEqual({});
    }
  });

  it('keeps missing rates within the noise and sampling tolerance', async () => {
    const n = 10_000;
    const { table, schema } = mixedTable(n);
    const params = resolveParams(clustmix, { clusters: 10, clip: 1 });
    const ctx = runContext(schema, n, { epsilon: '20', delta: '0.0001', rng: new SeededRng(3) });
    const plan = buildClustmixPlan(schema, readClustmixSettings(params), ctx);
    const release = await clustmix.run(table, schema, params, ctx);
    const synthetic = release.datasets[0]!;
    // The rate is Σ_k w_k·clamp(m̄_k/(√3/2)) (numeric) or the mean share of the missing coordinate
    // (categorical). With C = √p nothing within the convex hull of the rows is clipped, so the
    // weighted centres average the rows' encodings plus noise γ·Σ_k(noise of S_k)/n, SD
    // γσ_S·√K/n ≤ 1.67·√10/10⁴ ≈ 5·10⁻⁴ in m (×2/√3 as a rate), and the drawn rows add binomial
    // sampling SD √(r(1 − r)/n) ≤ 0.005. Tolerance: 5 SD of both, plus 0.005 for clamping of
    // near-zero cluster rates and the categorical renormalisation.
    const gammaSigmaS =
      (plan.clipRadius / RESIDUAL_GRID) * Math.sqrt(plan.budget.finalNoise.sumSigma2.toNumber());
    const noiseSd = ((2 / Math.sqrt(3)) * gammaSigmaS * Math.sqrt(plan.clusters)) / n;
    for (const [j, rate] of [
      [0, 0.1],
      [1, 0.25],
      [2, 0.05],
    ] as const) {
      const samplingSd = Math.sqrt((rate * (1 - rate)) / n);
      const tolerance = 5 * Math.hypot(noiseSd, samplingSd) + 0.005;
      expect(Math.abs(missingRate(synthetic.columns[j]!) - rate), `column ${j}`).toBeLessThan(tolerance);
    }
  });

  it('reserves every step before the first random draw (centroids and frequencies included)', async () => {
    const n = 500;
    const { table, schema } = mixedTable(n);
    const params = resolveParams(clustmix, { label: 'sex', adaptShare: 0.2, kipSteps: 5 });
    const log: string[] = [];
    const ctx = runContext(schema, n, { delta: '0.002', rng: recordingRng(new SeededRng(1), log) });
    const rho = clustmixAccountant(ctx).rhoBudget;
    const accountant = new RecordingZcdpAccountant(rho, parseRational('0.002'), log);
    const release = await runClustmix(table, schema, params, ctx, accountant);
    const firstDraw = log.indexOf('draw');
    expect(firstDraw).toBeGreaterThan(0);
    expect(log.lastIndexOf('reserve')).toBeLessThan(firstDraw);
    expect(log.filter((e) => e === 'reserve')).toHaveLength(6);
    expect(release.claim).toEqual(clustmix.claim(params, ctx));
  });

  it('draws nothing when a reservation is refused', async () => {
    const n = 500;
    const { table, schema } = mixedTable(n);
    const log: string[] = [];
    const ctx = runContext(schema, n, { delta: '0.002', rng: recordingRng(new SeededRng(1), log) });
    const half = clustmixAccountant(ctx).rhoBudget.div(parseRational('2'));
    const accountant = new RecordingZcdpAccountant(half, parseRational('0.002'), log);
    await expect(runClustmix(table, schema, resolveParams(clustmix, {}), ctx, accountant)).rejects.toThrow(
      OverspendError,
    );
    expect(log).not.toContain('draw');
  });

  it('rejects with an AbortError when cancelled, and reports rising progress up to 1', async () => {
    const n = 500;
    const { table, schema } = mixedTable(n);
    const params = resolveParams(clustmix, {});
    await expect(
      clustmix.run(
        table,
        schema,
        params,
        runContext(schema, n, { delta: '0.002', signal: { aborted: true } }),
      ),
    ).rejects.toMatchObject({ name: 'AbortError' });
    const fractions: number[] = [];
    await clustmix.run(
      table,
      schema,
      params,
      runContext(schema, n, { delta: '0.002', progress: (f) => fractions.push(f) }),
    );
    expect(fractions.at(-1)).toBe(1);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]!);
  });

  it('refuses to run with δ = 0 with the check’s sentence', async () => {
    const { table, schema } = mixedTable(100);
    await expect(
      clustmix.run(table, schema, resolveParams(clustmix, {}), runContext(schema, 100, { delta: 0 })),
    ).rejects.toThrow('clustmix needs δ > 0');
  });
});

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { cli, tempFiles } from './cli-harness';

// Reference values from tests/reference/cli/make_fixtures.sh: tests/reference/metrics/tvd_reference.py (TVD) and
// tests/reference/pmse/pmse_fixture.R (rpart, synthpop's utility.gen defaults) on tests/fixtures/cli/real.csv and synth.csv.
const reference = JSON.parse(readFileSync('tests/fixtures/cli/reference.json', 'utf8'));

describe('dpsynth metrics', () => {
  it('matches the reference TVD exactly and the rpart pMSE to 1e-12 relative', async () => {
    const result = await cli(
      'metrics',
      'tests/fixtures/cli/real.csv',
      'tests/fixtures/cli/synth.csv',
      '--json',
      '--seed',
      '1',
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const metrics = JSON.parse(result.stdout);
    // The evaluation report's format (core evaluationJson, the studio's export too), with no time in it.
    expect(metrics).toMatchObject({ format: 'dpsynth-evaluation-report', formatVersion: 2 });
    expect(metrics.createdAt).toBeUndefined();
    expect(metrics.real).toEqual({ file: 'tests/fixtures/cli/real.csv', rows: 400 });
    expect(metrics.tvd['1']).toBe(reference.tvd1.mean_tvd);
    expect(metrics.tvd['2']).toBe(reference.tvd2.mean_tvd);
    expect(metrics.tvd['3']).toBe(reference.tvd3.mean_tvd);
    expect(metrics.pmse.model).toBe('cart');
    const relative = Math.abs(metrics.pmse.value - reference.pmse_cart.pMSE) / reference.pmse_cart.pMSE;
    expect(relative).toBeLessThan(1e-12);
    expect(metrics.pmse.ratio).toBeGreaterThan(0);
  });

  it('evaluates several releases: per-release values, their mean, and the combining rules', async () => {
    const real = 'tests/fixtures/cli/real.csv';
    const synth = 'tests/fixtures/cli/synth.csv';
    const result = await cli(
      'metrics',
      ...[real, synth, real],
      ...['--json', '--seed', '1', '--regression', 'income ~ age + sex + education'],
    );
    expect(result.stderr).toBe('');
    const metrics = JSON.parse(result.stdout);
    expect(metrics.synthetic.map((s: { file: string }) => s.file)).toEqual([synth, real]);
    const [first, second] = metrics.pmse.perRelease;
    expect(Math.abs(first.value - reference.pmse_cart.pMSE) / reference.pmse_cart.pMSE).toBeLessThan(1e-12);
    // Real against itself: every propensity is 1/2, so pMSE is exactly 0 (pMSE paper, Algorithm 1).
    expect(second.value).toBe(0);
    expect(metrics.pmse.value).toBeCloseTo(first.value / 2, 15);
    expect(metrics.tvd['1']).toBeCloseTo(reference.tvd1.mean_tvd / 2, 15);
    // A release equal to the real table reproduces its coefficients: standardized difference 0, full overlap.
    const identical = metrics.regression.releases[1];
    for (const d of identical.standardizedDifference) expect(Math.abs(d)).toBeLessThan(1e-9);
    for (const o of identical.ciOverlap) expect(o).toBeCloseTo(1, 9);
    expect(metrics.regression.combined.releases).toBe(2);
    expect(metrics.regression.terms).toContain('education=primary');
  });

  it('measures machine-learning efficacy on a holdout file', async () => {
    const real = 'tests/fixtures/cli/real.csv';
    const result = await cli(
      'metrics',
      ...[real, real, '--json', '--seed', '3', '--holdout', 'tests/fixtures/cli/synth.csv'],
      ...['--ml-target', 'smoker', '--skip', 'game,disclosure'],
    );
    expect(result.stderr).toBe('');
    const metrics = JSON.parse(result.stdout);
    expect(metrics.holdout.rows).toBe(400);
    expect(metrics.mlEfficacy.models.map((m: { model: string }) => m.model).sort()).toEqual([
      'cart',
      'forest',
      'logistic',
    ]);
    // CART is deterministic: trained on the same rows as the real-trained reference, it agrees everywhere.
    const cart = metrics.mlEfficacy.models.find((m: { model: string }) => m.model === 'cart');
    expect(cart.mean.agreementWithReal).toBe(1);
    expect(cart.mean.accuracy).toBe(cart.real.accuracy);
    expect(metrics.distinguishingGame).toBeNull();
    expect(metrics.disclosure).toBeNull();
  });

  it('prints a readable summary without --json', async () => {
    const result = await cli(
      'metrics',
      'tests/fixtures/cli/real.csv',
      'tests/fixtures/cli/synth.csv',
      '--seed',
      '1',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^pMSE \(cart\): 0\.1063/);
    expect(result.stdout).toContain('TVD of 2-way marginals: 0.120089');
    expect(result.stdout).toContain('Distinguishing game accuracy');
    expect(result.stdout).toContain('Not differentially private');
    expect(result.stdout).toContain('for the data holder, not for release');
  });

  it("gives means over releases next to the mean pMSE and each subset's TVD", async () => {
    const real = 'tests/fixtures/cli/real.csv';
    const synth = 'tests/fixtures/cli/synth.csv';
    const result = await cli(
      'metrics',
      real,
      synth,
      real,
      '--json',
      '--seed',
      '1',
      '--skip',
      'game,disclosure',
    );
    expect(result.code).toBe(0);
    const metrics = JSON.parse(result.stdout);
    const [first, second] = metrics.pmse.perRelease;
    expect(metrics.pmse.perRelease).toHaveLength(2);
    expect(metrics.pmse.nullMean).toBeCloseTo((first.nullMean + second.nullMean) / 2, 15);
    expect(metrics.pmse.rawRatio).toBeCloseTo((first.rawRatio + second.rawRatio) / 2, 15);
    expect(metrics.pmse.k).toBeNull(); // CART has no k
    expect(metrics.pmse.warnings).toEqual([]);
    expect(first.extremePropensities).toBeNull();
    for (const k of ['1', '2', '3']) {
      const perRelease = metrics.tvdPerRelease[k].perRelease;
      metrics.tvdSubsets[k].forEach((subset: { columns: string[]; tvd: number }, i: number) => {
        expect(subset.columns).toEqual(perRelease[0].subsets[i].columns);
        expect(subset.tvd).toBeCloseTo((perRelease[0].subsets[i].tvd + perRelease[1].subsets[i].tvd) / 2, 15);
      });
    }
    expect(metrics.tvdSkipped).toBeUndefined();
  });

  it('lists a column dropped as constant in any release', async () => {
    const real = ['x,c', ...Array.from({ length: 30 }, (_, i) => `${i},a`)].join('\n') + '\n';
    const varied =
      ['x,c', ...Array.from({ length: 30 }, (_, i) => `${i + 1},${i % 2 ? 'a' : 'b'}`)].join('\n') + '\n';
    const path = tempFiles({ 'real.csv': real, 'varied.csv': varied, 'same.csv': real });
    const result = await cli(
      'metrics',
      ...[path('real.csv'), path('varied.csv'), path('same.csv')],
      ...['--json', '--seed', '1', '--skip', 'game,disclosure', '--permutations', '2'],
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).pmse.droppedConstant).toEqual(['c']);
  });

  it('warns when the logistic model separates real from synthetic rows', async () => {
    const rows = (offset: number) =>
      ['x,g', ...Array.from({ length: 40 }, (_, i) => `${offset + i},${i % 2 ? 'a' : 'b'}`)].join('\n') +
      '\n';
    const path = tempFiles({ 'real.csv': rows(0), 'synth.csv': rows(100) });
    const args = [path('real.csv'), path('synth.csv'), '--pmse-model', 'logit', '--skip', 'game,disclosure'];
    const json = JSON.parse((await cli('metrics', ...args, '--json')).stdout);
    expect(json.pmse.perRelease[0].extremePropensities).toBeGreaterThan(0);
    const expected =
      `the logistic model separates real from synthetic rows (${json.pmse.perRelease[0].extremePropensities} ` +
      'fitted propensities within 1e-8 of 0 or 1): the maximum-likelihood fit does not exist and pMSE/S_pMSE ' +
      'depend on the optimiser; use --pmse-model cart';
    expect(json.pmse.warnings).toEqual([expected]);
    const text = await cli('metrics', ...args);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Warning: ${expected}`);
  });

  it('says when a k-way or the full-table TVD is skipped as too large', async () => {
    // 200 columns: C(200, 3) · 3 · (300 + 300) ≈ 2.4·10^9 cell visits exceeds TVD_MAX_WORK; the joint
    // table has far more than 10^6 cells.
    const m = 200;
    const file = (shift: number) =>
      [
        Array.from({ length: m }, (_, j) => `c${j}`).join(','),
        ...Array.from({ length: 300 }, (_, i) =>
          Array.from({ length: m }, (_, j) => (i * (j + 1) + shift) % 7).join(','),
        ),
      ].join('\n') + '\n';
    const path = tempFiles({ 'real.csv': file(0), 'synth.csv': file(1) });
    const args = [path('real.csv'), path('synth.csv'), '--tvd-k', '1,3', '--permutations', '1'];
    const common = [...args, '--skip', 'game,disclosure', '--seed', '1'];
    const json = JSON.parse((await cli('metrics', ...common, '--json')).stdout);
    expect(json.tvd['1']).toBeGreaterThan(0);
    expect(json.tvd['3']).toBeNull();
    expect(json.tvdSkipped['3']).toMatch(/1313400 subsets of 200 columns/);
    expect(json.tvdFullTable.mean).toBeNull();
    expect(json.tvdFullTable.skipped).toMatch(/more than 1,000,000 cells/);
    const text = (await cli('metrics', ...common)).stdout;
    expect(text).toContain('TVD of 3-way marginals: skipped (1313400 subsets of 200 columns');
    expect(text).toMatch(/TVD of the full table: skipped \(the joint table of all 200 columns has more than/);
  });

  it.each([
    [['--regression', 'income age'], /--regression takes a formula/],
    [['--regression', 'income ~ weight'], /no column 'weight'/],
    [['--regression', 'income ~ income + age'], /cannot also be a predictor/],
    [['--holdout', 'tests/fixtures/cli/real.csv'], /needs both --holdout .* and --ml-target/],
    [['--ml-target', 'smoker'], /needs both --holdout/],
    [['--skip', 'pmse'], /--skip takes game and disclosure; got 'pmse'/],
  ])('rejects %j with a message', async (extra, message) => {
    const result = await cli(
      'metrics',
      'tests/fixtures/cli/real.csv',
      'tests/fixtures/cli/synth.csv',
      ...extra,
    );
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(2);
  });

  it('refuses files whose columns differ', async () => {
    const result = await cli('metrics', 'tests/fixtures/cli/real.csv', 'tests/fixtures/cli/reference.json');
    expect(result.code).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { cli } from './cli-harness';

// Reference values from tests/reference/cli/make_fixtures.sh: tvd_ref.py (TVD) and pmse_ref.R (rpart, synthpop's
// utility.gen defaults) on tests/fixtures/cli/real.csv and synth.csv.
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
    expect(metrics.tvd['1']).toBe(reference.tvd1.mean_tvd);
    expect(metrics.tvd['2']).toBe(reference.tvd2.mean_tvd);
    expect(metrics.tvd['3']).toBe(reference.tvd3.mean_tvd);
    expect(metrics.pmse.model).toBe('cart');
    const relative = Math.abs(metrics.pmse.value - reference.pmse_cart.pMSE) / reference.pmse_cart.pMSE;
    expect(relative).toBeLessThan(1e-12);
    expect(metrics.pmse.ratio).toBeGreaterThan(0);
  });

  it('refuses files whose columns differ', async () => {
    const result = await cli('metrics', 'tests/fixtures/cli/real.csv', 'tests/fixtures/cli/reference.json');
    expect(result.code).toBe(2);
  });
});

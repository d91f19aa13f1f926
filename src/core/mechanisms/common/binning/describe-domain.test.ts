import { describe, expect, it } from 'vitest';
import type { Schema } from '../../../table/types';
import { resolveParams } from '../../params';
import { laplaceHistogram } from '../../laplace-histogram';
import { pmseMechanism } from '../../pmse-mechanism';
import { smoothedHistogram } from '../../smoothed-histogram';
import type { PublicContext } from '../../types';

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'x1', type: 'numeric', bounds: [0, 10], source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
  ],
  missing: [''],
};

function context(epsilon: string, n = 5000, releases = 1): PublicContext {
  return { n, schema, epsilon, delta: 0, releases, seeded: false };
}

describe('describe(params, context): public facts shown before a run', () => {
  it('pMSE mechanism: the paper model has 5 parameters (θ1 … θ5, §6)', () => {
    const paper: Schema = {
      version: 1,
      columns: [
        { name: 'X1', type: 'numeric', source: 'declared' },
        { name: 'X2', type: 'numeric', source: 'declared' },
      ],
      missing: [''],
    };
    const lines = pmseMechanism.describe!(resolveParams(pmseMechanism, {}), {
      ...context('1', 5000, 10),
      schema: paper,
    });
    // X1 ~ N(θ1, θ2): mean and log σ; X2 ~ N(θ3 + θ4·x1, θ5): intercept, slope and log σ.
    expect(lines[0]).toBe('Synthesis model: 5 parameters (θ), in column order: X1 2, X2 3.');
    // ε·n/(2l) = 1·5000/20 = 250 ≥ 100: no public warning.
    expect(lines).toHaveLength(1);
  });

  it('pMSE mechanism: warns when ε/(2·releases·Δu) is below 100', () => {
    // Default (proven Δu = 1/(2n)): ε·n/releases = 0.015 · 5000 = 75 < 100.
    const lines = pmseMechanism.describe!(resolveParams(pmseMechanism, {}), context('0.15', 5000, 10));
    expect(lines.some((line) => line.includes('ε·n/releases is 75.0'))).toBe(true);
    // Greedy trees (Δu = 1/n): ε·n/(2·releases) = 0.025 · 5000 / 2 = 62.5 < 100.
    const greedy = resolveParams(pmseMechanism, { treeDepth: '5' });
    expect(
      pmseMechanism.describe!(greedy, context('0.25', 5000, 10)).some((line) => line.includes('62.5')),
    ).toBe(true);
  });

  it('laplace-histogram: the cell count of the cross-tabulation, missing cells included', () => {
    const lines = laplaceHistogram.describe!(resolveParams(laplaceHistogram, { bins: 4 }), context('1'));
    // x1: 4 bins + missing = 5 levels; sex: 2 categories + missing = 3 levels; 5 · 3 = 15 cells.
    expect(lines).toEqual([
      'Cross-tabulation of 15 cells: x1 5, sex 3 (each count includes a missing-value cell).',
    ]);
  });

  it('smoothed-histogram: λ = K / (K + n(e^(ε/T) − 1)) for T = n draws', () => {
    const lines = smoothedHistogram.describe!(
      resolveParams(smoothedHistogram, { bins: 4 }),
      context('1', 100),
    );
    // K = 15, n = T = 100: λ = 15 / (15 + 100·(e^0.01 − 1)) = 15 / 16.00502 = 0.937206.
    expect(lines[1]).toContain('λ = 0.937');
    expect(lines[1]).toContain('most rows carry no information');
  });

  it('says nothing when the plan has problems (check reports them)', () => {
    const unbounded: Schema = { ...schema, columns: [{ name: 'x1', type: 'numeric', source: 'declared' }] };
    expect(
      laplaceHistogram.describe!(resolveParams(laplaceHistogram, {}), { ...context('1'), schema: unbounded }),
    ).toEqual([]);
  });
});

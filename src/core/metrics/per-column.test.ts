import { describe, expect, it } from 'vitest';
import { testTable } from './testing/test-table';
import { compareColumns, MARGINAL_MAX_LEVEL_BARS } from './per-column';

describe('compareColumns', () => {
  it('reports numeric distances, moments and overlay bars', () => {
    const real = testTable({ v: [0, 1, 2, null] });
    const synth = testTable({ v: [1, 2, 3, 4] });
    const [v] = compareColumns(real, synth);
    if (v?.kind !== 'numeric') throw new Error('expected a numeric comparison');
    // F_real jumps by 1/3 at 0, 1, 2; F_synth by 1/4 at 1, 2, 3, 4: gaps 1/3, 5/12, 1/2 → D = 1/2.
    expect(v.ks).toBe(0.5);
    expect(v.mean).toEqual({ real: 1, synth: 2.5 });
    expect(v.missingRate).toEqual({ real: 0.25, synth: 0 });
    expect(v.marginal.at(-1)).toEqual({ label: '(missing)', kind: 'missing', real: 0.25, synth: 0 });
    expect(v.marginal.filter((bar) => bar.kind === 'bin')).toHaveLength(10);
    expect(v.wassersteinRangeNormalized).toBeCloseTo(v.wasserstein! / 4, 15);
  });

  it('pools rare levels into one bar', () => {
    const levels = Array.from({ length: 80 }, (_, i) => `L${i}`);
    const [c] = compareColumns(testTable({ c: levels }), testTable({ c: levels }));
    expect(c!.marginal).toHaveLength(MARGINAL_MAX_LEVEL_BARS);
    expect(c!.marginal.at(-1)!.kind).toBe('other');
    expect(c!.tvd).toBe(0);
  });
});

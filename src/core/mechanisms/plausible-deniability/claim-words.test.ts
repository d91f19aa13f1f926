import { describe, expect, it } from 'vitest';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { completePlan, plausibleDeniabilityMeta } from './meta';

// The claim's own sentences, the plural of a part's size, and the warning at k against n_S, on the
// worked configuration (n = 1,000, ε = 1,200, δ = 10⁻⁶, equal structure and parameter shares: 250,
// 250 and 500 seeds, T = 1,000 draws).

const { schema } = mixedTable(1000);
const context = runContext(schema, 1000, { epsilon: '1200', delta: '1e-6', releases: 1 });
const params = (given: Record<string, number> = {}) =>
  resolveParams(plausibleDeniabilityMeta, { structureShare: 0.25, parameterShare: 0.25, bins: 2, ...given });

describe('plausible-deniability claim words', () => {
  it('states the split, the γ = 1 premise, the composition of the T draws and where floating point is used', () => {
    const { assumptions } = plausibleDeniabilityMeta.claim(params(), context);
    for (const sentence of [
      'The rows are split by a uniform random permutation, drawn before any row is read, into 250 structure rows, ' +
        '250 parameter rows and 500 seeds (sizes from n and the shares only); a replaced row lies in one part, so ' +
        'the cost is the largest part’s, not the sum.',
      'The privacy test’s premise (γ = 1): a seed-based row keeps the seed’s levels on the first m − ω attributes ' +
        'of the network order and draws the rest from the network, reading nothing else of the seed, so every seed ' +
        'that agrees with the row there would have produced it with the same probability.',
      'The 1,000 draws (one per synthetic row, M·n) compose by basic composition: each is (ε/T, δ_a)-DP given the ' +
        'network, together (ε, T·δ_a). A failed test or the fallback coin yields a row from the network alone, ' +
        'never a missing row, and how often that happens is not reported.',
      'Floating point is used only where the guarantee does not rest on exact probabilities (the Dirichlet draws, ' +
        'generation from the network, decoding); the noise, the test threshold, the fallback coin, the seed and ω ' +
        'are drawn exactly.',
    ])
      expect(assumptions).toContain(sentence);
  });

  it('names a part of 0 rows in the plural and one of 1 row in the singular', () => {
    // n = 6: structure max(2, ⌊6·0.25⌋) = 2; parameters ⌊6·0.1⌋ = 0, or ⌊6·0.25⌋ = 1.
    const at6 = { ...context, n: 6 };
    expect(plausibleDeniabilityMeta.check(schema, params({ parameterShare: 0.1 }), at6)).toContain(
      'the parameter part (`parameterShare`) has 0 rows of n = 6; each part needs at least 2: change the shares or use more rows.',
    );
    expect(plausibleDeniabilityMeta.check(schema, params(), at6)).toContain(
      'the parameter part (`parameterShare`) has 1 row of n = 6; each part needs at least 2: change the shares or use more rows.',
    );
  });

  it('warns about k only when it exceeds the seeds: not at k = n_S = 500, at k = 501', () => {
    const warning = /exceeds the 500 seeds/;
    // A fixed k above the smallest that fits (19) fits as well: a larger k only lowers δ_a.
    const atSeeds = plausibleDeniabilityMeta.describe!(params({ k: 500 }), context);
    expect(atSeeds.some((line) => line.includes('k = 500'))).toBe(true);
    expect(atSeeds.some((line) => warning.test(line))).toBe(false);
    const above = plausibleDeniabilityMeta.describe!(params({ k: 501 }), context);
    expect(above).toContain(
      'k = 501 exceeds the 500 seeds: almost every row will come from the network alone.',
    );
  });
  it('accepts conditional tables of exactly 20,000,000 cells and refuses one more parent configuration', () => {
    // Four columns of 999 bins + a missing level (1,000 levels), at most 2 parents: each table has at
    // most 1,000·min(maxCost, 1,000²) cells, 4·1,000·5,000 = 20,000,000 at maxCost = 5,000 (the limit).
    const wide = {
      version: 1 as const,
      missing: [''],
      columns: ['x1', 'x2', 'x3', 'x4'].map((name) => ({
        name,
        type: 'numeric' as const,
        bounds: [0, 1] as [number, number],
        source: 'declared' as const,
      })),
    };
    const at = { ...context, schema: wide };
    const check = (maxCost: number) =>
      plausibleDeniabilityMeta.check(wide, params({ bins: 999, maxParents: 2, maxCost }), at);
    expect(check(5000)).toEqual([]);
    expect(check(5001)).toEqual([
      'the conditional tables could reach 20,004,000 cells, above 20,000,000: lower `maxCost` or `maxParents`, or choose fewer bins.',
    ]);
  });
  it('describes nothing for a plan with a problem even when its draw budget is planned', () => {
    // ω out of range is a problem of its own; n, ε, δ and M are known, so the draws are planned too.
    expect(plausibleDeniabilityMeta.check(schema, params({ omegaMax: 4 }), context)).toHaveLength(1);
    expect(plausibleDeniabilityMeta.describe!(params({ omegaMax: 4 }), context)).toEqual([]);
  });

  it('refuses a plan with two problems naming both, one sentence after the other', () => {
    const given = params({ omegaMax: 4 });
    const noDelta = { ...context, delta: 0 };
    const problems = plausibleDeniabilityMeta.check(schema, given, noDelta);
    expect(problems).toHaveLength(2);
    expect(() => completePlan(given, noDelta)).toThrow(
      `plausible-deniability cannot run: ${problems.join(' ')}`,
    );
  });
});

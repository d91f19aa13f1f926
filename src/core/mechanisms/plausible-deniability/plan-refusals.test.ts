import { describe, expect, it } from 'vitest';
import { InputError } from '../../table/errors';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { completeOrRefuse, completePlan, plausibleDeniabilityMeta } from './meta';
import { planPlausibleDeniability, worstCaseTableCells } from './plan';

// The refusals between the plan and the one reservation, and the public bound on the conditional
// tables' cells that `check` compares with the cell limit.

const { schema } = mixedTable(1000);
const params = resolveParams(plausibleDeniabilityMeta, { bins: 2 });
const context = runContext(schema, 1000, { epsilon: '1200', delta: '1e-6', releases: 1 });

describe('the complete plan', () => {
  it('is refused with every problem check reports, as an InputError, before any reservation', () => {
    const noDelta = { ...context, delta: 0 };
    const problems = plausibleDeniabilityMeta.check(schema, params, noDelta);
    expect(problems.length).toBeGreaterThan(0);
    expect(() => completePlan(params, noDelta)).toThrow(InputError);
    expect(() => completePlan(params, noDelta)).toThrow(
      `plausible-deniability cannot run: ${problems.join(' ')}`,
    );
  });

  it('is refused without n, without ε or without the release count, each of which the reservation needs', () => {
    const { n: _n, ...withoutN } = context;
    const withoutReleases = { ...context, releases: undefined };
    for (const partial of [withoutN, withoutReleases]) {
      const plan = planPlausibleDeniability(schema, params, partial);
      expect(plan.problems).toEqual([]);
      expect(() => completeOrRefuse(plan)).toThrow(
        /the plan is incomplete without n, ε, δ and the release count/,
      );
    }
    // Without n the plan has no part sizes (nothing is computed from a missing row count).
    expect(planPlausibleDeniability(schema, params, withoutN).sizes).toBeUndefined();
    const withoutEpsilon = planPlausibleDeniability(schema, params, { ...context, epsilon: undefined });
    expect(withoutEpsilon.modelEpsilon).toBeUndefined();
    expect(() => completeOrRefuse(withoutEpsilon)).toThrow(/incomplete/);
    // With every public number the plan is complete and kept as it is.
    const full = planPlausibleDeniability(schema, params, context);
    expect(completeOrRefuse(full)).toBe(full);
  });
});

describe('check and describe before every public number is known', () => {
  it('check without a context (schema edited before the data is loaded) plans no sizes and finds no problem', () => {
    const plan = planPlausibleDeniability(schema, params);
    expect(plan.problems).toEqual([]);
    expect(plan.sizes).toBeUndefined();
    expect(plan.draws).toBeUndefined();
    expect(plausibleDeniabilityMeta.check(schema, params)).toEqual([]);
  });

  it('describe says nothing for a plan with a problem or without the release count', () => {
    expect(plausibleDeniabilityMeta.describe!(params, context).length).toBeGreaterThan(0);
    expect(plausibleDeniabilityMeta.describe!(params, { ...context, delta: 0 })).toEqual([]);
    // A context read from a form whose release count is not a number yet (the type promises one).
    const noReleases = { ...context, releases: undefined as unknown as number };
    expect(plausibleDeniabilityMeta.describe!(params, noReleases)).toEqual([]);
  });

  it('accepts ω fixed at one value (omegaMin = omegaMax) and refuses omegaMin above omegaMax', () => {
    expect(plausibleDeniabilityMeta.check(schema, { ...params, omegaMin: 2, omegaMax: 2 }, context)).toEqual(
      [],
    );
    expect(
      plausibleDeniabilityMeta.check(schema, { ...params, omegaMin: 3, omegaMax: 2 }, context),
    ).toHaveLength(1);
  });
});

/**
 * Σ_i |x_i|·min(maxCost_i, largest product of at most maxParents other level counts), by trying every
 * parent set: the most cells the conditional tables can reach.
 */
function bruteForceCells(levels: number[], maxParents: number, maxCost: number[]): number {
  let total = 0;
  levels.forEach((own, i) => {
    const others = levels.filter((_, j) => j !== i);
    let best = 1;
    for (let mask = 0; mask < 1 << others.length; mask++) {
      const chosen = others.filter((_, j) => (mask >> j) & 1);
      if (chosen.length <= maxParents)
        best = Math.max(
          best,
          chosen.reduce((p, l) => p * l, 1),
        );
    }
    total += own * Math.min(maxCost[i]!, best);
  });
  return total;
}

describe('worst-case table cells', () => {
  it('equal the largest parent sets found by trying every set, on unequal level counts', () => {
    const cases: [number[], number][] = [
      [[2, 5, 3], 1],
      [[2, 5, 3, 7], 2],
      [[4, 2, 9, 3, 6], 2],
      [[4, 2, 9, 3, 6], 0],
      [[3, 8], 5],
    ];
    for (const [levels, maxParents] of cases) {
      const unlimited = levels.map(() => 1e9);
      expect(worstCaseTableCells(levels, maxParents, unlimited), `${levels} ${maxParents}`).toBe(
        bruteForceCells(levels, maxParents, unlimited),
      );
      const capped = levels.map((_, i) => 4 + i);
      expect(worstCaseTableCells(levels, maxParents, capped)).toBe(
        bruteForceCells(levels, maxParents, capped),
      );
    }
  });
});

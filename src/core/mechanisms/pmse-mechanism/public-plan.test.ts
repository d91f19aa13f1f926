import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../privacy/budget';
import { Rational } from '../../rng/rational';
import type { Schema } from '../../table/types';
import { RecordingAccountant } from '../common/testing/fixtures';
import type { PublicContext } from '../types';
import { checkPmseMechanism } from './check';
import { pmseAssumptions, pmseSchemaRead, pmseUnprovenBound } from './claim';
import { describePmsePlan } from './describe';
import { planPmseMechanism, pmseMechanismMeta } from './meta';
import { initialInverseTemperature } from './plan';
import { pmseQualityOf, readPmseSettings, type PmseQuality } from './pmse-params';
import { pmseScoreQuery, qualityStepName, releaseStepText, reserveReleaseBudget } from './release-budget';

// Quick, exact checks of what the claim, check and describe of the pMSE mechanism say, from the
// parameters and the schema alone (no chain runs). Expected values worked by hand from the formulas in
// the functions' comments and the README ("Privacy claim", "Quality functions").

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'x1', type: 'numeric', source: 'declared' },
    { name: 'x2', type: 'numeric', source: 'declared' },
  ],
  missing: [''],
};

function context(overrides: Partial<PublicContext> = {}): PublicContext {
  return { n: 100, schema, epsilon: '1', delta: 0, releases: 1, seeded: false, ...overrides };
}

const grid: PmseQuality = { kind: 'grid-tree', depth: 2, gridSize: 32 };
const stump: PmseQuality = { kind: 'exhaustive-stump' };
const greedy = (maxDepth: number): PmseQuality => ({
  kind: 'greedy-tree',
  tree: { maxDepth, minSplit: 20, minBucket: 7, cp: 0.01 },
});

describe('pMSE release steps and their query', () => {
  it('names the quality function and its Δu in every step', () => {
    expect(qualityStepName(grid)).toBe('grid-tree pMSE, Δu = 1/(2n)');
    expect(qualityStepName(stump)).toBe('exhaustive-stump pMSE, Δu = 1/(2n)');
    expect(qualityStepName(greedy(5))).toBe('greedy-tree pMSE (depth 5), Δu = 1/n not proven');
    expect(qualityStepName(greedy(30))).toBe('greedy-tree pMSE (depth unlimited), Δu = 1/n not proven');
    expect(releaseStepText(1, 3, stump)).toBe(
      'release 2 of 3: parameters θ̃ from the exponential mechanism with the exhaustive-stump pMSE, ' +
        'Δu = 1/(2n), then n rows from the synthesis model g(θ̃)',
    );
  });

  it('reserves ε/l exactly for each of the l releases, in order (Algorithm 2)', () => {
    const log: string[] = [];
    const accountant = new RecordingAccountant(parseBudget('0.9'), log);
    const reserved = reserveReleaseBudget(accountant, context({ epsilon: '0.9', releases: 3 }), grid);
    expect(reserved.epsilon.equals(Rational.of(3n, 10n))).toBe(true);
    expect(reserved.steps).toHaveLength(3);
    expect(accountant.reservedEpsilons.map((e) => e.toString())).toEqual(['3/10', '3/10', '3/10']);
    expect(accountant.claim([]).steps.map((step) => step.what)).toEqual(
      [0, 1, 2].map((r) => releaseStepText(r, 3, grid)),
    );
  });

  it('asks the query table for the proven partitions only when Δu is proven', () => {
    expect(pmseScoreQuery(grid, 50)).toEqual({
      kind: 'pmse-score',
      rows: 50,
      partitions: 'fixed-before-data',
    });
    expect(pmseScoreQuery(stump, 7)).toEqual({
      kind: 'pmse-score',
      rows: 7,
      partitions: 'fixed-before-data',
    });
    expect(pmseScoreQuery(greedy(2), 50)).toEqual({
      kind: 'pmse-score',
      rows: 50,
      partitions: 'greedy-tree',
    });
  });
});

describe('pMSE check: draws that fit after burn-in', () => {
  const params = (steps: number, thinning: number, chains = 2) => ({ steps, thinning, chains });

  it('refuses (draws − 1)·thinning >= steps and accepts one iteration more', () => {
    // 5 releases over 2 chains: 3 draws on the first, (3 − 1)·50 = 100 iterations apart at most.
    expect(checkPmseMechanism(schema, params(100, 50), context({ releases: 5 }))).toEqual([
      '5 releases from 2 chains need 3 draws per chain 50 iterations apart: set steps above 100, lower the thinning or add chains.',
    ]);
    expect(checkPmseMechanism(schema, params(101, 50), context({ releases: 5 }))).toEqual([]);
    // One draw per chain needs no spacing, whatever the thinning.
    expect(checkPmseMechanism(schema, params(2, 1000), context({ releases: 2 }))).toEqual([]);
    // Without a context the releases are unknown: nothing to refuse.
    expect(checkPmseMechanism(schema, params(2, 1000))).toEqual([]);
  });

  it('names every unknown column that may be missing, and accepts known ones', () => {
    expect(checkPmseMechanism(schema, { missingColumns: 'x2, y, z' })).toEqual([
      'Columns that may be missing names `y`, which is not in the schema.',
      'Columns that may be missing names `z`, which is not in the schema.',
    ]);
    expect(checkPmseMechanism(schema, { missingColumns: 'x1,x2' })).toEqual([]);
  });

  it('the plan refuses a table without rows and builds the model otherwise', () => {
    expect(planPmseMechanism(schema, {}, context({ n: 0 })).problems).toEqual([
      'The pMSE mechanism needs at least one row.',
    ]);
    const plan = planPmseMechanism(schema, {}, context({ n: 1 }));
    expect(plan.problems).toEqual([]);
    // X1 ~ N(β0, σ²): 2; X2 ~ N(β0 + β1·x1, σ²): 3 (README: the paper's example has 5 parameters).
    expect(plan.model?.parameterCount).toBe(5);
    expect(planPmseMechanism(schema, { columnOrder: 'x2' }, context()).model).toBeUndefined();
  });
});

describe('pMSE claim sentences and the unproven reason', () => {
  it('says why ε is not proven, with a second reason for greedy trees', () => {
    expect(pmseUnprovenBound(readPmseSettings({}, schema))).toEqual({
      unprovenBecause:
        'MCMC draws approximate the exponential mechanism; ε holds for exact draws, Δu = 1/(2n) proven',
    });
    expect(pmseUnprovenBound(readPmseSettings({ treeDepth: '1' }, schema)).unprovenBecause).toMatch(
      /Δu = 1\/\(2n\) proven$/,
    );
    expect(pmseUnprovenBound(readPmseSettings({ treeDepth: 'unlimited' }, schema))).toEqual({
      unprovenBecause:
        'greedy trees, depth unlimited: Δu not proven; MCMC draws approximate the exponential mechanism',
    });
  });

  it('states the grid of G + 1 quantiles, m, the chain lengths and the spacing of several draws per chain', () => {
    const settings = readPmseSettings({ m: 3, burnIn: 10, steps: 20, thinning: 5, chains: 2 }, schema);
    const sentences = pmseAssumptions(settings, 3);
    expect(sentences[0]).toMatch(
      /^The quality u\(X, θ\) is the pMSE of the best tree of depth 2 whose splits lie on a grid of 33 quantiles/,
    );
    expect(sentences).toContain(
      'A chain provides up to 2 releases taken 5 iterations apart; composing them as independent draws assumes the chain forgets its state over that many iterations.',
    );
    expect(sentences.join(' ')).toMatch(/\(10 burn-in and 20 further iterations,/);
    expect(sentences.join(' ')).toMatch(/over m = 3 synthetic datasets made from/);
    expect(sentences.join(' ')).toMatch(/proof of Δu = 1\/\(2n\): the mechanism’s README/);
    // One draw per chain: no spacing sentence; m = 1 in the singular.
    const single = pmseAssumptions(readPmseSettings({ chains: 2 }, schema), 2);
    expect(single.some((s) => s.startsWith('A chain provides'))).toBe(false);
    expect(single.join(' ')).toMatch(/over m = 1 synthetic dataset made from/);
    const exhaustive = pmseAssumptions(readPmseSettings({ treeDepth: '1' }, schema), 1);
    expect(exhaustive[0]).toMatch(/^The quality u\(X, θ\) is the pMSE of the best single split/);
    const greedySentences = pmseAssumptions(readPmseSettings({ treeDepth: '5', cp: 0.02 }, schema), 1);
    expect(greedySentences[0]).toMatch(/here \(depth 5, cp 0\.02\) are fitted greedily/);
    expect(greedySentences.join(' ')).toMatch(/Snoke & Slavković 2018, Theorem 2, proof, eq\. 8/);
  });

  it('reads bounds only when declared or learned with DP', () => {
    const read = pmseSchemaRead({
      version: 1,
      missing: [],
      columns: [
        { name: 'a', type: 'numeric', bounds: [0, 1], source: 'declared' },
        { name: 'b', type: 'numeric', bounds: [2, 3], source: 'inferred' },
        { name: 'c', type: 'categorical', categories: ['u'], source: 'inferred' },
      ],
    });
    expect(read.columns[0]).toEqual({ name: 'a', type: 'numeric', bounds: [0, 1], source: 'declared' });
    expect(read.columns[1]!.type === 'numeric' && read.columns[1]!.bounds).toBeUndefined();
    expect(read.columns[2]).toEqual({
      name: 'c',
      type: 'categorical',
      categories: ['u'],
      source: 'inferred',
    });
  });
});

describe('pMSE describe and the tempered start', () => {
  it('gives the parameter count by column and the public concentration warning', () => {
    const plan = planPmseMechanism(schema, {}, context());
    expect(describePmsePlan(plan, context({ n: 5000, epsilon: '10' }))).toEqual([
      'Synthesis model: 5 parameters (θ), in column order: x1 2, x2 3.',
    ]);
    // ε = 0.1, n = 100, proven Δu = 1/200: ε/(2Δu) = 10 < 100 → the warning.
    const lines = describePmsePlan(plan, context({ n: 100, epsilon: '0.1' }));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^Each release gets ε = 0\.1 with n = 100: .* \(ε·n\/releases is 10\.0; aim for 100/,
    );
    expect(describePmsePlan(planPmseMechanism(schema, { columnOrder: 'x9' }, context()), context())).toEqual(
      [],
    );
  });

  it('starts burn-in at the scale max(300, 60·k) when ε/(2Δu) is larger, else at 1', () => {
    // ε = 10, Δu = 1/2000: ε/(2Δu) = 10,000; k = 5 → scale 300, inverse temperature 0.03.
    expect(initialInverseTemperature(10, 1 / 2000, 5)).toBeCloseTo(0.03, 15);
    // k = 10 → scale 600: 0.06.
    expect(initialInverseTemperature(10, 1 / 2000, 10)).toBeCloseTo(0.06, 15);
    // ε/(2Δu) = 100 < 300: no tempering.
    expect(initialInverseTemperature(1, 1 / 200, 5)).toBe(1);
  });

  it('counts the draws a run’s chains offer a sweep: chains·(⌊(steps − 1)/thinning⌋ + 1)', () => {
    expect(pmseMechanismMeta.sweepRepeatsPerRun!({ chains: 3, steps: 101, thinning: 50 })).toBe(9);
    expect(pmseMechanismMeta.sweepRepeatsPerRun!({ chains: 2, steps: 100, thinning: 50 })).toBe(4);
  });

  it('reads the quality function from the depth label', () => {
    expect(pmseQualityOf(readPmseSettings({}, schema))).toEqual(grid);
    expect(pmseQualityOf(readPmseSettings({ treeDepth: '1' }, schema))).toEqual(stump);
    expect(pmseQualityOf(readPmseSettings({ treeDepth: '2', cp: 0.01 }, schema))).toEqual(greedy(2));
  });
});

describe('pMSE plan edges', () => {
  it('a bad column order is reported once, and no model is built from it', () => {
    const plan = planPmseMechanism(schema, { columnOrder: 'x2' }, context());
    expect(plan.problems).toEqual(['Column order leaves out `x1`.']);
    expect(plan.model).toBeUndefined();
  });

  it('plans without a context (the studio checks a schema before the data is loaded)', () => {
    const plan = planPmseMechanism(schema, {});
    expect(plan.problems).toEqual([]);
    expect(plan.model?.parameterCount).toBe(5);
  });

  it('a categorical column without categories is a problem of the plan, not an exception', () => {
    const noCategories: Schema = {
      version: 1,
      missing: [],
      columns: [{ name: 'c', type: 'categorical', source: 'declared' }],
    };
    const plan = planPmseMechanism(noCategories, {}, context({ schema: noCategories }));
    expect(plan.model).toBeUndefined();
    expect(plan.problems).toHaveLength(1);
    expect(plan.problems[0]).toMatch(/`c`/);
  });

  it('describes only the model when the budget cannot be read', () => {
    const plan = planPmseMechanism(schema, {}, context());
    expect(describePmsePlan(plan, context({ n: 100, epsilon: 'not a number' }))).toEqual([
      'Synthesis model: 5 parameters (θ), in column order: x1 2, x2 3.',
    ]);
  });

  it('the claim lists the facts read from the data first, then the mechanism’s own sentences', () => {
    const inferred: Schema = {
      version: 1,
      missing: [],
      columns: [
        { name: 'x1', type: 'numeric', bounds: [0, 1], source: 'inferred' },
        { name: 'x2', type: 'numeric', source: 'declared' },
      ],
    };
    const claim = pmseMechanismMeta.claim({}, context({ schema: inferred }));
    const own = pmseAssumptions(readPmseSettings({}, inferred), 1);
    expect(claim.assumptions.slice(-own.length)).toEqual(own);
    // The inferred bounds of x1 are not read (pmseSchemaRead), so no sentence names them.
    expect(claim.assumptions.join(' ')).not.toMatch(/bounds of `x1`/);
  });

  it('keeps the part sources of a column that states no bounds', () => {
    const column = {
      name: 'c',
      type: 'categorical' as const,
      categories: ['a'],
      source: 'inferred' as const,
      sources: { categories: 'declared' as const },
    };
    const read = pmseSchemaRead({ version: 1, missing: [], columns: [column] });
    expect(read.columns[0]).toBe(column);
  });
});

import { describe, expect, it } from 'vitest';
import type { Schema } from '../../table/types';
import { runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { modips } from '.';
import { modipsSettings } from './params';
import { GLOM_CELL_LIMIT } from './plan';

// Quick, exact checks of MODIPS's claims, checks and descriptions from public facts alone (no data
// read): the budget splits of plan.ts worked by hand as exact fractions, the refusals at their
// boundaries, the sentences of describe.

const normal = resolveParams(modips, { model: 'normal' });
const glom = resolveParams(modips, { model: 'glom' });

const numeric = (name: string, canBeMissing?: boolean) => ({
  name,
  type: 'numeric' as const,
  bounds: [0, 10] as [number, number],
  source: 'declared' as const,
  ...(canBeMissing === undefined ? {} : { canBeMissing }),
});
const schemaOf = (...columns: Schema['columns']): Schema => ({ version: 1, missing: [''], columns });

describe('modips normal model: budget per column', () => {
  it('a complete column has no missing count, and its mean and variance get half of ε/(M·p) each', () => {
    const schema = schemaOf(numeric('a', false), numeric('b'));
    const claim = modips.claim(normal, runContext(schema, 50, { epsilon: '2', releases: 1 }));
    // ε/(M·p) = 1 per column. a: 1/2 + 1/2. b: missing 1/10, mean and variance (1 − 1/10)/2 = 9/20.
    expect(claim.steps.map((step) => [step.what.split(',')[0], step.epsilon])).toEqual([
      ['mean x̄ on a grid of (c₁ − c₀)/(100·n)', 0.5],
      ['variance S² on a grid of (c₁ − c₀)²/(100·n)', 0.5],
      ['count of missing values (sensitivity 1)', 0.1],
      ['mean x̄ on a grid of (c₁ − c₀)/(100·n)', 0.45],
      ['variance S² on a grid of (c₁ − c₀)²/(100·n)', 0.45],
    ]);
    expect(claim.steps[1]!.what).toBe(
      'variance S² on a grid of (c₁ − c₀)²/(100·n), sensitivity (c₁ − c₀)²/n plus one grid step, column `a`, release 1 of 1',
    );
    expect(claim.steps[2]!.what).toBe('count of missing values (sensitivity 1), column `b`, release 1 of 1');
  });

  it('the missing share follows the parameter: 1/5 of a column’s ε at missingShare 0.2', () => {
    const schema = schemaOf(numeric('a'));
    const params = resolveParams(modips, { model: 'normal', missingShare: 0.2 });
    const claim = modips.claim(params, runContext(schema, 50, { epsilon: '1' }));
    expect(claim.steps.map((step) => step.epsilon)).toEqual([0.2, 0.4, 0.4]);
  });

  it('accepts 2 rows and refuses 1; refuses an empty schema and bounds that are not increasing', () => {
    const schema = schemaOf(numeric('a'));
    expect(modips.check(schema, normal, runContext(schema, 2))).toEqual([]);
    expect(modips.check(schema, normal, runContext(schema, 1))).toEqual([
      'model normal needs at least 2 rows; the table has 1.',
    ]);
    expect(modips.check(schemaOf(), normal, runContext(schemaOf(), 5))).toEqual([
      'the schema has no columns to synthesize.',
    ]);
    const flat = schemaOf({ ...numeric('a'), bounds: [3, 3] });
    expect(modips.check(flat, normal, runContext(flat, 5))).toEqual([
      'needs bounds for numeric column `a`: declare them in the schema.',
    ]);
  });

  it('describes the model in one sentence, singular for one column', () => {
    const one = schemaOf(numeric('a'));
    expect(modips.describe!(normal, runContext(one, 10))).toEqual([
      'Normal model: 1 numeric column, each with a noisy missing count, mean and variance per release; the ' +
        'synthetic values come from the posterior draw of (μ, σ²).',
    ]);
    const two = schemaOf(numeric('a'), numeric('b'));
    expect(modips.describe!(normal, runContext(two, 10))[0]).toMatch(/^Normal model: 2 numeric columns,/);
    expect(modips.describe!(normal, runContext(two, 1))).toEqual([]);
  });
});

describe('modips general location model: budget per release', () => {
  it('with every numeric column complete, ε/M goes in equal parts to the 1 + p + p(p + 1)/2 statistics', () => {
    const schema = schemaOf(numeric('x', false), numeric('y', false));
    const claim = modips.claim(glom, runContext(schema, 100, { epsilon: '3', releases: 1 }));
    // No missing count: 3 over 1 + 2 + 3 = 6 parts, 1/2 each.
    expect(claim.steps.map((step) => step.epsilon)).toEqual([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]);
    expect(claim.steps[0]!.what).toBe(
      'noisy counts of the 1-cell categorical cross-tabulation (sensitivity 2), release 1 of 1',
    );
    expect(claim.steps[1]!.what).toBe(
      'cell sums of `x` centred at the midpoint of its bounds, on a grid of (c₁ − c₀)/100, L1 sensitivity ' +
        'c₁ − c₀ plus two grid steps, release 1 of 1',
    );
  });

  it('the missing share goes to the columns that can be missing only', () => {
    const schema = schemaOf(numeric('x', false), numeric('y'));
    const claim = modips.claim(glom, runContext(schema, 100, { epsilon: '1', releases: 1 }));
    // Missing 1/10 to y alone; the rest 9/10 over 6 parts, 3/20 each.
    expect(claim.steps.map((step) => step.epsilon)).toEqual([0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.1]);
    expect(claim.steps[6]!.what).toBe('count of missing values of `y` (sensitivity 1), release 1 of 1');
  });

  it('accepts exactly K + p + 2 rows and a cross-tabulation of exactly the cell limit', () => {
    const schema = schemaOf(
      { name: 'g', type: 'categorical', categories: ['a', 'b'], canBeMissing: false, source: 'declared' },
      numeric('x'),
    );
    // K = 2 cells (complete column: no missing level), p = 1: 2 + 1 + 2 = 5 rows.
    expect(modips.check(schema, glom, runContext(schema, 5))).toEqual([]);
    expect(modips.check(schema, glom, runContext(schema, 4))).toEqual([
      'model glom needs at least K + p + 2 = 5 rows (K = 2 cells, p = 1 numeric columns) for the ' +
        'inverse-Wishart draw; the table has 4: synthesize fewer categorical columns or choose model loglinear.',
    ]);
    // 100 × 1000 = 100,000 cells, complete columns: at the limit, accepted.
    const atLimit = schemaOf(
      ...[100, 1000].map((levels, j) => ({
        name: `c${j}`,
        type: 'categorical' as const,
        categories: Array.from({ length: levels }, (_, i) => `v${i}`),
        canBeMissing: false,
        source: 'declared' as const,
      })),
      numeric('x'),
    );
    expect(GLOM_CELL_LIMIT).toBe(100_000);
    expect(modips.check(atLimit, glom, runContext(atLimit, 200_000))).toEqual([]);
  });

  it('describes the cells and columns, in the singular for one of each', () => {
    const schema = schemaOf(numeric('x'));
    expect(modips.describe!(glom, runContext(schema, 10))).toEqual([
      'General location model: 1 categorical cell (a missing-value level per column that can be missing ' +
        'included) and 1 numeric column; per release, noisy cell counts, cell sums, the pooled within-cell ' +
        'scatter and missing counts; the synthetic values are normal within each drawn cell, with one ' +
        'covariance for all cells.',
    ]);
  });
});

describe('modips settings', () => {
  it('reads the model, the prior and the missing share exactly, with defaults', () => {
    const defaults = modipsSettings({});
    expect(defaults.model).toBe('loglinear');
    expect(defaults.prior.toString()).toBe('1/2');
    expect(defaults.missingShare.toString()).toBe('1/10');
    const set = modipsSettings({ model: 'glom', prior: 2.5, missingShare: 0.25 });
    expect(set.model).toBe('glom');
    expect(set.prior.toString()).toBe('5/2');
    expect(set.missingShare.toString()).toBe('1/4');
    expect(modipsSettings({ model: 'normal' }).model).toBe('normal');
    expect(modipsSettings({ model: 'other' }).model).toBe('loglinear');
  });
});

describe('modips edges of the plan, describe and assumptions', () => {
  const loglinear = resolveParams(modips, { model: 'loglinear', bins: 4 });

  it('a model without numeric columns reserves nothing for them (no division by p = 0)', () => {
    const empty = schemaOf();
    expect(modips.claim(normal, runContext(empty, 10)).steps).toEqual([]);
    const categorical = schemaOf({
      name: 'g',
      type: 'categorical',
      categories: ['a', 'b'],
      source: 'declared',
    });
    expect(modips.claim(glom, runContext(categorical, 10)).steps).toEqual([]);
    // n = 2 with K = 3 cells: only the missing numeric column is refused, not the row count.
    expect(modips.check(categorical, glom, runContext(categorical, 2))).toEqual([
      'model glom needs at least one numeric column; for categorical columns only choose model loglinear.',
    ]);
  });

  it('glom refuses bounds that are not increasing; a schema is checked before n is known', () => {
    const flat = schemaOf({ ...numeric('x'), bounds: [4, 4] });
    expect(modips.check(flat, glom, runContext(flat, 50))).toEqual([
      'needs bounds for numeric column `x`: declare them in the schema.',
    ]);
    expect(modips.check(schemaOf(numeric('x')), glom)).toEqual([]);
  });

  it('describes the general location model in the plural for several cells and columns', () => {
    const schema = schemaOf(
      { name: 'g', type: 'categorical', categories: ['a', 'b'], source: 'declared' },
      numeric('x'),
      numeric('y'),
    );
    expect(modips.describe!(glom, runContext(schema, 100))[0]).toMatch(
      /^General location model: 3 categorical cells \(a missing-value level per column that can be missing included\) and 2 numeric columns;/,
    );
  });

  it('describes the log-linear model by its domain, with the noise warning when ε is known', () => {
    const schema = schemaOf(numeric('x'), {
      name: 'g',
      type: 'categorical',
      categories: ['a', 'b'],
      source: 'declared',
    });
    const plain = modips.describe!(loglinear, runContext(schema, 100, { epsilon: 'unreadable' }));
    expect(plain.length).toBeGreaterThan(0);
    expect(plain[0]).not.toMatch(/^General location model/);
    // 5 bins (4 and missing) × 3 levels = 15 cells against n = 10 rows at ε = 0.01: the noise dominates.
    const warned = modips.describe!(loglinear, runContext(schema, 10, { epsilon: '0.01' }));
    expect(warned.slice(0, plain.length)).toEqual(plain);
    expect(warned.length).toBeGreaterThan(plain.length);
  });

  it('states each model’s own sensitivities and post-processing in the claim', () => {
    const one = schemaOf(numeric('x'));
    const normalText = modips.claim(normal, runContext(one, 10)).assumptions.join('\n');
    expect(normalText).toMatch(/\(c₁ − c₀\)\/n for x̄ and \(c₁ − c₀\)²\/n for S², each rounded to a grid/);
    expect(normalText).toMatch(/Columns are synthesized independently of each other/);
    expect(normalText).not.toMatch(/general location model/);
    const loglinearText = modips.claim(loglinear, runContext(one, 10)).assumptions.join('\n');
    expect(loglinearText).toMatch(/Noisy counts are clamped to \[0, n\] \(boundary inflated truncation\)/);
    expect(loglinearText).not.toMatch(/general location model|independently of each other/);
    const glomText = modips.claim(glom, runContext(one, 10)).assumptions.join('\n');
    expect(glomText).toMatch(/multivariate normal within each cell with one covariance for all cells/);
    expect(glomText).toMatch(/2 for the cell counts, c₁ − c₀ \(L1 over the cells\) for a column’s cell sums/);
  });
});

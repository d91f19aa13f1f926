import { describe, expect, it } from 'vitest';
import type { Schema } from '../table/types';
import { Accountant } from './accountant';
import { parseBudget } from './budget';
import { DOMAIN_STEP_PREFIX, SEEDED_DOMAIN_ASSUMPTION, withDomainSteps } from './domain-claim';
import { gdpClaim } from './gdp';
import { parseRational } from '../rng/rational';

const learned: Schema = {
  version: 1,
  missing: [''],
  columns: [
    { name: 'age', type: 'numeric', bounds: [15, 100], integer: true, source: 'dp' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M', '(other)'], other: '(other)', source: 'dp' },
  ],
  domainBudget: {
    epsilon: '0.3',
    delta: '0.000001',
    learnedAt: '2026-01-01T00:00:00Z',
    steps: [
      { fact: 'age.type', what: 'type of `age`', epsilon: '0.05', delta: '0' },
      { fact: 'age.lower', what: 'lower bound of `age`', epsilon: '0.05', delta: '0' },
      { fact: 'age.upper', what: 'upper bound of `age`', epsilon: '0.05', delta: '0' },
      { fact: 'age.integer', what: 'whole-number flag of `age`', epsilon: '0.05', delta: '0' },
      { fact: 'sex.type', what: 'type of `sex`', epsilon: '0.025', delta: '0.000001' },
      { fact: 'sex.categories', what: 'categories of `sex`', epsilon: '0.075', delta: '0' },
    ],
  },
};

function pureClaim(epsilon: string) {
  const accountant = new Accountant(parseBudget(epsilon));
  accountant.reserve('noisy counts', parseRational(epsilon));
  return accountant.claim(['an assumption']);
}

describe('withDomainSteps', () => {
  it('adds the domain steps first and sums the totals exactly (0.7 + 0.3 = 1, δ = 1e−6)', () => {
    const claim = withDomainSteps(pureClaim('0.7'), learned);
    expect(claim.notion).toBe('approx-dp');
    expect(claim.epsilon).toBe(1);
    expect(claim.delta).toBe(0.000001);
    expect(claim.steps.map((s) => s.what)).toEqual([
      ...learned.domainBudget!.steps.map((s) => DOMAIN_STEP_PREFIX + s.what),
      'noisy counts',
    ]);
    expect(claim.steps[4]).toEqual({
      what: `${DOMAIN_STEP_PREFIX}type of \`sex\``,
      epsilon: 0.025,
      delta: 0.000001,
    });
    // The claim equals the sum of its steps.
    const sum = claim.steps.reduce((s, step) => s + step.epsilon, 0);
    expect(sum).toBeCloseTo(claim.epsilon, 12);
    expect(claim.composedOf).toEqual({
      domain: { epsilon: 0.3, delta: 0.000001 },
      mechanism: { notion: 'pure-dp', epsilon: 0.7, delta: 0 },
    });
    expect(claim.assumptions[0]).toBe('an assumption');
    expect(claim.assumptions[1]).toMatch(/learned from this data with ε = 0\.3, δ = (1e-6|0\.000001)/);
  });

  it('stays pure when the domain steps spent no δ, and rounds the total up', () => {
    const pure: Schema = {
      ...learned,
      columns: [learned.columns[0]!],
      domainBudget: {
        ...learned.domainBudget!,
        epsilon: '0.0000001',
        delta: '0',
        steps: [{ fact: 'age.upper', what: 'upper', epsilon: '0.0000001', delta: '0' }],
      },
    };
    const claim = withDomainSteps(pureClaim('0.333333'), pure);
    expect(claim.notion).toBe('pure-dp');
    // 0.333333 + 1e−7 = 0.3333331 → 6 digits, up: 0.333334.
    expect(claim.epsilon).toBe(0.333334);
  });

  it('states a GDP mechanism part as approx-dp in total, keeping its μ in composedOf', () => {
    const gdp = gdpClaim({ steps: [{ what: 'Gaussian', mu: 0.5 }], delta: 1e-5, assumptions: [] });
    const claim = withDomainSteps(gdp, learned);
    expect(claim.notion).toBe('approx-dp');
    expect(claim.mu).toBeUndefined();
    expect(claim.composedOf!.mechanism).toMatchObject({ notion: 'gdp', mu: gdp.mu, epsilon: gdp.epsilon });
    const at = (x: number | string) => parseRational(x);
    expect(at(claim.epsilon).compare(at(gdp.epsilon).add(at('0.3')))).toBeGreaterThanOrEqual(0);
    expect(at(claim.delta).compare(at(gdp.delta).add(at('1e-6')))).toBeGreaterThanOrEqual(0);
  });

  it('leaves a claim alone when nothing was learned or when it is already composed', () => {
    const plain = pureClaim('1');
    const { domainBudget: _d, ...declared } = learned;
    expect(withDomainSteps(plain, declared)).toBe(plain);
    const once = withDomainSteps(plain, learned);
    expect(withDomainSteps(once, learned)).toBe(once);
  });

  it('says when the facts were learned with a seed', () => {
    const seeded: Schema = { ...learned, domainBudget: { ...learned.domainBudget!, seeded: true } };
    expect(withDomainSteps(pureClaim('1'), seeded).assumptions).toContain(SEEDED_DOMAIN_ASSUMPTION);
    expect(withDomainSteps(pureClaim('1'), learned).assumptions).not.toContain(SEEDED_DOMAIN_ASSUMPTION);
  });
});

describe('withDomainSteps wording and parts', () => {
  it('states the composition in one sentence after the mechanism’s own assumptions', () => {
    const claim = withDomainSteps(pureClaim('1'), learned);
    expect(claim.assumptions).toEqual([
      'an assumption',
      'The schema\'s facts marked "dp" were learned from this data with ε = 0.3, δ = 0.000001 (the steps ' +
        '"learning the domain: …"); the total adds them to the mechanism\'s ε = 1 by sequential composition.',
    ]);
    expect(claim.steps[0]).toEqual({ what: `${DOMAIN_STEP_PREFIX}type of \`age\``, epsilon: 0.05 });
    expect(claim.steps[4]).toEqual({
      what: 'learning the domain: type of `sex`',
      epsilon: 0.025,
      delta: 1e-6,
    });
  });

  it('keeps an approximate mechanism approximate even when the domain spent no δ', () => {
    const pureDomain: Schema = {
      ...learned,
      domainBudget: {
        ...learned.domainBudget!,
        steps: [{ fact: 'age.upper', what: 'upper', epsilon: '0.1', delta: '0' }],
      },
    };
    const accountant = new Accountant(parseBudget('1', '1e-6'));
    accountant.reserve('noisy counts', parseRational('0.5'), parseRational('1e-6'));
    const claim = withDomainSteps(accountant.claim([]), pureDomain);
    expect(claim.notion).toBe('approx-dp');
    expect(claim.composedOf).toStrictEqual({
      domain: { epsilon: 0.1, delta: 0 },
      mechanism: { notion: 'approx-dp', epsilon: 0.5, delta: 1e-6 },
    });
  });

  it('keeps a zCDP mechanism’s ρ in its part only', () => {
    const zcdp = { ...pureClaim('1'), notion: 'approx-dp' as const, delta: 1e-6, rho: 0.02 };
    const claim = withDomainSteps(zcdp, learned);
    expect(claim.rho).toBeUndefined();
    expect(claim.composedOf!.mechanism).toStrictEqual({
      notion: 'approx-dp',
      epsilon: 1,
      delta: 1e-6,
      rho: 0.02,
    });
    expect('mu' in claim.composedOf!.mechanism).toBe(false);
  });
});

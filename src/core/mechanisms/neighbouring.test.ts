/**
 * The neighbouring relation as a run setting: which mechanisms accept add/remove, what their runs
 * through the registry charge and claim under it, the row count estimates that replace n, and the
 * conversions a claim states for the other relation.
 */
import { describe, expect, it } from 'vitest';
import { Accountant } from '../privacy/accountant';
import { parseBudget } from '../privacy/budget';
import { PrivacyMeter } from '../privacy/meter';
import { otherRelationSentence } from '../privacy/relation-conversion';
import { Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { InputError } from '../table/errors';
import { aimReplaceOneRho, planAimBudget } from './aim/budget-plan';
import { minimumVarianceTotal, syntheticRowsFromEstimate } from './common/graphical-models/estimated-total';
import {
  positiveNoiseMean,
  rowsFromNoisySum,
  rowsFromNoisySums,
} from './common/noisy-counts/noisy-row-count';
import { mixedTable, runContext } from './common/testing/fixtures';
import { mstReplaceOneRho, mstStepCosts, planMstBudget } from './mst/budget-plan';
import { planMstDomain } from './mst/meta';
import { zcdpAccountantFor } from './common/graphical-models/pgm-budget';
import { pgmBinPlan } from './common/graphical-models/pgm-quantile-step';
import { roundUpRational } from '../privacy/round-up';
import { binningRows, publicRows, relationProblems } from './neighbouring';
import { resolveParams } from './params';
import { getMechanism, MECHANISMS } from './registry';
import type { RunContext } from './types';

const N = 200;
const { table, schema } = mixedTable(N);
const SUPPORTING = ['mst', 'aim', 'dp-marginals', 'laplace-histogram'];
const addRemove = (id: string, overrides: Partial<RunContext> = {}): RunContext =>
  runContext(schema, N, {
    epsilon: '1',
    delta: id === 'mst' || id === 'aim' ? '1e-6' : 0,
    rng: new SeededRng(7),
    neighbouring: 'add-remove',
    ...overrides,
  });

describe('which mechanisms run under add/remove', () => {
  it('the four supporting ones pass check; every other refuses with the reason, before its own checks', () => {
    for (const mechanism of MECHANISMS) {
      const problems = mechanism.check(schema, resolveParams(mechanism, {}), addRemove(mechanism.id));
      if (SUPPORTING.includes(mechanism.id)) {
        expect(problems, mechanism.id).toEqual([]);
      } else {
        expect(problems[0], mechanism.id).toMatch(/runs only with replace-one neighbours/);
      }
    }
  });

  it('an unsupported relation is refused by run and claim too (InputError), nothing drawn', async () => {
    const pmse = getMechanism('pmse-mechanism')!;
    const ctx = addRemove('pmse-mechanism');
    expect(() => pmse.claim(resolveParams(pmse, {}), ctx)).toThrow(InputError);
    await expect(pmse.run(table, schema, resolveParams(pmse, {}), ctx)).rejects.toThrow(/replace-one/);
  });

  it('a schema with facts learned with DP is refused under add/remove (they were accounted under replace-one)', () => {
    const learned = {
      ...schema,
      domainBudget: { steps: [{ what: 'bounds of age', epsilon: '0.1', delta: '0' }] },
    };
    expect(
      relationProblems({ id: 'mst', supportsNeighbouring: ['replace-one', 'add-remove'] }, learned as never, {
        neighbouring: 'add-remove',
      }),
    ).toEqual([expect.stringMatching(/learned with DP/)]);
  });

  it('a meter under another relation than the context is an internal error', async () => {
    const mst = getMechanism('mst')!;
    await expect(
      mst.run(
        table,
        schema,
        resolveParams(mst, {}),
        addRemove('mst', { meter: new PrivacyMeter('replace-one') }),
      ),
    ).rejects.toThrow(/meter is for replace-one/);
  });

  it('plans read no n under add/remove: publicRows is undefined and the binning uses 1,000 rows', () => {
    expect(publicRows({ n: 123, neighbouring: 'add-remove' })).toBeUndefined();
    expect(publicRows({ n: 123 })).toBe(123);
    expect(binningRows({ n: 123, neighbouring: 'add-remove' })).toBe(1000);
    // The claim and the describe sentences are the same whatever n under add/remove.
    for (const id of SUPPORTING) {
      const mechanism = getMechanism(id)!;
      const params = resolveParams(mechanism, {});
      const at = (n: number) => ({ ...addRemove(id), n });
      expect(JSON.stringify(mechanism.claim(params, at(50))), id).toBe(
        JSON.stringify(mechanism.claim(params, at(50_000))),
      );
      expect(mechanism.describe?.(params, at(50)) ?? [], id).toEqual(
        mechanism.describe?.(params, at(50_000)) ?? [],
      );
    }
  });
});

describe('runs through the registry under add/remove', () => {
  for (const id of SUPPORTING) {
    it(`${id}: every step charged exactly its plan (run and runInBlocks), the claim says add-remove and converts`, async () => {
      const mechanism = getMechanism(id)!;
      for (const form of ['run', 'runInBlocks'] as const) {
        const meter = new PrivacyMeter('add-remove');
        const release = await mechanism[form]!(
          table,
          schema,
          resolveParams(mechanism, {}),
          addRemove(id, { meter }),
        );
        expect(meter.steps().every((s) => s.settled() && s.charges() > 0)).toBe(true);
        expect(meter.steps().every((s) => s.neighbouring === 'add-remove')).toBe(true);
        expect(release.claim.neighbouring).toBe('add-remove');
        expect(release.claim.otherRelation).toMatch(/^Under replace-one neighbours/);
        // The claim before the run is the run's claim.
        expect(mechanism.claim(resolveParams(mechanism, {}), addRemove(id))).toEqual(release.claim);
      }
    });
  }

  it('under replace-one the claim says replace-one and that it implies nothing about presence', async () => {
    const mst = getMechanism('mst')!;
    const release = await mst.run(
      table,
      schema,
      resolveParams(mst, {}),
      runContext(schema, N, { delta: '1e-6' }),
    );
    expect(release.claim.neighbouring).toBe('replace-one');
    expect(release.claim.otherRelation).toMatch(/implies nothing/);
  });

  it('MST and AIM draw the estimated number of rows, not n (a DP estimate near n at ε = 10)', async () => {
    for (const id of ['mst', 'aim']) {
      const mechanism = getMechanism(id)!;
      const rows: number[] = [];
      for (let seed = 0; seed < 3; seed++) {
        const release = await mechanism.run(
          table,
          schema,
          resolveParams(mechanism, {}),
          addRemove(id, { epsilon: '10', rng: new SeededRng(seed) }),
        );
        rows.push(release.datasets[0]!.nRows);
      }
      // At ε = 10, δ = 1e-6 the one-way σ is under 3 per cell (≤ 30 cells a column): the estimate is
      // within ±30 of n with overwhelming probability, and the three draws are not all n.
      expect(
        rows.every((r) => Math.abs(r - N) <= 30),
        `${id} ${rows}`,
      ).toBe(true);
      expect(
        rows.some((r) => r !== N),
        `${id} ${rows}`,
      ).toBe(true);
    }
  });
});

describe('sensitivities under add/remove', () => {
  it('MST: σ² half the replace-one σ² at the same ρ, same selection ε, the same three ρ shares', () => {
    const rho = Rational.of(3, 10);
    const replace = planMstBudget(rho, 5, 'replace-one');
    const add = planMstBudget(rho, 5, 'add-remove');
    expect(add.oneWaySigma2.mul(Rational.of(2)).equals(replace.oneWaySigma2)).toBe(true);
    expect(add.twoWaySigma2.mul(Rational.of(2)).equals(replace.twoWaySigma2)).toBe(true);
    expect(add.selectionEpsilon.equals(replace.selectionEpsilon)).toBe(true);
    const costs = mstStepCosts(add, 5);
    expect(costs.oneWays.equals(rho.div(Rational.of(3)))).toBe(true);
    expect(costs.twoWays.equals(rho.div(Rational.of(3)))).toBe(true);
    // Under replace-one: histograms ×2, selections ×4 → 2/3·ρ + 4·sel + 2/3·ρ, sel ≤ ρ/3.
    const converted = mstReplaceOneRho(add, 5);
    expect(converted.equals(Rational.of(4, 3).mul(rho).add(Rational.of(4).mul(costs.selection)))).toBe(true);
    expect(converted.compare(Rational.of(8, 3).mul(rho))).toBeLessThanOrEqual(0);
  });

  it('MST with quantile bins: the replace-one sentence adds the binning step (edges as they are, point-mass counts ×2)', () => {
    const mst = getMechanism('mst')!;
    const params = resolveParams(mst, { binning: 'quantile', bins: 6 });
    const context = addRemove('mst');
    const claim = mst.claim(params, context);
    // The parts by hand: the binning step planned under add/remove, then MST's three steps on the rest.
    const rhoBudget = zcdpAccountantFor(context, 'mst').rhoBudget;
    const domain = planMstDomain(schema, params, context);
    const bins = pgmBinPlan(rhoBudget, domain, 'add-remove')!;
    expect(bins.draws).toBeGreaterThan(0);
    expect(bins.detections).toBeGreaterThan(0);
    const edgeRho = bins.epsilonPerEdge
      .mul(bins.epsilonPerEdge)
      .div(Rational.of(8))
      .mul(Rational.of(bins.draws));
    const detectionRho = bins.rho.sub(edgeRho);
    expect(detectionRho.isPositive()).toBe(true);
    const d = domain.sizes.length;
    const own = mstStepCosts(planMstBudget(rhoBudget.sub(bins.rho), d, 'add-remove'), d);
    const mstOnly = Rational.of(2).mul(own.oneWays.add(own.twoWays)).add(Rational.of(4).mul(own.selection));
    const expected = mstOnly.add(edgeRho).add(Rational.of(2).mul(detectionRho));
    expect(claim.otherRelation).toContain(`ρ = ${roundUpRational(expected)}-zCDP`);
    // Leaving the binning step out (the sentence's former value) prints a smaller ρ.
    expect(roundUpRational(mstOnly)).toBeLessThan(roundUpRational(expected));
    expect(claim.otherRelation).not.toContain(`ρ = ${roundUpRational(mstOnly)}-zCDP`);
    expect(claim.otherRelation).toMatch(/point-mass counts’ ρ doubles/);
  });

  it('AIM: σ² = T/(2sρ) under add/remove; the replace-one bound is 2ρ₀ + (4 − 2s)·ρ_rounds', () => {
    const rho = Rational.of(1, 2);
    const plan = planAimBudget(rho, 4, 64, 0.9, 'add-remove');
    expect(plan.sigma2.equals(Rational.of(64).div(Rational.of(2).mul(Rational.of(9, 10)).mul(rho)))).toBe(
      true,
    );
    const adaptive = rho.sub(plan.oneWayRho);
    expect(
      aimReplaceOneRho(plan, adaptive).equals(
        Rational.of(2).mul(plan.oneWayRho).add(Rational.of(22, 10).mul(adaptive)),
      ),
    ).toBe(true);
  });

  it('Accountant: a by-value parallel step costs max εᵢ under add/remove, 2·max under replace-one', () => {
    const parts = [{ epsilon: Rational.of(1, 4) }, { epsilon: Rational.of(1, 2) }];
    const under = (relation: 'replace-one' | 'add-remove') => {
      const accountant = new Accountant(parseBudget('2', 0), new PrivacyMeter(relation));
      accountant.reserveParallel('cells', parts);
      return accountant.spent().epsilon.toString();
    };
    expect(under('add-remove')).toBe('1/2');
    expect(under('replace-one')).toBe('1');
  });
});

describe('row counts estimated under add/remove (post-processing)', () => {
  it('minimum-variance total: Σ(Tᵢ/vᵢ)/Σ(1/vᵢ) with vᵢ = cellsᵢ·σ²', () => {
    // T = 10 over 1 cell (v = 4) and T = 16 over 3 cells (v = 12): (10/4 + 16/12)/(1/4 + 1/12) = 11.5.
    const total = minimumVarianceTotal([
      { y: Float64Array.of(10), sigma2: 4 },
      { y: Float64Array.of(5, 5, 6), sigma2: 4 },
    ]);
    expect(total).toBeCloseTo(11.5, 12);
    expect(syntheticRowsFromEstimate(-3)).toBe(1);
    expect(syntheticRowsFromEstimate(11.5)).toBe(12);
  });

  it('E[max(Z, 0)] = a/(1 − a²) for the discrete Laplace (checked against the sum of its pmf)', () => {
    for (const t of [0.5, 1, 4]) {
      const a = Math.exp(-1 / t);
      let direct = 0;
      for (let z = 1; z < 2000; z++) direct += (z * (1 - a) * a ** z) / (1 + a);
      expect(positiveNoiseMean(t)).toBeCloseTo(direct, 12);
    }
    expect(positiveNoiseMean(1)).toBeCloseTo(0.4255, 4);
  });

  it('the histograms’ row count: Σw − K·E[max(Z, 0)], rounded, at least 0; several marginals weighted 1/K', () => {
    const mean = positiveNoiseMean(1);
    expect(rowsFromNoisySum({ weights: [100, 3], cells: 10, scale: 1 })).toBe(Math.round(103 - 10 * mean));
    expect(rowsFromNoisySum({ weights: [1], cells: 1000, scale: 1 })).toBe(0);
    const rows = rowsFromNoisySums([
      { weights: [50], cells: 2, scale: 1 },
      { weights: [60], cells: 4, scale: 1 },
    ]);
    expect(rows).toBe(Math.round(((50 - 2 * mean) / 2 + (60 - 4 * mean) / 4) / (1 / 2 + 1 / 4)));
  });
});

describe('conversions to the other relation', () => {
  it('pure ε under add/remove is 2ε under replace-one, rounded up', () => {
    expect(otherRelationSentence('add-remove', { notion: 'pure-dp', epsilon: Rational.of(1, 3) })).toMatch(
      /ε = 0\.666667-DP/,
    );
  });

  it('(ε, δ) under add/remove is (2ε, (1 + e^ε)·δ) under replace-one', () => {
    const sentence = otherRelationSentence('add-remove', {
      notion: 'approx-dp',
      epsilon: Rational.ONE,
      delta: Rational.of(1, 1_000_000),
    });
    // (1 + e)·10⁻⁶ = 3.71828…·10⁻⁶, rounded up to 6 digits.
    expect(sentence).toMatch(/\(ε = 2, δ = 0\.00000371829\)-DP/);
  });

  it('replace-one implies nothing about presence', () => {
    expect(otherRelationSentence('replace-one')).toMatch(/implies nothing/);
  });
});

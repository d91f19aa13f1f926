import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../privacy/budget';
import { recordingStep } from '../../privacy/metered/testing';
import { roundUpRational } from '../../privacy/round-up';
import { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import { sampleExponentialMechanismBig } from '../../rng/exponential-mechanism';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { InputError } from '../../table/errors';
import type { Schema } from '../../table/types';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { aim } from '.';
import {
  aimReplaceOneRho,
  AimRoundSchedule,
  finalRound,
  planAimBudget,
  refitIterations,
  RhoLedger,
  roundRho,
} from './budget-plan';
import { planAim } from './meta';
import { aimScore } from './score';
import { selectMarginal } from './select-marginal';
import { candidatesOf, planWorkload } from './workload';

// Quick, exact tests of what AIM plans, reserves and states before any data is read.

const { schema } = mixedTable(10);
const ctx = runContext(schema, 1000, { epsilon: '1', delta: '1e-9' });
const addRemove = { ...ctx, neighbouring: 'add-remove' as const };
// 6 bins: age and income have 7 levels (6 bins + missing), sex 3 (F, M, missing); d = 3, T = 16·3 = 48.
const params = resolveParams(aim, { bins: 6 });
const rho = ZcdpAccountant.forBudget(parseBudget('1', '1e-9')).rhoBudget;
// ρ₀ = d·Δ₂²/(2σ²) with σ² = T·Δ₂²/(2·0.9ρ): ρ₀ = 0.9ρ·d/T = 0.9ρ·3/48 under either relation.
const oneWayRho = Rational.of(9, 10).mul(rho).mul(Rational.of(3, 48));

describe('AIM claim, step by step', () => {
  it('replace-one: ρ₀ for the one-ways, the rest for the rounds, sensitivity 2 × the largest weight', () => {
    const claim = aim.claim(params, ctx);
    expect(claim.rho).toBe(roundUpRational(rho));
    expect(claim.steps.map((step) => step.rho)).toEqual([
      roundUpRational(oneWayRho),
      roundUpRational(rho.sub(oneWayRho)),
    ]);
    // σ = √(48/(0.9ρ)) = 59.68 (rounded down), ε = √(0.8ρ/48) = 0.0157972 (rounded up): aim.test.ts's describe.
    expect(claim.steps.map((step) => step.what)).toEqual([
      'one-way histograms of the 3 columns, discrete Gaussian noise with σ = 59.68 on every cell',
      'adaptive rounds until this share is spent, each choosing a marginal with the exponential mechanism ' +
        '(ε = 0.0157972 at first, doubled when the model stops improving; sensitivity 2 × the largest candidate ' +
        'weight) and measuring it with discrete Gaussian noise (σ = 59.68 at first, halved with ε); the last round ' +
        'spends what is left',
    ]);
    expect(claim.assumptions.slice(-4)).toEqual([
      'The budget is composed in zero-concentrated DP (ρ) and stated as (ε, δ) by the conversion of Canonne, ' +
        'Kamath & Steinke 2020 (Corollary 13). Sensitivities are for replacing one row: √2 in L2 for a histogram ' +
        '(ρ = 1/σ² per histogram), 2 × the candidate weight for a weighted L1 score.',
      'The rounds choose their noise, their ε and when to stop from earlier outputs, and never spend past the ' +
        'share reserved for them: fully adaptive composition of zCDP under a privacy filter (Feldman & Zrnic 2021; ' +
        'as OpenDP’s AIM).',
      'Each exponential-mechanism round is ε-DP with bounded range, hence ε²/8-zCDP (Cesar & Rogers 2021); it is ' +
        'sampled exactly, with scores rounded to the grid 2^-20 so that the sensitivity holds exactly.',
      'All synthetic rows are drawn from one fitted model (post-processing): releases do not split the budget.',
    ]);
    expect(claim.otherRelation).toMatch(/implies nothing/);
    expect(aim.claim(params, { ...ctx, releases: 3 }).assumptions.at(-1)).toBe(
      'All 3 releases are drawn from one fitted model (post-processing): releases do not split the budget.',
    );
  });

  it('add/remove: σ² halved, sensitivity the largest weight, and the replace-one ρ 2ρ₀ + 2.2·(ρ − ρ₀)', () => {
    const claim = aim.claim(params, addRemove);
    expect(claim.neighbouring).toBe('add-remove');
    expect(claim.steps.map((step) => step.rho)).toEqual([
      roundUpRational(oneWayRho),
      roundUpRational(rho.sub(oneWayRho)),
    ]);
    // σ = √(48/(2·0.9ρ)) = 59.68/√2 = 42.2.
    expect(claim.steps.map((step) => step.what)).toEqual([
      'one-way histograms of the 3 columns, discrete Gaussian noise with σ = 42.2 on every cell',
      'adaptive rounds until this share is spent, each choosing a marginal with the exponential mechanism ' +
        '(ε = 0.0157972 at first, doubled when the model stops improving; sensitivity the largest candidate ' +
        'weight) and measuring it with discrete Gaussian noise (σ = 42.2 at first, halved with ε); the last round ' +
        'spends what is left',
    ]);
    expect(claim.assumptions).toContain(
      'The budget is composed in zero-concentrated DP (ρ) and stated as (ε, δ) by the conversion of Canonne, ' +
        'Kamath & Steinke 2020 (Corollary 13). Sensitivities are for adding or removing one row: 1 in L2 for a ' +
        'histogram (ρ = 1/(2σ²) per histogram), the candidate weight for a weighted L1 score.',
    );
    expect(claim.assumptions.join(' ')).toContain(
      'nothing reads it but the model’s total and the synthetic row count, the minimum-variance estimate of the ' +
        'total from the d noisy one-way histograms (at least 1), post-processing of the noisy histograms',
    );
    // Under replace-one the one-ways double and the rounds grow at most (4 − 2·0.9) = 2.2-fold.
    const replaceOne = Rational.of(2)
      .mul(oneWayRho)
      .add(Rational.of(22, 10).mul(rho.sub(oneWayRho)));
    expect(claim.otherRelation).toContain(`the same run is ρ = ${roundUpRational(replaceOne)}-zCDP`);
    expect(claim.otherRelation).toContain(
      'the one-way histograms’ ρ doubles (Δ₂² = 2 against 1); in the rounds measuring doubles and selecting ' +
        'quadruples (score sensitivity 2 against 1), and selecting is at most 1 − share of every round ' +
        '(share = 0.9 measures), so the rounds’ ρ grows at most (4 − 2·share) = 2.2-fold.',
    );
    // measureShare = 0.5: (4 − 1) = 3-fold.
    expect(aim.claim(resolveParams(aim, { bins: 6, measureShare: 0.5 }), addRemove).otherRelation).toContain(
      '(share = 0.5 measures), so the rounds’ ρ grows at most (4 − 2·share) = 3-fold.',
    );
  });

  it('the converted bound is only for a plan made under add/remove', () => {
    const plan = planAimBudget(rho, 3, 48, 0.9);
    expect(() => aimReplaceOneRho(plan, rho)).toThrow(RangeError);
    expect(() => aimReplaceOneRho(plan, rho)).toThrow('the plan is already under replace-one');
    // Under add/remove ρ₀ = d/(2σ²) = 0.9ρ·d/T as under replace-one.
    expect(planAimBudget(rho, 3, 48, 0.9, 'add-remove').oneWayRho.equals(oneWayRho)).toBe(true);
  });

  it('a plan with a problem is refused by the reservation, so no claim is made for it', () => {
    const tooFewRounds = resolveParams(aim, { rounds: 2 });
    expect(() => aim.claim(tooFewRounds, ctx)).toThrow(InputError);
    expect(() => aim.claim(tooFewRounds, ctx)).toThrow(
      'aim cannot run: rounds must be at least the number of columns (3); got 2.',
    );
    expect(aim.describe!(tooFewRounds, ctx)).toEqual([]);
  });
});

describe('AIM plan and check', () => {
  it('accepts rounds = d, takes rounds as given, and 16·d when 0', () => {
    expect(aim.check(schema, resolveParams(aim, { rounds: 3 }), ctx)).toEqual([]);
    expect(planAim(schema, resolveParams(aim, { rounds: 7 }), ctx).rounds).toBe(7);
    expect(planAim(schema, resolveParams(aim, { rounds: 0 }), ctx).rounds).toBe(48);
  });

  it('needs a row of data under replace-one; under add/remove n is not read', () => {
    expect(aim.check(schema, params, { ...ctx, n: 0 })).toEqual(['needs at least one row of data.']);
    expect(aim.check(schema, params, { ...addRemove, n: 0 })).toEqual([]);
  });

  it('reports the domain’s problem alone, before the workload is read', () => {
    const empty: Schema = { ...schema, columns: [] };
    const problems = planAim(empty, resolveParams(aim, { workload: 'nothing' }), ctx).problems;
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join(' ')).not.toMatch(/workload|rounds/);
  });

  it('keeps the settings the draw reads', () => {
    const plan = planAim(
      schema,
      resolveParams(aim, {
        measureShare: 0.6,
        maxIters: 33,
        maxModelSize: 2,
        maxCells: 77,
        sampling: 'round',
      }),
      ctx,
    );
    expect(plan.settings).toEqual({
      measureShare: 0.6,
      maxIters: 33,
      maxModelSize: 2,
      maxCells: 77,
      sampling: 'round',
    });
  });
});

describe('AIM describe', () => {
  it('lists at most five dropped marginals, in the plural', () => {
    // x1 … x4 have 4 categories (5 levels with the missing one), s one (2 levels): the six x pairs have
    // 25 cells, above maxCells = 20, and the four pairs with s 10 cells.
    const cat = (name: string, k: number) => ({
      name,
      type: 'categorical' as const,
      categories: Array.from({ length: k }, (_, i) => `${name}${i}`),
      source: 'declared' as const,
    });
    const wide: Schema = {
      ...schema,
      columns: [cat('x1', 4), cat('x2', 4), cat('x3', 4), cat('x4', 4), cat('s', 1)],
    };
    const facts = aim.describe!(resolveParams(aim, { degree: 2, maxCells: 20 }), { ...ctx, schema: wide });
    expect(facts[1]).toBe('Workload: 4 marginals, 9 candidates to measure (with their sub-marginals).');
    expect(facts[4]).toBe(
      '6 workload marginals have more than 20 cells and are dropped: x1 × x2; x1 × x3; x1 × x4; x2 × x3; x2 × x4; ….',
    );
    // Two columns of 199 categories: the pair has 200² = 40,000 cells, the candidates 40,400, 8 bytes
    // each: 323,200 bytes = 0.308 MB, shown to two digits.
    const big: Schema = { ...schema, columns: [cat('a', 199), cat('b', 199)] };
    const bigFacts = aim.describe!(resolveParams(aim, { maxCells: 40_000, maxModelSize: 2 }), {
      ...ctx,
      schema: big,
    });
    expect(bigFacts[2]).toBe(
      "Model: at most 2 MB (262,144 cells); working memory about 12 MB, plus 0.31 MB for the data's counts on the candidates (40,400 cells).",
    );
    expect(bigFacts).toHaveLength(4);
  });
});

describe('AIM rounds on the ledger', () => {
  // Round cost 1/σ² + ε²/8 = 1 + 4/8 = 1.5 with σ² = 1, ε = 2 under replace-one; 1/2 + 1/2 = 1 under add/remove.
  const start = { sigma2: Rational.ONE, epsilon: Rational.of(2), measureShare: Rational.of(1, 2) };

  it('a round with exactly twice its cost left is not the last; the next spends the rest', () => {
    const ledger = new RhoLedger(Rational.of(3));
    const schedule = new AimRoundSchedule(ledger, start);
    expect(schedule.nextRound()).toEqual({ sigma2: Rational.ONE, epsilon: Rational.of(2), last: false });
    expect(ledger.spent().equals(Rational.of(3, 2))).toBe(true);
    // The last round: ε = √(8·0.5·1.5) = √6 rounded down to 12 digits, the rest measures.
    const last = schedule.nextRound();
    expect(last.last).toBe(true);
    expect(last).toEqual({ ...finalRound(Rational.of(3, 2), Rational.of(1, 2)), last: true });
    expect(ledger.remaining().isZero()).toBe(true);
  });

  it('costs a round under the relation it was planned for', () => {
    const ledger = new RhoLedger(Rational.of(2));
    const schedule = new AimRoundSchedule(ledger, { ...start, neighbouring: 'add-remove' });
    expect(schedule.nextRound().last).toBe(false);
    expect(ledger.spent().equals(Rational.ONE)).toBe(true);
    expect(schedule.nextRound().last).toBe(true);
  });

  it('annealing quarters σ² and doubles ε for the next round', () => {
    const ledger = new RhoLedger(Rational.of(100));
    const schedule = new AimRoundSchedule(ledger, start);
    schedule.nextRound();
    schedule.anneal();
    // σ² = 1/4, ε = 4: 4 + 2 = 6, far from the last.
    expect(schedule.nextRound()).toEqual({ sigma2: Rational.of(1, 4), epsilon: Rational.of(4), last: false });
    expect(ledger.spent().equals(Rational.of(15, 2))).toBe(true);
  });

  it('the last round measures with σ² = Δ₂²/(2·what is left after selecting)', () => {
    // remaining 1, share 1/2: ε = √(8·½·1) = 2 exactly, selecting 4/8 = ½, measuring ½:
    // σ² = 2/(2·½) = 2 under replace-one, 1/(2·½) = 1 under add/remove.
    expect(finalRound(Rational.ONE, Rational.of(1, 2))).toEqual({
      epsilon: Rational.of(2),
      sigma2: Rational.of(2),
    });
    expect(finalRound(Rational.ONE, Rational.of(1, 2), 'add-remove')).toEqual({
      epsilon: Rational.of(2),
      sigma2: Rational.ONE,
    });
  });

  it('costs a round 1/σ² + ε²/8 unless told the relation is add/remove', () => {
    // σ² = 1, ε = 2: 1 + 4/8 = 3/2 under replace-one (the default), 1/2 + 4/8 = 1 under add/remove.
    expect(roundRho(Rational.ONE, Rational.of(2)).equals(Rational.of(3, 2))).toBe(true);
    expect(roundRho(Rational.ONE, Rational.of(2), 'add-remove').equals(Rational.ONE)).toBe(true);
  });

  it('a refit on no cell still runs maxIters iterations', () => {
    expect(refitIterations(1000, 0, false)).toBe(1000);
  });
});

describe('AIM selection', () => {
  const answer = Float64Array.of(5, 0, 3, 2);
  const candidates = [
    { answer, estimate: Float64Array.of(1, 1, 4, 4), weight: 3 },
    { answer, estimate: Float64Array.of(5, 0, 3, 2), weight: 1 },
    { answer, estimate: Float64Array.of(2.5, 2.5, 2.5, 2.5), weight: 2 },
  ];

  it('is the exponential mechanism on the grid scores with Δ = 2·max w grid units, charging ε²/8 once', () => {
    const epsilon = Rational.of(1, 2);
    const sigma = 0.7;
    const scores = candidates.map((c) => aimScore(c.answer, c.estimate, c.weight, sigma));
    // Δ = 2 × 3 (the largest weight) × 2^20 under replace-one.
    const delta = 2n * 3n * 2n ** 20n;
    let differs = false;
    for (let seed = 0; seed < 40; seed++) {
      const step = recordingStep();
      const pick = selectMarginal(step, new SeededRng(seed), candidates, sigma, epsilon);
      expect(pick).toBe(sampleExponentialMechanismBig(new SeededRng(seed), scores, epsilon, delta));
      expect(step.charges).toHaveLength(1);
      // With Δ from the smallest weight the draws differ for some seed: the test tells them apart.
      if (pick !== sampleExponentialMechanismBig(new SeededRng(seed), scores, epsilon, 2n * 2n ** 20n))
        differs = true;
    }
    expect(differs).toBe(true);
  });

  it('uses Δ = max w grid units under add/remove', () => {
    const epsilon = Rational.of(1, 2);
    const scores = candidates.map((c) => aimScore(c.answer, c.estimate, c.weight, 0.7));
    for (let seed = 0; seed < 20; seed++) {
      const pick = selectMarginal(
        recordingStep('zcdp', 'add-remove'),
        new SeededRng(seed),
        candidates,
        0.7,
        epsilon,
      );
      expect(pick).toBe(sampleExponentialMechanismBig(new SeededRng(seed), scores, epsilon, 3n * 2n ** 20n));
    }
  });
});

describe('AIM score', () => {
  it('is w·(‖answer − estimate‖₁ − √(2/π)·σ·cells) on the 2^-20 grid', () => {
    // L1 = 1 count = 2^20 units; bias √(2/π)·σ·cells·2^20 = 0.79788456·1·2·1,048,576 = 1,673,285.2,
    // rounded to 1,673,285; weight 3: 3·(1,048,576 − 1,673,285) = −1,874,127.
    expect(aimScore(Float64Array.of(1, 0), Float64Array.of(0, 0), 3, 1)).toBe(-1_874_127n);
  });
});

describe('AIM workload edges', () => {
  it('skips empty entries, and a workload of separators names no marginal', () => {
    const names = ['a', 'b', 'c'];
    expect(planWorkload(names, [2, 2, 2], 3, 100, ' ; ; ').problems).toEqual([
      'the workload names no marginal.',
    ]);
    expect(planWorkload(names, [2, 2, 2], 3, 100, 'a,b;;c').workload).toEqual([[0, 1], [2]]);
    // A degree above d takes every column.
    expect(planWorkload(['a', 'b'], [2, 2], 3, 100, '').workload).toEqual([[0, 1]]);
    // maxCells is inclusive: 2·2 = 4 cells kept at maxCells = 4.
    expect(planWorkload(['a', 'b'], [2, 2], 2, 4, '').workload).toEqual([[0, 1]]);
  });

  it('reads a blank workload as every degree-way marginal, and keeps no empty or extra entry', () => {
    expect(planWorkload(['a', 'b', 'c'], [2, 2, 2], 2, 100, '   ').workload).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    expect(planWorkload(['a', 'b'], [2, 2], 2, 100, 'zzz')).toEqual({
      workload: [],
      dropped: [],
      problems: ['workload entry "zzz" names `zzz`, which is not in the schema.'],
    });
    // a × b has 3·4 = 12 cells, above maxCells = 10, and `e` names nothing: the workload is empty, but
    // with a problem already stated no second one is added.
    expect(planWorkload(['a', 'b', 'c', 'd'], [3, 4, 5, 100], 3, 10, 'e; a,b')).toEqual({
      workload: [],
      dropped: [[0, 1]],
      problems: ['workload entry "e" names `e`, which is not in the schema.'],
    });
  });

  it('orders the candidates by size, then by their attributes', () => {
    expect(
      candidatesOf([
        [1, 2, 3],
        [0, 1, 2],
      ]).cliques,
    ).toEqual([[0], [1], [2], [3], [0, 1], [0, 2], [1, 2], [1, 3], [2, 3], [0, 1, 2], [1, 2, 3]]);
  });
});

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
import { mixedTable, recordingRng, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { mst } from '.';
import { mstReplaceOneRho, mstStepCosts, planMstBudget } from './budget-plan';
import { histogramSigma2, selectionRho } from '../../privacy/zcdp-costs';
import { epsilonInWords, sigmaInWords } from '../../privacy/in-words';
import { compressLevels, compressRows } from './compress-levels';
import { planMst, planMstDomain } from './meta';
import { restoreLevels } from './run-mst';
import { selectSpanningTree, type Pair } from './select-tree';

// Quick, exact tests of what MST plans, reserves and states before any data is read.

const { schema } = mixedTable(10);
const ctx = runContext(schema, 1000, { epsilon: '1', delta: '1e-9' });
const addRemove = { ...ctx, neighbouring: 'add-remove' as const };
// 6 bins: age and income have 7 levels (6 bins + missing), sex 3; d = 3.
const params = resolveParams(mst, { bins: 6 });
const rho = ZcdpAccountant.forBudget(parseBudget('1', '1e-9')).rhoBudget;
const third = rho.div(Rational.of(3));

describe('MST claim, step by step', () => {
  it('add/remove: σ² half the replace-one σ², sensitivity 1, and the replace-one ρ 4ρ/3 + 4·selection', () => {
    const claim = mst.claim(params, addRemove);
    expect(claim.neighbouring).toBe('add-remove');
    const plan = planMstBudget(rho, 3, 'add-remove');
    const selection = selectionRho(plan.selectionEpsilon).mul(Rational.of(2));
    expect(claim.steps.map((step) => step.rho)).toEqual([
      roundUpRational(third),
      roundUpRational(selection),
      roundUpRational(third),
    ]);
    // σ₁ = √(3·3/(2ρ)) = 17.33, σ₂ = √(3·2/(2ρ)) = 14.15 (rounded down); ε = √(8ρ/6) = 0.141295 (rounded up).
    expect(claim.steps.map((step) => step.what)).toEqual([
      'one-way histograms of the 3 columns, discrete Gaussian noise with σ = 17.33 on every cell',
      'choice of the 2 tree edges among the column pairs: 2 rounds of the exponential mechanism, ε = 0.141295 each, scoring each pair by the L1 error of the one-way model (sensitivity 1)',
      'two-way histograms of the 2 tree edges, discrete Gaussian noise with σ = 14.15 on every cell',
    ]);
    // Under replace-one: histograms ×2 (2·(ρ/3 + ρ/3)), selections ×4.
    const replaceOne = Rational.of(4).mul(third).add(Rational.of(4).mul(selection));
    expect(mstReplaceOneRho(plan, 3).equals(replaceOne)).toBe(true);
    expect(claim.otherRelation).toContain(`the same run is ρ = ${roundUpRational(replaceOne)}-zCDP`);
    expect(claim.otherRelation).toMatch(
      /by the same conversion: each histogram’s ρ doubles \(Δ₂² = 2 against 1\) and each selection round’s quadruples \(score sensitivity 2 against 1, \(2ε\)²\/8\)\.$/,
    );
    expect(claim.assumptions).toContain(
      'The budget is composed in zero-concentrated DP (ρ) and stated as (ε, δ) by the conversion of Canonne, Kamath & ' +
        "Steinke 2020 (Corollary 13). Sensitivities are for adding or removing one row: 1 in L2 for a histogram (ρ = 1/(2σ²) per histogram), 1 for a pair's L1 score.",
    );
    expect(claim.assumptions.join(' ')).toContain(
      'nothing reads it but the synthetic row count, the minimum-variance estimate of the total from the d noisy one-way histograms (at least 1), post-processing of the noisy histograms',
    );
  });

  it('replace-one: the assumptions name sensitivity 2 and the adaptive composition', () => {
    const claim = mst.claim(params, ctx);
    expect(claim.assumptions.slice(-4)).toEqual([
      'The budget is composed in zero-concentrated DP (ρ) and stated as (ε, δ) by the conversion of Canonne, Kamath & ' +
        "Steinke 2020 (Corollary 13). Sensitivities are for replacing one row: √2 in L2 for a histogram (ρ = 1/σ² per histogram), 2 for a pair's L1 score.",
      'Each exponential-mechanism round is ε-DP with bounded range, hence ε²/8-zCDP (Cesar & Rogers 2021); it is ' +
        'sampled exactly, with scores rounded to the grid 2^-20 so that the sensitivity holds exactly.',
      'Later steps depend on earlier outputs (the merged levels, the chosen edges): adaptive composition of zCDP ' +
        'steps whose costs are fixed in advance.',
      'All synthetic rows are drawn from one fitted model (post-processing): releases do not split the budget.',
    ]);
    expect(mst.claim(params, { ...ctx, releases: 4 }).assumptions.at(-1)).toBe(
      'All 4 releases are drawn from one fitted model (post-processing): releases do not split the budget.',
    );
  });

  it('quantile bins without point masses: the edges keep their ρ under replace-one', () => {
    const quantile = resolveParams(mst, { bins: 6, binning: 'quantile', pointMassShare: 0 });
    const claim = mst.claim(quantile, addRemove);
    expect(claim.otherRelation).toMatch(
      /\(2ε\)²\/8\); the quantile bin edges keep theirs \(score sensitivity 1 under both\)\.$/,
    );
    // The binning step's ρ is the same under both relations (its only draws are the edges): the
    // replace-one ρ is MST's own steps converted plus that step's ρ.
    const binRho = Rational.of(1, 10).mul(rho);
    const own = planMstBudget(rho.sub(binRho), 3, 'add-remove');
    const expected = mstReplaceOneRho(own, 3).add(binRho);
    expect(claim.steps[0]!.rho).toBe(roundUpRational(binRho));
    expect(claim.otherRelation).toContain(`the same run is ρ = ${roundUpRational(expected)}-zCDP`);
  });

  it('a plan with a problem is refused by the reservation, and describes nothing', () => {
    const one: Schema = { ...schema, columns: [schema.columns[2]!] };
    const context = { ...ctx, schema: one };
    expect(() => mst.claim(params, context)).toThrow(InputError);
    expect(() => mst.claim(params, context)).toThrow(
      'mst cannot run: needs at least two columns: with one column, use dp-marginals.',
    );
    expect(mst.describe!(params, context)).toEqual([]);
  });

  it('describes the noise of the steps planned after the binning step', () => {
    // With quantile bins 0.1 of ρ bins: σ₁ = √(9/(0.9ρ)) = 25.84, σ₂ = √(6/(0.9ρ)) = 21.1, ε = √(8·0.9ρ/6) = 0.134044.
    const facts = mst.describe!(resolveParams(mst, { bins: 6, binning: 'quantile' }), ctx);
    expect(facts[0]).toBe(
      'Noise: σ = 25.84 on each one-way histogram, σ = 21.1 on each of the 2 two-way histograms of the tree; each of the 2 edge choices is an exponential mechanism with ε = 0.134044.',
    );
    // Quantile bins give each numeric column 6 bins, 2 candidate point-mass levels (its bounds) and the
    // missing level: 9 levels, so the largest pair has 81 cells.
    expect(facts.at(-1)).toBe(
      'Model: 2 two-way cliques of at most 81 cells each (before merging rare levels); 3 column pairs are scored.',
    );
    expect(facts.some((fact) => fact.startsWith('Quantile bins (age 6, income 6)'))).toBe(true);
  });
});

describe('MST plan and check', () => {
  it('needs a row of data under replace-one; under add/remove n is not read', () => {
    expect(mst.check(schema, params, { ...ctx, n: 0 })).toEqual(['needs at least one row of data.']);
    expect(mst.check(schema, params, { ...addRemove, n: 0 })).toEqual([]);
  });

  it('checks the two largest columns’ pair against the cell limit, whatever their order', () => {
    const cat = (name: string, k: number) => ({
      name,
      type: 'categorical' as const,
      categories: Array.from({ length: k }, (_, i) => `${name}${i}`),
      source: 'declared' as const,
    });
    // c (2 levels) first: the largest pair is a × b, 5001² = 25,010,001 cells.
    const wide: Schema = { ...schema, columns: [cat('c', 1), cat('a', 5000), cat('b', 5000)] };
    expect(mst.check(wide, params, ctx)).toEqual([
      'the largest two-way marginal on `a` × `b` has 25,010,001 cells, more than the limit of 20,000,000: choose fewer bins (a smaller `bins` or `columnBins`).',
    ]);
    // 4472² = 19,998,784 cells: within the limit.
    const fits: Schema = { ...schema, columns: [cat('a', 4471), cat('b', 4471), cat('c', 1)] };
    expect(planMstDomain(fits, params, ctx).problems).toEqual([]);
  });

  it('keeps the settings the draw reads', () => {
    expect(
      planMst(schema, resolveParams(mst, { compress: false, iterations: 12, sampling: 'round' }), ctx),
    ).toMatchObject({
      compress: false,
      iterations: 12,
      sampling: 'round',
      problems: [],
    });
    expect(planMst(schema, resolveParams(mst, {}), ctx).compress).toBe(true);
  });
});

describe('MST budget', () => {
  it('refuses fewer than two columns and ρ = 0', () => {
    expect(() => planMstBudget(rho, 1)).toThrow('MST needs at least two columns; got 1');
    expect(() => planMstBudget(rho, 2.5)).toThrow(RangeError);
    expect(() => planMstBudget(Rational.ZERO, 3)).toThrow('MST needs ρ > 0; got 0');
    expect(planMstBudget(rho, 2).twoWaySigma2.equals(Rational.of(3).div(rho))).toBe(true);
  });

  it('states σ rounded down to 4 digits and ε rounded up to 6', () => {
    // √2 = 1.41421…: 1.414; √(1/3) = 0.577350…: 0.5773; 1/3 = 0.333333…: 0.333334.
    expect(sigmaInWords(Rational.of(2))).toBe('1.414');
    expect(sigmaInWords(Rational.of(1, 3))).toBe('0.5773');
    expect(epsilonInWords(Rational.of(1, 3))).toBe('0.333334');
    // σ² = k·Δ₂²/(2ρ): 3·2/(2·½) = 6, and 3 under add/remove.
    expect(histogramSigma2(Rational.of(1, 2), 3, 'replace-one').equals(Rational.of(6))).toBe(true);
    expect(histogramSigma2(Rational.of(1, 2), 3, 'add-remove').equals(Rational.of(3))).toBe(true);
  });

  it('costs each histogram Δ₂²/(2σ²) and each selection ε²/8, d and d − 1 times', () => {
    const plan = planMstBudget(Rational.of(3, 5), 4);
    const costs = mstStepCosts(plan, 4);
    // ρ/3 = 1/5 for each part; the selection ε is rounded down, so at most 1/5.
    expect(costs.oneWays.equals(Rational.of(1, 5))).toBe(true);
    expect(costs.twoWays.equals(Rational.of(1, 5))).toBe(true);
    expect(costs.selection.equals(selectionRho(plan.selectionEpsilon).mul(Rational.of(3)))).toBe(true);
    expect(costs.selection.compare(Rational.of(1, 5))).toBeLessThanOrEqual(0);
  });
});

describe('MST tree selection', () => {
  const pairs: Pair[] = [
    [0, 1],
    [0, 2],
    [1, 2],
  ];
  const scores = [5n * 2n ** 20n, 1n * 2n ** 20n, 3n * 2n ** 20n];

  it('each round is the exponential mechanism over the open pairs with Δ = 2 grid counts (1 under add/remove)', () => {
    const epsilon = Rational.of(1, 2);
    let differs = false;
    for (let seed = 0; seed < 30; seed++) {
      for (const [relation, delta] of [
        ['replace-one', 2n * 2n ** 20n],
        ['add-remove', 2n ** 20n],
      ] as const) {
        const step = recordingStep('zcdp', relation);
        const tree = selectSpanningTree(step, new SeededRng(seed), 3, pairs, scores, epsilon);
        // The first round draws among all three pairs, as the sampler does with the same generator.
        const rng = new SeededRng(seed);
        const first = sampleExponentialMechanismBig(rng, scores, epsilon, delta);
        expect(tree[0]).toEqual(pairs[first]);
        expect(step.charges).toHaveLength(2);
        // The second among the two pairs that join a new column.
        const open = [0, 1, 2].filter((k) => k !== first);
        const second =
          open[
            sampleExponentialMechanismBig(
              rng,
              open.map((k) => scores[k]!),
              epsilon,
              delta,
            )
          ]!;
        expect(tree[1]).toEqual(pairs[second]);
        if (relation === 'replace-one') {
          const other = sampleExponentialMechanismBig(new SeededRng(seed), scores, epsilon, 2n ** 20n);
          if (other !== first) differs = true;
        }
      }
    }
    expect(differs).toBe(true);
  });

  it('never picks a pair inside one component: four columns always get a spanning tree', () => {
    const four: Pair[] = [
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ];
    for (let seed = 0; seed < 20; seed++) {
      const tree = selectSpanningTree(
        recordingStep(),
        new SeededRng(seed),
        4,
        four,
        four.map(() => 0n),
        Rational.ONE,
      );
      expect(tree).toHaveLength(3);
      const reached = new Set([0]);
      for (let pass = 0; pass < 3; pass++)
        for (const [a, b] of tree) {
          if (reached.has(a) || reached.has(b)) {
            reached.add(a);
            reached.add(b);
          }
        }
      expect([...reached].sort()).toEqual([0, 1, 2, 3]);
    }
  });
});

describe('MST levels', () => {
  it('refuses a noisy count that is not a whole number', () => {
    expect(() => compressLevels(Float64Array.of(1.5), Rational.ONE)).toThrow(
      'noisy count 1.5 is not a whole number',
    );
  });

  it('maps each row’s level to its compressed level', () => {
    // σ² = 1: 50 and 40 are kept (levels 0 and 1 of the compressed domain), 0 merged (level 2).
    const compression = compressLevels(Float64Array.from([50, 0, 40]), Rational.ONE);
    expect(Array.from(compressRows(Uint32Array.of(2, 1, 0, 1), compression))).toEqual([1, 2, 0, 2]);
  });

  it('restores kept levels without drawing', () => {
    const compression = compressLevels(Float64Array.from([50, 0, 40]), Rational.ONE);
    const log: string[] = [];
    const restored = restoreLevels(
      recordingRng(new SeededRng(1), log),
      Uint32Array.of(0, 1, 0, 1),
      compression,
    );
    expect(Array.from(restored)).toEqual([0, 2, 0, 2]);
    expect(log).toEqual([]);
  });
});

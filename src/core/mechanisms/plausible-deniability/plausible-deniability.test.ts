import { describe, expect, it } from 'vitest';
import { Accountant, OverspendError, type ParallelPart, type PartitionKind } from '../../privacy/accountant';
import { StageMeter, type MeterStep } from '../../privacy/meter';
import { parseBudget } from '../../privacy/budget';
import { roundUpRational } from '../../privacy/round-up';
import { parseRational, Rational } from '../../rng/rational';
import { makeRng } from '../../rng/make-rng';
import { SeededRng } from '../../rng/seeded-rng';
import { mixedTable, recordingRng, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import type { ParamValues } from '../types';
import {
  expNegUpperBound,
  lnOnePlusInverseUpperBound,
  planDrawBudget,
  testEpsilonFor,
  type DrawBudget,
} from './draw-budget';
import { plausibleDeniability, plausibleDeniabilityStaged, runPlausibleDeniability } from './index';
import { plausibleDeniabilityMeta } from './meta';
import { PLAUSIBLE_DENIABILITY_PARAMS, pdSettings } from './params';
import { autoMaxCost, planPlausibleDeniability } from './plan';

/** Parameters with the worked examples' equal structure and parameter shares (n_S = n/2). */
const params = (given: Record<string, string | number> = {}): ParamValues =>
  resolveParams(plausibleDeniabilityMeta, { structureShare: 0.25, parameterShare: 0.25, ...given });

/** The draw budget for T draws from n_S = T/2 seeds (the default shares, one release). */
function budgetOf(draws: number, epsilon: string, delta: string, k = 0): DrawBudget {
  const plan = planDrawBudget(draws, parseRational(epsilon), parseRational(delta), k, draws / 2);
  if (!('budget' in plan)) throw new Error(plan.problem);
  return plan.budget;
}

/**
 * max over t in [1, k) of ln(1/δ_a) = ε0(t)·(k − t) + ln((t + n_S)(1 + e^(−ε0(t)))) in doubles, with
 * ε0(t) = a − ln(1 + 1/t) (δ_a of the metered test with the coin t/(t + n_S)).
 */
function bestExponent(a: number, k: number, seeds: number): number {
  let best = -Infinity;
  for (let t = 1; t < k; t++) {
    const e = a - Math.log1p(1 / t);
    if (e > 0) best = Math.max(best, e * (k - t) + Math.log(t + seeds) + Math.log1p(Math.exp(-e)));
  }
  return best;
}

describe('per-draw budget (Theorem 1 over T draws)', () => {
  it('n = 1,000, M = 1, ε = 1,200, δ = 10⁻⁶, n_S = 500: k = 19, t = 4, ε0 = 1.2 − ln 1.25 (worked by hand)', () => {
    const b = budgetOf(1000, '1200', '1e-6');
    expect(b.draws).toBe(1000);
    expect(b.epsilonPerDraw.equals(Rational.of(6, 5))).toBe(true);
    expect(b.k).toBe(19);
    expect(b.t).toBe(4);
    const exact = 1.2 - Math.log(1.25);
    expect(b.testEpsilon.toNumber()).toBeLessThanOrEqual(exact);
    expect(b.testEpsilon.toNumber()).toBeGreaterThan(exact - 1e-11);
    // ε0 + L <= ε_a: the draw's ε fits its share.
    expect(b.testEpsilon.add(b.lnBound).compare(b.epsilonPerDraw)).toBeLessThanOrEqual(0);
    // δ_a >= e^(−ε0·15)/((4 + 500)(1 + e^(−ε0))) and T·δ_a <= δ.
    const e0 = b.testEpsilon.toNumber();
    expect(b.deltaPerDraw.toNumber()).toBeGreaterThanOrEqual(
      Math.exp(-e0 * 15) / (504 * (1 + Math.exp(-e0))),
    );
    expect(b.deltaPerDraw.toNumber()).toBeLessThan(
      (Math.exp(-e0 * 15) / (504 * (1 + Math.exp(-e0)))) * (1 + 1e-9),
    );
    expect(b.totalDelta.compare(parseRational('1e-6'))).toBeLessThanOrEqual(0);
    // By hand: ln(10⁹) = 20.72 less ln(504·(1 + e^(−0.9769))) = 6.54 leaves 14.18; t = 4 needs
    // ⌈14.18/0.9769⌉ = 15 more, k = 19; k = 18 fits no t.
    expect(bestExponent(1.2, 18, 500)).toBeLessThan(Math.log(1e9));
    expect(bestExponent(1.2, 19, 500)).toBeGreaterThanOrEqual(Math.log(1e9));
  });

  it('n = 20,000, δ = 10⁻⁶, n_S = 10,000: ε = 24,000 needs k = 19 (29 without the seed factor), ε = 1 about 385,000, each the smallest', () => {
    const large = budgetOf(20000, '24000', '1e-6');
    expect(large.k).toBe(19);
    expect(bestExponent(1.2, 18, 10000)).toBeLessThan(Math.log(20000 / 1e-6));
    const small = budgetOf(20000, '1', '1e-6');
    expect(small.k).toBeGreaterThan(384_000);
    expect(small.k).toBeLessThan(386_000);
    expect(bestExponent(1 / 20000, small.k - 1, 10000)).toBeLessThan(Math.log(20000 / 1e-6));
    expect(small.totalDelta.compare(parseRational('1e-6'))).toBeLessThanOrEqual(0);
  });

  it('a fixed k takes its best t; one that is too small names the smallest that fits', () => {
    const fixed = budgetOf(1000, '1200', '1e-6', 50);
    expect(fixed.k).toBe(50);
    expect(fixed.deltaPerDraw.compare(budgetOf(1000, '1200', '1e-6').deltaPerDraw)).toBeLessThan(0);
    const refused = planDrawBudget(1000, Rational.of(1200), parseRational('1e-6'), 18, 500);
    expect(refused).toEqual({
      problem:
        '`k` = 18 is too small for δ = 0.000001 over T = 1000 draws: the smallest k that fits is 19; set k to at ' +
        'least 19, or 0 to choose it automatically.',
      smallestK: 19,
    });
  });

  it('bounds ln(1 + 1/t) from above and e^(−x) from above', () => {
    for (const t of [1, 2, 3, 4, 7, 100, 12345, 1e8]) {
      const bound = lnOnePlusInverseUpperBound(t).toNumber();
      expect(bound).toBeGreaterThanOrEqual(Math.log1p(1 / t));
      expect(bound).toBeLessThan(Math.log1p(1 / t) * (1 + 1e-11));
    }
    expect(expNegUpperBound(Rational.of(3)).toNumber()).toBeGreaterThanOrEqual(Math.exp(-3));
    expect(expNegUpperBound(Rational.of(800)).toNumber()).toBe(1e-304);
    expect(testEpsilonFor(Rational.of(1, 10), 1)).toBeNull(); // 0.1 < ln 2
  });
});

const { table, schema } = mixedTable(1000);
const workedContext = runContext(schema, 1000, { epsilon: '1200', delta: '1e-6', releases: 1 });

/** An Accountant that records every parallel reservation's parts. */
class PartsAccountant extends Accountant {
  readonly calls: { parts: ParallelPart[]; partition: PartitionKind | undefined }[] = [];
  override reserveParallel(what: string, parts: ParallelPart[], partition?: PartitionKind): MeterStep {
    this.calls.push({ parts, partition });
    return super.reserveParallel(what, parts, partition);
  }
}

describe('claim', () => {
  it('is one by-position step of three parts: ε_M, ε_M and (T·(ε0 + L), T·δ_a); its totals are ε and T·δ_a', async () => {
    const accountant = new PartsAccountant(parseBudget('1200', '1e-6'));
    const release = await runPlausibleDeniability(
      table,
      schema,
      params({ bins: 2, modelEpsilon: 1 }),
      workedContext,
      accountant,
    );
    const b = budgetOf(1000, '1200', '1e-6');
    expect(accountant.calls).toHaveLength(1);
    const [call] = accountant.calls;
    expect(call!.partition).toBe('by-position');
    expect(call!.parts.map((p) => [p.epsilon.toString(), (p.delta ?? Rational.ZERO).toString()])).toEqual([
      ['1', '0'],
      ['1', '0'],
      // The seed part is what the T metered test draws charge: T·(ε0 + L(t)) <= ε, T·δ_a <= δ.
      [b.testEpsilon.add(b.lnBound).mul(Rational.of(1000)).toString(), b.totalDelta.toString()],
    ]);
    expect(
      b.testEpsilon.add(b.lnBound).mul(Rational.of(1000)).compare(Rational.of(1200)),
    ).toBeLessThanOrEqual(0);
    const claim = plausibleDeniabilityMeta.claim(params({ bins: 2, modelEpsilon: 1 }), workedContext);
    expect(release.claim).toEqual(claim);
    expect(claim.notion).toBe('approx-dp');
    expect(claim.epsilon).toBe(1200);
    expect(claim.delta).toBe(roundUpRational(b.totalDelta));
    expect(claim.steps).toHaveLength(1);
    expect(claim.steps[0]!.what).toBe(
      'Bayesian network: structure from 250 rows, conditional tables from 250 rows (ε = 1 each); T = 1,000 ' +
        `seed-based draws from 500 seed rows, each (ε = 1.2, δ = ${roundUpRational(b.deltaPerDraw)}) with k = 19, ` +
        't = 4, ε0 = 0.976857 (parallel over 3 disjoint parts split by position)',
    );
    expect(claim.assumptions.some((a) => a.includes('γ = 1'))).toBe(true);
    expect(claim.assumptions.some((a) => a.includes('basic composition'))).toBe(true);
  });

  it('with modelEpsilon at its default the model parts spend ε each', async () => {
    const accountant = new PartsAccountant(parseBudget('1200', '1e-6'));
    await runPlausibleDeniability(table, schema, params({ bins: 2 }), workedContext, accountant);
    const b = budgetOf(1000, '1200', '1e-6');
    expect(accountant.calls[0]!.parts.map((p) => p.epsilon.toString())).toEqual([
      '1200',
      '1200',
      b.testEpsilon.add(b.lnBound).mul(Rational.of(1000)).toString(),
    ]);
  });
});

describe('defaults', () => {
  it('gives the structure 5 % of the rows, the tables 45 %, ω ∈ [m − 2, m] and a prior of 0.1', () => {
    const plan = planPlausibleDeniability(schema, resolveParams(plausibleDeniabilityMeta, {}), workedContext);
    expect(plan.sizes).toEqual({ structure: 50, parameters: 450, seeds: 500 });
    expect([plan.omegaMin, plan.omegaMax]).toEqual([1, 3]); // m = 3: max(1, 3 − 2)
    expect(plan.settings.prior).toBe(0.1);
    const wide = planPlausibleDeniability(
      {
        ...schema,
        columns: [...schema.columns, ...schema.columns.map((c) => ({ ...c, name: `${c.name}2` }))],
      },
      resolveParams(plausibleDeniabilityMeta, {}),
      workedContext,
    );
    expect([wide.omegaMin, wide.omegaMax]).toEqual([4, 6]);
  });

  it('reads a setting left out of the parameters as that parameter’s own default, each by its name', () => {
    const defaults = Object.fromEntries(
      PLAUSIBLE_DENIABILITY_PARAMS.map((spec) => [spec.name, spec.default] as const),
    );
    const settings = pdSettings({});
    for (const [name, value] of Object.entries(settings))
      expect([name, value]).toEqual([name, defaults[name]]);
    // The defaults differ from one another, so a setting read under another name would show.
    expect(new Set(Object.values(settings)).size).toBeGreaterThan(4);
    expect(pdSettings({ prior: 2, k: 40 })).toMatchObject({
      prior: 2,
      k: 40,
      structureShare: defaults.structureShare,
    });
  });

  it('resolves ω to max(1, m − 2)..m and the cost limit to ⌊n_P/(|x_i|·max(20, 8m/ε_M))⌋ within [1, 10⁵]', () => {
    const plan = planPlausibleDeniability(schema, params({ bins: 2 }), workedContext);
    expect(plan.m).toBe(3);
    expect(plan.levels).toEqual([3, 3, 3]);
    expect([plan.omegaMin, plan.omegaMax]).toEqual([1, 3]);
    expect(plan.sizes).toEqual({ structure: 250, parameters: 250, seeds: 500 });
    // max(20, 8·3/1200) = 20; ⌊250/(3·20)⌋ = 4.
    expect(plan.maxCost).toEqual([4, 4, 4]);
    // ε_M = 0.1: 8·3/0.1 = 240; ⌊250/(3·240)⌋ = 0 → 1.
    expect(autoMaxCost(250, 3, 3, 0.1)).toBe(1);
    expect(autoMaxCost(1e9, 2, 3, 1)).toBe(100_000);
  });
});

describe('check', () => {
  const check = (given: Record<string, string | number>, context = {}) =>
    plausibleDeniabilityMeta.check(schema, params({ bins: 2, ...given }), { ...workedContext, ...context });

  it('accepts the worked configuration', () => {
    expect(check({})).toEqual([]);
  });

  it('explains each refusal word for word', () => {
    expect(check({}, { delta: 0 })).toEqual([
      'plausible-deniability needs δ > 0: its privacy test is (ε, δ)-DP.',
    ]);
    expect(check({ omegaMax: 4 })).toEqual([
      '`omegaMin` and `omegaMax` must lie in 1..3 (the number of columns); got 1 and 4: lower them or set 0 for the defaults.',
    ]);
    expect(check({ omegaMin: 3, omegaMax: 2 })).toEqual([
      '`omegaMin` (3) exceeds `omegaMax` (2): set omegaMin at most omegaMax.',
    ]);
    // The structure part gets at least 2 rows when n allows (here 2 of 6).
    expect(check({}, { n: 6 })).toEqual([
      'the parameter part (`parameterShare`) has 1 row of n = 6; each part needs at least 2: change the shares or use more rows.',
    ]);
    expect(check({ modelEpsilon: 2000 })).toEqual([
      '`modelEpsilon` = 2000 exceeds ε = 1200: set it to at most ε, or 0 for ε.',
    ]);
    expect(check({ k: 18 })).toEqual([
      '`k` = 18 is too small for δ = 0.000001 over T = 1000 draws: the smallest k that fits is 19; set k to at ' +
        'least 19, or 0 to choose it automatically.',
    ]);
    // Four real columns of 1,000 bins + a missing level: each table may reach 1,001 × 10⁷ cells.
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
    expect(
      plausibleDeniabilityMeta.check(wide, params({ bins: 1000, maxCost: 1e7 }), {
        ...workedContext,
        schema: wide,
      }),
    ).toEqual([
      'the conditional tables could reach 40,040,000,000 cells, above 20,000,000: lower `maxCost` or `maxParents`, or choose fewer bins.',
    ]);
  });
});

describe('describe', () => {
  it('states the parts, the per-draw numbers beside the table-level (ε, δ), and p_f', () => {
    const b = budgetOf(1000, '1200', '1e-6');
    expect(plausibleDeniabilityMeta.describe!(params({ bins: 2 }), workedContext)).toEqual([
      'Attributes: age 3, income 3, sex 3 levels (each includes a missing level); ω from 1 to 3 of 3 attributes resampled.',
      'Rows split at random: 250 learn the structure, 250 the conditional tables, 500 are seeds.',
      `Each of the T = 1,000 draws is (ε = 1.2, δ = ${roundUpRational(b.deltaPerDraw)})-DP with k = 19, t = 4 and ` +
        `test noise ε0 = 0.976857; the whole release is (ε = 1200, δ = ${roundUpRational(b.totalDelta)})-DP.`,
      'A row skips its seed and comes from the network alone with probability p_f = t/(t + n_S) = 0.007937, or when its seed fails the test.',
      'It pays off from tens of thousands of rows: on 48,842 census rows in the paper’s per-draw regime its two-way ' +
        'marginals were off by 0.043 (TVD) against 0.077 for independent marginals, while on 6,295 and 19,708 rows ' +
        'with a noisy network it did no better than them (bench/RESULTS.md); here the tables learn from 250 rows.',
    ]);
  });

  it('warns when k exceeds the seeds', () => {
    const lines = plausibleDeniabilityMeta.describe!(params({ bins: 2 }), {
      ...workedContext,
      epsilon: '10',
    });
    expect(lines.at(-2)).toMatch(
      /^k = [\d,]+ exceeds the 500 seeds: almost every row will come from the network alone\.$/,
    );
  });
});

describe('run', () => {
  const context = (overrides = {}) =>
    runContext(schema, 1000, {
      epsilon: '1200',
      delta: '1e-6',
      releases: 2,
      rng: new SeededRng('pd'),
      ...overrides,
    });

  it('is reproducible with a seed and releases M tables of n rows', async () => {
    const first = await plausibleDeniability.run(table, schema, params({ bins: 4 }), context());
    const second = await plausibleDeniability.run(table, schema, params({ bins: 4 }), context());
    expect(first.datasets).toHaveLength(2);
    expect(first.datasets.map((d) => d.nRows)).toEqual([1000, 1000]);
    expect(first.datasets).toEqual(second.datasets);
    const other = await plausibleDeniability.run(
      table,
      schema,
      params({ bins: 4 }),
      context({ rng: new SeededRng('x') }),
    );
    expect(other.datasets).not.toEqual(first.datasets);
  });

  it('keeps the missing rates of the columns within sampling tolerance', async () => {
    // Missing rates 10 %, 25 %, 5 % (mixedTable). At ε = 1.2·M·n the noise on θ is negligible; a released
    // rate then varies with the 2,500 parameter rows that estimate θ, θ's Dirichlet draw (~2,500
    // pseudo-rows) and the 10,000 rows drawn: sd ≈ √(p(1 − p)·(1/2500 + 1/2500 + 1/10000)); seeds add less.
    // 5.5 sd is the tolerance.
    const n = 10_000;
    const big = mixedTable(n);
    const release = await plausibleDeniability.run(
      big.table,
      big.schema,
      params({ bins: 4 }),
      runContext(big.schema, n, { epsilon: '24000', delta: '1e-6', releases: 2, rng: new SeededRng('pd') }),
    );
    for (const dataset of release.datasets) {
      [0.1, 0.25, 0.05].forEach((p, j) => {
        const rate = dataset.columns[j]!.missing.reduce((s, v) => s + v, 0) / n;
        const sd = Math.sqrt(p * (1 - p) * (1 / 2500 + 1 / 2500 + 1 / n));
        expect(Math.abs(rate - p)).toBeLessThan(5.5 * sd);
      });
    }
  });

  it('reports progress as slots done and stops with an AbortError when cancelled mid-run', async () => {
    const big = mixedTable(40_000);
    const fractions: number[] = [];
    const signal = { aborted: false };
    const run = plausibleDeniability.run(big.table, big.schema, params({ bins: 2 }), {
      ...runContext(big.schema, 40_000, { epsilon: '48000', delta: '1e-6', releases: 1 }),
      signal,
      progress: (fraction) => {
        fractions.push(fraction);
        if (fraction > 0) signal.aborted = true;
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    // One chunk of 40,000 slots: progress at 0 and after 16,384 slots (the stages share 97 %), then the
    // next look at the signal stops it.
    expect(fractions).toEqual([0, (0.97 * 16_384) / 40_000]);
  });

  it('gives the same seeded release when its chunks run in any order on their own generators', async () => {
    // 70,000 rows × 2 releases: chunks of 65,536 and 4,464 slots per release, four stages.
    const big = mixedTable(70_000);
    const ctx = () =>
      runContext(big.schema, 70_000, {
        epsilon: '168000',
        delta: '1e-6',
        releases: 2,
        rng: new SeededRng('pool'),
      });
    const oneThread = await plausibleDeniability.run(big.table, big.schema, params({ bins: 2 }), ctx());
    const context = ctx();
    const accountant = new Accountant(parseBudget(context.epsilon, context.delta));
    const staged = plausibleDeniabilityStaged;
    const planned = staged.plan(big.table, big.schema, params({ bins: 2 }), context, accountant);
    expect(planned.stages.map((s) => s.spec.count)).toEqual([65_536, 4_464, 65_536, 4_464]);
    // Two workers, each with its own structured clone of the shared part (sent once), the stages
    // cloned as on the way there, taken in reverse order and alternating between the workers.
    const sharedOnWorker = [structuredClone(planned.shared!), structuredClone(planned.shared!)];
    const results = new Array<Uint32Array>(planned.stages.length);
    for (let c = planned.stages.length - 1; c >= 0; c--) {
      const stage = structuredClone(planned.stages[c]!);
      const stageMeter = new StageMeter();
      results[c] = staged.runStage(
        stage.spec,
        makeRng(stage.seed ?? undefined),
        () => {},
        { aborted: false },
        sharedOnWorker[c % 2]!,
        stageMeter,
      );
      accountant.meter.absorb(structuredClone(stageMeter.charges()));
    }
    // A chunk's own spec is its release, row count and step ticket; the network and seeds travel once.
    expect(Object.keys(planned.stages[0]!.spec)).toEqual(['release', 'count', 'ticket']);
    expect(staged.transferables!(results[0]!)).toEqual([results[0]!.buffer]);
    const parallel = staged.finish(planned.plan, results, context, accountant);
    accountant.meter.settle(parallel.claim.steps);
    expect(parallel.datasets).toEqual(oneThread.datasets);
    expect(parallel.claim).toEqual(oneThread.claim);
  });

  it('reserves before its first draw, and a refused reservation draws nothing', async () => {
    const log: string[] = [];
    const accountant = new (class extends Accountant {
      override reserveParallel(what: string, parts: ParallelPart[], partition?: PartitionKind): MeterStep {
        log.push('reserve');
        return super.reserveParallel(what, parts, partition);
      }
    })(parseBudget('1200', '1e-6'));
    const ctx = context({ rng: recordingRng(new SeededRng('r'), log), releases: 1 });
    await runPlausibleDeniability(table, schema, params({ bins: 2 }), ctx, accountant);
    expect(log[0]).toBe('reserve');
    expect(log.filter((e) => e === 'reserve')).toHaveLength(1);
    const refusedLog: string[] = [];
    const poor = new Accountant(parseBudget('600', '1e-6'));
    const refused = runPlausibleDeniability(
      table,
      schema,
      params({ bins: 2 }),
      context({ rng: recordingRng(new SeededRng('r'), refusedLog), releases: 1 }),
      poor,
    );
    await expect(refused).rejects.toBeInstanceOf(OverspendError);
    expect(refusedLog).toEqual([]);
  });
});

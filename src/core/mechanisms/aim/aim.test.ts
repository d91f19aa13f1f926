import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../privacy/budget';
import type { MeterStep } from '../../privacy/meter';
import { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import { parseRational, Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import type { NumericColumn, Schema } from '../../table/types';
import { countCells } from '../../models/pgm/factor-index';
import { SCORE_GRID } from '../common/graphical-models/grid-score';
import { buildJunctionTree } from '../../models/pgm/junction-tree';
import { missingRate, mixedTable, recordingRng, runContext } from '../common/testing/fixtures';
import { histogramRho, selectionRho } from '../../privacy/zcdp-costs';
import { resolveParams } from '../params';
import { getMechanism } from '../registry';
import {
  AimRoundSchedule,
  finalRound,
  planAimBudget,
  refitIterations,
  RhoLedger,
  roundRho,
} from './budget-plan';
import { aim, runAim } from '.';
import { withMeasured } from './run-aim';
import { aimScore } from './score';
import { candidatesOf, combinations, planWorkload } from './workload';

class RecordingZcdpAccountant extends ZcdpAccountant {
  readonly reserved: Rational[] = [];
  constructor(
    rho: Rational,
    delta: Rational,
    private readonly log: string[],
    private readonly refuseAt = -1,
  ) {
    super(rho, delta);
  }
  override reserve(what: string, rho: Rational): MeterStep {
    this.log.push('reserve');
    if (this.reserved.length === this.refuseAt) throw new Error('refused');
    const step = super.reserve(what, rho);
    this.reserved.push(rho);
    return step;
  }
}

const EPSILON = '1';
const DELTA = '1e-9';
// Small and quick: 6 bins, 12 rounds' worth of budget, few iterations per refit.
const params = resolveParams(aim, { bins: 6, rounds: 12, maxIters: 200 });

function budgetAccountant(log: string[], refuseAt = -1): RecordingZcdpAccountant {
  const base = ZcdpAccountant.forBudget(parseBudget(EPSILON, DELTA));
  return new RecordingZcdpAccountant(base.rhoBudget, base.delta, log, refuseAt);
}

describe('AIM workload and candidates', () => {
  it('lists k-subsets, parses a named workload and drops marginals above maxCells', () => {
    expect(combinations(4, 3)).toEqual([
      [0, 1, 2],
      [0, 1, 3],
      [0, 2, 3],
      [1, 2, 3],
    ]);
    const names = ['a', 'b', 'c', 'd'];
    const sizes = [3, 4, 5, 100];
    const plan = planWorkload(names, sizes, 3, 100, ' a, b ; c,b;d,a ; b,a');
    expect(plan.workload).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(plan.dropped).toEqual([[0, 3]]);
    expect(plan.problems).toEqual([]);
    expect(planWorkload(names, sizes, 3, 100, 'a,e; b,b').problems).toEqual([
      'workload entry "a,e" names `e`, which is not in the schema.',
      'workload entry "b,b" names `b` twice.',
    ]);
    expect(planWorkload(names, sizes, 3, 10, 'a,b').problems).toEqual([
      'every workload marginal has more than maxCells = 10 cells: raise `maxCells`, choose fewer bins or name smaller marginals.',
    ]);
  });

  it('weights each candidate by its overlap with the workload, w_r = Σ_s |r ∩ s|', () => {
    const { cliques, weights } = candidatesOf([
      [0, 1, 2],
      [1, 2, 3],
    ]);
    const weightOf = (r: number[]) => weights[cliques.findIndex((c) => c.join() === r.join())];
    // By hand: {1} meets both (1 + 1); {0} one; {1,2} both twice (2 + 2); {0,1,2} 3 + 2; {1,2,3} 2 + 3; {0,1} 2 + 1.
    expect(weightOf([1])).toBe(2);
    expect(weightOf([0])).toBe(1);
    expect(weightOf([1, 2])).toBe(4);
    expect(weightOf([0, 1, 2])).toBe(5);
    expect(weightOf([1, 2, 3])).toBe(5);
    expect(weightOf([0, 1])).toBe(3);
    expect(cliques).toHaveLength(4 + 5 + 2); // 4 singletons, {01,02,12,13,23}, two triples
  });
});

describe('AIM budget', () => {
  const rho = parseRational('0.0149731');

  it('starts at σ² = T/(0.9ρ), ε <= √(0.8ρ/T), and the one-ways cost ρ₀ = 0.9dρ/T exactly', () => {
    const plan = planAimBudget(rho, 3, 48, 0.9);
    expect(plan.sigma2.equals(Rational.of(48).div(parseRational('0.9').mul(rho)))).toBe(true);
    expect(plan.oneWayRho.equals(parseRational('0.9').mul(rho).mul(Rational.of(3, 48)))).toBe(true);
    const selectionShare = parseRational('0.1').mul(rho).div(Rational.of(48));
    expect(selectionRho(plan.epsilon).compare(selectionShare)).toBeLessThanOrEqual(0);
    expect(roundRho(plan.sigma2, plan.epsilon).compare(rho.div(Rational.of(48)))).toBeLessThanOrEqual(0);
  });

  it('the last round spends exactly what is left, and the ledger never spends past its total', () => {
    const remaining = parseRational('0.000731');
    const last = finalRound(remaining, parseRational('0.9'));
    expect(histogramRho(last.sigma2).add(selectionRho(last.epsilon)).equals(remaining)).toBe(true);
    const ledger = new RhoLedger(remaining);
    ledger.spend(selectionRho(last.epsilon));
    ledger.spend(histogramRho(last.sigma2));
    expect(ledger.remaining().isZero()).toBe(true);
    expect(() => ledger.spend(Rational.of(1, 10n ** 30n))).toThrow(/past the reserved ρ/);
  });

  it('the schedule spends exactly the reserved share, whatever the anneal decisions', () => {
    const plan = planAimBudget(rho, 3, 48, 0.9);
    const share = rho.sub(plan.oneWayRho);
    const firstCost = roundRho(plan.sigma2, plan.epsilon);
    // Every round but the last costs at least the first round's cost, so at most share/c₀ + 1 rounds.
    const mostRounds = Math.floor(share.div(firstCost).toNumber()) + 1;
    const runSchedule = (annealAfter: (round: number) => boolean): number => {
      const ledger = new RhoLedger(share);
      const schedule = new AimRoundSchedule(ledger, plan);
      let rounds = 0;
      while (!schedule.finished) {
        const round = schedule.nextRound();
        rounds++;
        expect(round.last).toBe(schedule.finished);
        if (!round.last && annealAfter(rounds)) schedule.anneal();
      }
      expect(ledger.remaining().isZero()).toBe(true);
      expect(ledger.spent().equals(share)).toBe(true);
      expect(() => schedule.nextRound()).toThrow(/no round left/);
      return rounds;
    };
    // Never annealing: 48 − 3·0.9 = 45.3 rounds' worth is left: 44 full rounds while at least two
    // are left, then a last round with the remaining 1.3.
    expect(runSchedule(() => false)).toBe(45);
    // Annealing after every round: costs 1, 4, 16 rounds' worth; 45.3 − 1 − 4 − 16 = 24.3 < 2·64, so the fourth is the last.
    expect(runSchedule(() => true)).toBe(4);
    const rng = new SeededRng('anneal decisions');
    for (let sequence = 0; sequence < 200; sequence++) {
      const p = rng.nextFloat();
      expect(runSchedule(() => rng.nextFloat() < p)).toBeLessThanOrEqual(mostRounds);
    }
  });

  it('claims before the run what the run reserves: ρ₀, then the rest of ρ for the rounds', async () => {
    const n = 600;
    const { table, schema } = mixedTable(n);
    const ctx = runContext(schema, n, { epsilon: EPSILON, delta: DELTA });
    const log: string[] = [];
    const accountant = budgetAccountant(log);
    const release = await runAim(table, schema, params, ctx, accountant);
    expect(release.claim).toEqual(aim.claim(params, ctx));
    expect(release.claim).toMatchObject({
      notion: 'approx-dp',
      bound: 'proven',
      delta: 1e-9,
      neighbouring: 'replace-one',
    });
    expect(release.claim.epsilon).toBeLessThanOrEqual(1);
    expect(release.claim.epsilon).toBeGreaterThan(0.99999);
    expect(accountant.reserved).toHaveLength(2);
    expect(accountant.reserved[0]!.add(accountant.reserved[1]!).equals(accountant.rhoBudget)).toBe(true);
    const expectedOneWays = parseRational('0.9').mul(accountant.rhoBudget).mul(Rational.of(3, 12));
    expect(accountant.reserved[0]!.equals(expectedOneWays)).toBe(true);
  });

  it('reserves both steps before the first random draw, and a refused reservation means no draw', async () => {
    const n = 200;
    const { table, schema } = mixedTable(n);
    const log: string[] = [];
    const ctx = runContext(schema, n, {
      epsilon: EPSILON,
      delta: DELTA,
      rng: recordingRng(new SeededRng(3), log),
    });
    await runAim(table, schema, params, ctx, budgetAccountant(log));
    expect(log.slice(0, 3)).toEqual(['reserve', 'reserve', 'draw']);
    expect(log.lastIndexOf('reserve')).toBe(1);
    for (const refuseAt of [0, 1]) {
      const refusedLog: string[] = [];
      const refusedCtx = { ...ctx, rng: recordingRng(new SeededRng(3), refusedLog) };
      await expect(
        runAim(table, schema, params, refusedCtx, budgetAccountant(refusedLog, refuseAt)),
      ).rejects.toThrow('refused');
      expect(refusedLog).not.toContain('draw');
    }
  });
});

describe('AIM score sensitivity, by brute force over replace-one neighbours', () => {
  it('moves by at most 2·w grid counts, and reaches it', () => {
    const sizes = [2, 3];
    const rows = [
      [0, 0],
      [1, 2],
      [0, 1],
      [1, 1],
    ];
    const estimate = Float64Array.from([0.4, 0.9, 0.3, 0.6, 1.1, 0.7]);
    const levelsOf = (table: number[][]) =>
      sizes.map((_, j) => Uint32Array.from(table.map((row) => row[j]!)));
    const weight = 5;
    const base = aimScore(countCells(levelsOf(rows), [0, 1], sizes), estimate, weight, 1.7);
    let largest = 0n;
    for (let i = 0; i < rows.length; i++) {
      for (let a = 0; a < 2; a++) {
        for (let b = 0; b < 3; b++) {
          const neighbour = rows.map((row, k) => (k === i ? [a, b] : row));
          const score = aimScore(countCells(levelsOf(neighbour), [0, 1], sizes), estimate, weight, 1.7);
          const moved = score - base;
          if (moved > largest) largest = moved;
          if (-moved > largest) largest = -moved;
        }
      }
    }
    expect(largest).toBe(BigInt(2 * weight * SCORE_GRID));
  });
});

describe('AIM check and describe', () => {
  const { schema } = mixedTable(10);
  const ctx = runContext(schema, 1000, { epsilon: EPSILON, delta: DELTA });

  it('refuses too few rounds, δ = 0 and a bad workload, in sentences', () => {
    expect(aim.check(schema, resolveParams(aim, { rounds: 2 }), ctx)).toEqual([
      'rounds must be at least the number of columns (3); got 2.',
    ]);
    expect(aim.check(schema, params, { ...ctx, delta: 0 })).toEqual([
      'aim adds Gaussian noise, whose guarantee is stated as (ε, δ): set δ > 0 (for example 1e-9, well below 1/n).',
    ]);
    expect(aim.check(schema, resolveParams(aim, { workload: 'age, height' }), ctx)).toEqual([
      'workload entry "age, height" names `height`, which is not in the schema.',
    ]);
    expect(aim.check(schema, params, ctx)).toEqual([]);
    expect(getMechanism('aim')).toMatchObject({ id: aim.id, params: aim.params });
  });

  it('states σ, ε, the workload, the model size and the marginals dropped', () => {
    // Levels with 6 bins and the missing level: age 7, income 7, sex 3. Pairs: age × income 49 cells
    // (dropped at maxCells = 40), age × sex and income × sex 21; candidates: the 3 one-ways and the 2 pairs.
    const facts = aim.describe!(resolveParams(aim, { bins: 6, degree: 2, maxCells: 40 }), ctx);
    // ρ = 0.0149731… for ε = 1, δ = 1e−9; T = 16·3 = 48: σ = √(48/(0.9ρ)) = 59.68, ε = √(0.8ρ/48) = 0.0157972.
    expect(facts).toEqual([
      "Noise: σ = 59.68 on the one-way histograms and at first on each chosen marginal; each choice is an exponential mechanism with ε = 0.0157972 at first (48 rounds' worth of budget).",
      'Workload: 2 marginals, 5 candidates to measure (with their sub-marginals).',
      // Candidate cells: 7 + 7 + 3 + 21 + 21 = 59, 472 bytes.
      // 1 MB = 2^20 bytes / 8 bytes per cell = 131,072 cells; working memory 6 × 1 MB.
      "Model: at most 1 MB (131,072 cells); working memory about 6 MB, plus less than 0.1 MB for the data's counts on the candidates (59 cells).",
      'Work per round bounded whatever ε: each refit runs at most min(1,000, 20,000,000 / model cells) iterations of mirror descent (at least 20; the final fit 10× that), and the model never exceeds the size above; the claim does not depend on either.',
      '1 workload marginal has more than 40 cells and is dropped: age × income.',
    ]);
  });

  it('bounds the iterations of a refit by the work bound over the model cells, within [20, maxIters]', () => {
    // ⌊20,000,000 / cells⌋: 1,000 at 20,000 cells (= maxIters), 200 at 100,000, 20 at 10^6 (the
    // floor, which ⌊2·10^7 / 10^6⌋ = 20 meets exactly) and at 2·10^6 (⌊10⌋ raised to the floor).
    expect(refitIterations(1000, 4040, false)).toBe(1000);
    expect(refitIterations(1000, 20_000, false)).toBe(1000);
    expect(refitIterations(1000, 20_001, false)).toBe(999);
    expect(refitIterations(1000, 100_000, false)).toBe(200);
    expect(refitIterations(1000, 1_000_000, false)).toBe(20);
    expect(refitIterations(1000, 2_000_000, false)).toBe(20);
    expect(refitIterations(10, 1_000_000, false)).toBe(10);
    // The final fit gets 10 rounds' work: min(1,000, ⌊2·10^8 / 10^5⌋) = 1,000; ⌊2·10^8 / 10^6⌋ = 200.
    expect(refitIterations(1000, 100_000, true)).toBe(1000);
    expect(refitIterations(1000, 1_000_000, true)).toBe(200);
  });

  it('refuses no table for its size (under add/remove n is private): scores stay exact past 2^31 rows', () => {
    for (const n of [2 ** 31 + 1, 2 ** 40]) {
      expect(aim.check(schema, params, { ...ctx, n })).toEqual([]);
      expect(aim.check(schema, params, { ...ctx, n, neighbouring: 'add-remove' })).toEqual([]);
    }
    // A score on counts of 2^34 rows (from a count source): the exact bigint, weight 3, σ = 0.
    const answer = Float64Array.of(2 ** 33, 2 ** 33 - 2);
    const estimate = Float64Array.of(2 ** 33 - 1, 2 ** 33 - 1);
    expect(aimScore(answer, estimate, 3, 0)).toBe(3n * 2n * 2n ** 20n);
  });
});

describe('AIM model structure', () => {
  it('keeps listing a measured marginal that the junction tree held only through a fill-in edge', () => {
    const sizes = [2, 2, 2, 2, 10];
    const cycle = [
      [0, 1],
      [1, 2],
      [2, 3],
      [0, 3],
    ];
    const holds = (cliques: number[][], r: number[]) =>
      buildJunctionTree(5, sizes, cliques).cliques.some((clique) => r.every((a) => clique.includes(a)));
    // Greedy elimination takes 0 first (all cost 8, ties to the lowest) and joins 1 and 3: {1, 3} is held.
    expect(holds(cycle, [1, 3])).toBe(true);
    const listed = withMeasured(cycle, [1, 3]);
    expect(listed).toContainEqual([1, 3]);
    expect(withMeasured(listed, [1, 3])).toEqual(listed);
    // With {0, 4} added, 0 costs 80 to eliminate and 1 goes first, joining 0 and 2: only the list keeps {1, 3}.
    expect(holds([...cycle, [0, 4]], [1, 3])).toBe(false);
    expect(holds([...listed, [0, 4]], [1, 3])).toBe(true);
  });
});

describe('AIM run', () => {
  it('returns M tables of n rows with the schema’s columns, values in bounds and missing rates kept', async () => {
    const n = 20_000;
    const { table, schema } = mixedTable(n);
    const ctx = runContext(schema, n, { epsilon: EPSILON, delta: DELTA, releases: 2 });
    const release = await aim.run(table, schema, params, ctx);
    expect(release.datasets).toHaveLength(2);
    for (const dataset of release.datasets) {
      expect(dataset.nRows).toBe(n);
      expect(dataset.columns.map((c) => c.name)).toEqual(['age', 'income', 'sex']);
      const [age, income, sex] = dataset.columns as [NumericColumn, NumericColumn, NumericColumn];
      for (let i = 0; i < n; i++) {
        if (
          age.missing[i] === 0 &&
          !(Number.isInteger(age.values[i]) && age.values[i]! >= 17 && age.values[i]! <= 90)
        ) {
          throw new Error(`age ${age.values[i]} at row ${i}`);
        }
        if (income.missing[i] === 0 && !(income.values[i]! >= 0 && income.values[i]! <= 1000)) {
          throw new Error(`income ${income.values[i]} at row ${i}`);
        }
      }
      // σ of the one-ways is √(12/(0.9ρ)) = 29.8 rows here; every cell is measured at least once at
      // that σ, so 4σ ≈ 120 rows = 0.6 % of n bounds the fitted missing count's error (rounding adds < 1).
      expect(Math.abs(missingRate(age) - 0.1)).toBeLessThan(0.006);
      expect(Math.abs(missingRate(income) - 0.25)).toBeLessThan(0.006);
      expect(Math.abs(missingRate(sex) - 0.05)).toBeLessThan(0.006);
    }
    const rounds = release.diagnostics.rounds as unknown[];
    expect(rounds.length).toBeGreaterThan(0);
  });

  it('is reproducible with a seed and stops with an AbortError when cancelled', async () => {
    const n = 400;
    const { table, schema } = mixedTable(n);
    const run = (seed: number) =>
      aim.run(
        table,
        schema,
        params,
        runContext(schema, n, { epsilon: EPSILON, delta: DELTA, rng: new SeededRng(seed) }),
      );
    const [a, b] = [await run(5), await run(5)];
    expect(Array.from((a.datasets[0]!.columns[1] as NumericColumn).values)).toEqual(
      Array.from((b.datasets[0]!.columns[1] as NumericColumn).values),
    );
    const aborted = runContext(schema, n, { epsilon: EPSILON, delta: DELTA, signal: { aborted: true } });
    await expect(aim.run(table, schema, params, aborted)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('names no chosen marginal in its live progress: a cancelled run must not show what it selected', async () => {
    // The chosen marginals are outputs of the exponential mechanism; the ledger counts them only when
    // the run completes, so progress shown before that may carry public facts only.
    const n = 400;
    const { table, schema } = mixedTable(n);
    const messages: string[] = [];
    const ctx = runContext(schema, n, {
      epsilon: EPSILON,
      delta: DELTA,
      progress: (_fraction, message) => messages.push(message ?? ''),
    });
    const release = await aim.run(table, schema, params, ctx);
    expect((release.diagnostics.rounds as unknown[]).length).toBeGreaterThan(0);
    for (const message of messages) expect(message).not.toMatch(/age|income|sex/);
    expect(messages.some((m) => m.startsWith('adaptive rounds'))).toBe(true);
  });

  it('refuses an empty schema workload with the check sentence', async () => {
    const { table, schema } = mixedTable(50);
    const narrow: Schema = schema;
    await expect(
      aim.run(table, narrow, resolveParams(aim, { rounds: 1 }), runContext(schema, 50, { delta: DELTA })),
    ).rejects.toThrow(/rounds must be at least the number of columns/);
  });
});

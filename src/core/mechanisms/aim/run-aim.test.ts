import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../privacy/budget';
import { epsilonInWords, sigmaInWords } from '../../privacy/in-words';
import { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { runAim, aim } from '.';
import { planAimBudget } from './budget-plan';
import { readAim } from './run-aim';
import { planAim } from './meta';

// Quick tests of AIM's run around its draws: what it reads, what it refuses and what it reports.

const n = 300;
const { table, schema } = mixedTable(n);
// 12 rounds' worth of budget, few iterations: a run of a fraction of a second.
const params = resolveParams(aim, { bins: 4, rounds: 12, maxIters: 20 });
const ctx = runContext(schema, n, { epsilon: '1', delta: '1e-9' });

describe('AIM reads', () => {
  it('each column’s levels, and nothing from a table of another size', () => {
    const plan = planAim(schema, params, ctx);
    const levels = readAim(table, plan, ctx);
    expect(levels).toHaveLength(3);
    expect(levels.map((column) => column.length)).toEqual([n, n, n]);
    // age (4 bins + missing), income (4 + missing), sex (F, M, missing): levels below 5, 5 and 3.
    expect(levels.map((column) => Math.max(...column))).toEqual([4, 4, 2]);
    expect(() => readAim(table, plan, { ...ctx, n: 299 })).toThrow(
      'aim: the table has 300 rows but the context says n = 299.',
    );
  });
});

describe('AIM reports', () => {
  it('its stages in order, and rounds whose noise follows the schedule', async () => {
    const reports: [number, string][] = [];
    const release = await runAim(table, schema, params, {
      ...ctx,
      releases: 2,
      progress: (fraction, message) => reports.push([fraction, message ?? '']),
    });
    expect(reports.slice(0, 2)).toEqual([
      [0, 'measuring one-way histograms'],
      [0, 'counting the candidate marginals'],
    ]);
    const rounds = reports.filter(([, message]) => message.startsWith('adaptive rounds'));
    expect(rounds.length).toBe(release.diagnostics.rounds.length);
    for (const [fraction, message] of rounds) {
      expect(message).toBe('adaptive rounds: choosing and measuring marginals');
      expect(fraction).toBeGreaterThan(0);
      expect(fraction).toBeLessThanOrEqual(0.9);
    }
    // The last round spends everything: 0.9 × (ρ₀ + all the rounds' ρ)/ρ = 0.9.
    expect(rounds.at(-1)![0]).toBeCloseTo(0.9, 12);
    expect(reports.slice(-3)).toEqual([
      [0.9, 'drawing release 1 of 2'],
      [0.9 + 0.1 / 2, 'drawing release 2 of 2'],
      [1, 'done'],
    ]);

    // The first round measures at the plan's σ and selects at its ε (T = 12, share 0.9).
    const rho = ZcdpAccountant.forBudget(parseBudget('1', '1e-9')).rhoBudget;
    const budget = planAimBudget(rho, 3, 12, 0.9);
    const diagnostics = release.diagnostics;
    expect(diagnostics.rounds[0]).toMatchObject({
      sigma: sigmaInWords(budget.sigma2),
      epsilon: epsilonInWords(budget.epsilon),
    });
    // Every round but the last keeps σ or halves it (an anneal quarters σ²).
    const sigmas = diagnostics.rounds.slice(0, -1).map((round) => Number(round.sigma));
    for (let r = 1; r < sigmas.length; r++) {
      const ratio = sigmas[r - 1]! / sigmas[r]!;
      expect(Math.abs(ratio - 1) < 1e-3 || Math.abs(ratio - 2) < 1e-3, `${sigmas}`).toBe(true);
    }
    // The model's cliques list the one-ways and every measured marginal.
    const listed = diagnostics.cliques.map((clique) => clique.join());
    for (const name of ['age', 'income', 'sex']) expect(listed).toContain(name);
    for (const round of diagnostics.rounds) expect(listed).toContain(round.marginal.join());
    expect(new Set(listed).size).toBe(listed.length);
    // Workload: the one 3-way marginal (5·5·3 = 75 cells, within maxCells = 10,000), none dropped.
    expect(diagnostics.workloadMarginals).toBe(1);
    expect(diagnostics.droppedWorkloadMarginals).toBe(0);
    expect(diagnostics.modelMegabytes).toBe(Number(((diagnostics.modelCells * 8) / 2 ** 20).toPrecision(3)));
    expect(diagnostics.modelCells).toBeGreaterThanOrEqual(5 + 5 + 3);
    expect(diagnostics.iterations).toBeGreaterThan(0);
    expect(release.datasets.map((dataset) => dataset.nRows)).toEqual([n, n]);
  });

  it('counts the dropped workload marginals', async () => {
    // maxCells = 24: the pairs with sex (15 cells) are kept, age × income (25 cells) is dropped.
    const release = await runAim(
      table,
      schema,
      resolveParams(aim, { bins: 4, rounds: 6, maxIters: 5, degree: 2, maxCells: 24 }),
      ctx,
    );
    expect(release.diagnostics.workloadMarginals).toBe(2);
    expect(release.diagnostics.droppedWorkloadMarginals).toBe(1);
    // The rounds' marginals are candidates: sub-marginals of the two kept pairs only.
    for (const round of release.diagnostics.rounds) expect(round.marginal.join()).not.toBe('age,income');
  });

  it('stops at the rounds’ share: the ledger’s last round spends it exactly', async () => {
    const rho = ZcdpAccountant.forBudget(parseBudget('1', '1e-9')).rhoBudget;
    const accountant = ZcdpAccountant.forBudget(parseBudget('1', '1e-9'));
    await runAim(table, schema, params, ctx, accountant);
    expect(accountant.spent().equals(rho)).toBe(true);
  });
});

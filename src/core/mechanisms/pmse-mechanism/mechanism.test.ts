import { describe, expect, it } from 'vitest';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { makeNormalSampler, SeededRng, type Rng } from '../../rng';
import type { NumericColumn, Schema, Table } from '../../table/types';
import { resolveParams } from '../params';
import type { RunContext } from '../types';
import {
  pmseMechanism,
  planPmseRun,
  runChain,
  runPmseMechanism,
  makeChainRng,
  MCMC_DIAGNOSTICS_NOTICE,
} from './index';
import type { PmseDataHolderDiagnostics, PmseDiagnostics } from './diagnostics';
import { StageMeter } from '../../privacy/meter';

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'x1', type: 'numeric', source: 'declared' },
    { name: 'x2', type: 'numeric', source: 'declared' },
  ],
  missing: [''],
};

/** The paper's §5 data: X1 ~ N(2, 10), X2 ~ N(−2.5 + 0.5·x1, 3) (variances). */
function paperTable(n: number, seed: number): Table {
  const normal = makeNormalSampler(new SeededRng(seed));
  const x1 = Float64Array.from({ length: n }, () => normal(2, Math.sqrt(10)));
  const x2 = Float64Array.from(x1, (x) => normal(-2.5 + 0.5 * x, Math.sqrt(3)));
  const column = (name: string, values: Float64Array): NumericColumn => ({
    kind: 'numeric',
    name,
    values,
    missing: new Uint8Array(n),
  });
  return { nRows: n, columns: [column('x1', x1), column('x2', x2)] };
}

function context(n: number, rng: Rng, overrides: Partial<RunContext> = {}): RunContext {
  return {
    n,
    schema,
    epsilon: '1',
    delta: 0,
    releases: 4,
    seeded: rng.seeded,
    rng,
    progress: () => {},
    signal: { aborted: false },
    ...overrides,
  };
}

/** Small, fast settings: depth-1 trees, short chains. */
const quick = resolveParams(pmseMechanism, {
  treeDepth: '1',
  burnIn: 150,
  steps: 200,
  thinning: 50,
  chains: 2,
});

describe('pmseMechanism claim', () => {
  it('is pure ε-DP composed of l exponential-mechanism releases at ε/l', () => {
    const claim = pmseMechanism.claim(
      resolveParams(pmseMechanism, { treeDepth: 'unlimited' }),
      context(5000, new SeededRng(1), { releases: 10 }),
    );
    expect(claim.notion).toBe('pure-dp');
    expect(claim.epsilon).toBe(1);
    expect(claim.delta).toBe(0);
    expect(claim.neighbouring).toBe('replace-one');
    expect(claim.bound).toBe('unproven');
    // Both reasons: the greedy trees' Δu and the MCMC draws.
    expect(claim.unprovenBecause).toBe(
      'greedy trees, depth unlimited: Δu not proven; MCMC draws approximate the exponential mechanism',
    );
    expect(claim.steps).toHaveLength(10);
    expect(claim.steps.every((step) => step.epsilon === 0.1)).toBe(true);
    expect(claim.steps[0]!.what).toBe(
      'release 1 of 10: parameters θ̃ from the exponential mechanism with the greedy-tree pMSE (depth ' +
        'unlimited), Δu = 1/n not proven, then n rows from the synthesis model g(θ̃)',
    );
    const text = claim.assumptions.join('\n');
    expect(text).toMatch(/proven for trees with globally optimal splits/);
    expect(text).toMatch(/not a proven upper bound/);
    expect(text).toMatch(/proposal .* is adapted during burn-in/);
    expect(text).toMatch(/finite Metropolis chain/);
    expect(text).toMatch(/seed was set/);
    expect(text).toMatch(/5 releases taken 500 iterations apart/);
  });

  it('says Δu holds exactly with the depth-1 exhaustive stump, and that ε is unproven for MCMC draws', () => {
    const claim = pmseMechanism.claim(quick, context(100, new SeededRng(1), { releases: 2, seeded: false }));
    expect(claim.bound).toBe('unproven');
    expect(claim.unprovenBecause).toBe(
      'MCMC draws approximate the exponential mechanism; ε holds for exact draws, Δu = 1/(2n) proven',
    );
    expect(claim.steps.map((step) => step.what)).toEqual(
      [1, 2].map(
        (release) =>
          `release ${release} of 2: parameters θ̃ from the exponential mechanism with the exhaustive-stump ` +
          'pMSE, Δu = 1/(2n), then n rows from the synthesis model g(θ̃)',
      ),
    );
    const text = claim.assumptions.join('\n');
    expect(text).toMatch(/best single split, where every synthetic value is a possible cut/);
    expect(text).toMatch(
      /Δu = 1\/\(2n\) holds exactly \(proof in the mechanism’s README, “Quality functions”\)/,
    );
    expect(text).toMatch(/not proven for the chain’s draws/);
    expect(text).not.toMatch(/can fail|not a proven upper bound/);
    expect(text).not.toMatch(/seed was set/);
    expect(text).not.toMatch(/releases taken/);
  });

  it('says Δu holds exactly with the default depth-2 grid tree, and that ε is unproven for MCMC draws', () => {
    const claim = pmseMechanism.claim(
      resolveParams(pmseMechanism, {}),
      context(5000, new SeededRng(1), { releases: 1, seeded: false }),
    );
    expect(claim.bound).toBe('unproven');
    expect(claim.unprovenBecause).toMatch(
      /^MCMC draws approximate the exponential mechanism; ε holds for exact draws/,
    );
    expect(claim.steps[0]!.what).toMatch(/with the grid-tree pMSE, Δu = 1\/\(2n\), then n rows/);
    const text = claim.assumptions.join('\n');
    expect(text).toMatch(/best tree of depth 2 whose splits lie on a grid of 33 quantiles/);
    expect(text).toMatch(/Δu = 1\/\(2n\) holds exactly/);
    expect(text).not.toMatch(/not a proven upper bound/);
  });

  it('offers the proven settings first in the form, the grid tree as the default', () => {
    const depth = pmseMechanism.params.find((spec) => spec.name === 'treeDepth')!;
    expect(depth.options?.map((option) => option.value)).toEqual(['2-grid', '1', '2', '5', 'unlimited']);
    expect(depth.options?.[0]?.label).toMatch(/proven sensitivity/);
    expect(depth.options?.[1]?.label).toMatch(/proven sensitivity/);
    expect(depth.default).toBe('2-grid');
  });
});

describe('pmseMechanism check', () => {
  it('accepts the defaults and reports bad orders, unknown names and draws that do not fit', () => {
    expect(pmseMechanism.check(schema, resolveParams(pmseMechanism, {}))).toEqual([]);
    const bad = resolveParams(pmseMechanism, {
      columnOrder: 'x2, x3',
      missingColumns: 'y',
      steps: 100,
      thinning: 50,
    });
    expect(pmseMechanism.check(schema, bad, context(100, new SeededRng(1), { releases: 10 }))).toEqual([
      'Column order names `x3`, which is not in the schema.',
      'Column order leaves out `x1`.',
      'Columns that may be missing names `y`, which is not in the schema.',
      '10 releases from 2 chains need 5 draws per chain 50 iterations apart: set steps above 200, lower the thinning or add chains.',
    ]);
  });
});

describe('pmseMechanism run', () => {
  const n = 400;
  const table = paperTable(n, 7);

  it('reserves every release before drawing anything', async () => {
    const events: string[] = [];
    const rng = new SeededRng(2);
    const watchedRng: Rng = {
      seeded: true,
      nextUint32: () => (events.push('random'), rng.nextUint32()),
      nextFloat: () => (events.push('random'), rng.nextFloat()),
    };
    const accountant = new Accountant(parseBudget(8));
    const spy = {
      reserve: (...args: Parameters<Accountant['reserve']>) => (
        events.push('reserve'),
        accountant.reserve(...args)
      ),
      reserveParallel: (...args: Parameters<Accountant['reserveParallel']>) => (
        events.push('reserve'),
        accountant.reserveParallel(...args)
      ),
      claim: (...args: Parameters<Accountant['claim']>) => accountant.claim(...args),
    };
    // ε = 8 keeps these short chains near the data, so no release is refused for overflow.
    await runPmseMechanism(table, schema, quick, context(n, watchedRng, { epsilon: '8' }), spy);
    expect(events.slice(0, 4)).toEqual(['reserve', 'reserve', 'reserve', 'reserve']);
    expect(events.filter((event) => event === 'reserve')).toHaveLength(4);
  });

  it('releases l tables of n rows with diagnostics marked for the data holder', async () => {
    const release = await runPmseMechanism(table, schema, quick, context(n, new SeededRng(3)));
    expect(release.datasets).toHaveLength(4);
    for (const dataset of release.datasets) {
      expect(dataset.nRows).toBe(n);
      expect(dataset.columns.map((column) => column.name)).toEqual(['x1', 'x2']);
    }
    expect(release.claim.epsilon).toBe(1);
    expect(release.claim).toEqual(pmseMechanism.claim(quick, context(n, new SeededRng(3))));
    const diagnostics = release.diagnostics as unknown as PmseDiagnostics;
    expect(diagnostics.parameterCount).toBe(5);
    expect(diagnostics.releasedParameters).toHaveLength(4);
    expect(diagnostics.releaseEpsilonUsed).toBe(0.25);
    // Nothing computed from the real data is in the public part.
    expect(Object.keys(diagnostics)).not.toContain('mcmc');
    expect(JSON.stringify(diagnostics)).not.toMatch(/rhat|trace|acceptance|undeclaredMissing/i);
    const { mcmc } = release.dataHolderDiagnostics as unknown as PmseDataHolderDiagnostics;
    expect(mcmc.forDataHolderOnly).toBe(true);
    expect(mcmc.notice).toBe(MCMC_DIAGNOSTICS_NOTICE);
    expect(mcmc.notice).toMatch(/not part of the differentially private release/);
    expect(Object.keys(mcmc.rhat)).toEqual([...diagnostics.parameterNames, 'u']);
    for (const chain of mcmc.chains) {
      expect(chain.trace.iterations.length).toBeLessThanOrEqual(1000);
      expect(chain.trace.u).toHaveLength(chain.trace.iterations.length);
      expect(chain.uAtDraws).toHaveLength(2);
    }
  });

  it('is reproducible with a seed, and its chains are pure functions of (spec, rng)', async () => {
    // ε = 8 keeps these short chains near the data, so no release is refused for overflow.
    const concentrated = { epsilon: '8' };
    const first = await runPmseMechanism(table, schema, quick, context(n, new SeededRng(4), concentrated));
    const second = await runPmseMechanism(table, schema, quick, context(n, new SeededRng(4), concentrated));
    expect(second.diagnostics['releasedParameters']).toEqual(first.diagnostics['releasedParameters']);
    expect(Array.from((second.datasets[0]!.columns[0] as NumericColumn).values)).toEqual(
      Array.from((first.datasets[0]!.columns[0] as NumericColumn).values),
    );
    // A worker receives a structured clone of the spec and makes its generator from the plan's seed.
    const plan = planPmseRun(
      table,
      schema,
      quick,
      context(n, new SeededRng(5)),
      new SeededRng(5),
      new Accountant(parseBudget(1)),
    );
    const direct = runChain(plan.chainSpecs[1]!, makeChainRng(plan, 1), new StageMeter());
    const cloned = runChain(structuredClone(plan.chainSpecs[1]!), makeChainRng(plan, 1), new StageMeter());
    expect(cloned.draws).toEqual(direct.draws);
  });

  it('starts its chains from points that do not depend on the data', () => {
    const plan = (data: Table) =>
      planPmseRun(
        data,
        schema,
        quick,
        context(n, new SeededRng(6)),
        new SeededRng(6),
        new Accountant(parseBudget(1)),
      );
    const a = plan(table);
    const b = plan(paperTable(n, 99));
    expect(b.chainSpecs.map((spec) => spec.start)).toEqual(a.chainSpecs.map((spec) => spec.start));
    expect(b.chainSpecs.map((spec) => spec.drawAt)).toEqual(a.chainSpecs.map((spec) => spec.drawAt));
    expect(b.chainSpecs[0]!.noise).toEqual(a.chainSpecs[0]!.noise);
    expect(b.chainSpecs[0]!.burnIn + b.chainSpecs[0]!.steps).toBe(
      a.chainSpecs[0]!.burnIn + a.chainSpecs[0]!.steps,
    );
    expect(b.chainSpecs[0]!.realFeatures).not.toEqual(a.chainSpecs[0]!.realFeatures);
  });

  it('stops with AbortError when the signal is set mid-run', async () => {
    const signal = { aborted: false };
    const run = runPmseMechanism(
      table,
      schema,
      quick,
      context(n, new SeededRng(8), {
        signal,
        progress: (fraction) => {
          if (fraction > 0.2) signal.aborted = true;
        },
      }),
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('centres its draws on the data-generating parameters', () => {
    const data = paperTable(1000, 2);
    const params = resolveParams(pmseMechanism, { treeDepth: '5', burnIn: 1500, steps: 800, chains: 2 });
    const plan = planPmseRun(
      data,
      schema,
      params,
      context(1000, new SeededRng(102), { releases: 1 }),
      new SeededRng(102),
      new Accountant(parseBudget(1)),
    );
    const halves = plan.chainSpecs.flatMap(
      (spec, c) => runChain(spec, makeChainRng(plan, c), new StageMeter()).halves,
    );
    const truth = [2, Math.log(Math.sqrt(10)), -2.5, 0.5, Math.log(Math.sqrt(3))];
    truth.forEach((value, j) => {
      const mean = halves.reduce((sum, half) => sum + half.mean[j]!, 0) / halves.length;
      const sd = Math.sqrt(halves.reduce((sum, half) => sum + half.variance[j]!, 0) / halves.length);
      // The exponential mechanism's distribution at ε·n/2 = 500 is centred where the expected pMSE is
      // smallest, at the data's own fit, which differs from the data-generating θ by its sampling
      // error SE (e.g. √10/√1000 = 0.1 on the mean of x1, the largest relative to the spread): at
      // most a fifth of the draws' sd. The chains' mean adds Monte Carlo error sd/√ESS with ESS ≥ 50
      // for 2 × 800 steps. So (mean − θ)/sd has standard deviation ≤ √(0.2² + 1/50) = 0.245, and
      // 1.5 sd is six of those: a centring error of that size means the chains target the wrong place.
      expect(Math.abs(mean - value), `θ${j + 1}: mean ${mean}, sd ${sd}`).toBeLessThan(1.5 * sd);
    });
  });
});

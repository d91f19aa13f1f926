import { describe, expect, it } from 'vitest';
import { runAdaptiveMetropolis, type MetropolisTarget } from '../../mcmc/adaptive-metropolis';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { StageMeter } from '../../privacy/meter';
import { makeNormalSampler } from '../../rng';
import { parseRational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { makeQualityEvaluator, runChain } from './chain';
import { pmseMechanism } from './index';
import { makeChainRng, planPmseRun } from './plan';
import { exponentialMechanismLogWeight, logFlatPrior, qualitySensitivity } from './target';
import { makePmseTarget } from './chain';

// A chain's draws must be those of the Metropolis sampler on exactly the claimed target
// −ε·u/(2Δu) + flat prior, ε = ε/l rounded down and Δu = 1/(2n) (grid tree): a chain whose weight is
// scaled anywhere (a doubled ε, a halved Δu) accepts other proposals and draws other θ.
describe('a chain of the pMSE mechanism samples the claimed exponential-mechanism target', () => {
  it('draws what the sampler draws on −ε·u/(2Δu) + prior, and charges each release ε/l', () => {
    const { table, schema } = mixedTable(40);
    const params = resolveParams(pmseMechanism, { burnIn: 30, steps: 60, thinning: 10, chains: 1 });
    const context = runContext(schema, 40, { epsilon: '2', releases: 2 });
    const plan = planPmseRun(
      table,
      schema,
      params,
      context,
      new SeededRng(3),
      new Accountant(parseBudget('2')),
    );
    const spec = plan.chainSpecs[0]!;
    const meter = new StageMeter();
    const chain = runChain(spec, makeChainRng(plan, 0), meter);

    const rng = makeChainRng(plan, 0);
    const normal = makeNormalSampler(rng);
    const epsilon = parseRational(spec.epsilon).toNumberDown();
    const sensitivity = qualitySensitivity(spec.quality, spec.n);
    expect(sensitivity).toBe(1 / 80);
    // The target built by hand around the chain's u alone (its log weight unused here).
    const { quality } = makePmseTarget(spec, () => 0, makeQualityEvaluator);
    let lastQuality = NaN;
    const target: MetropolisTarget = {
      dimension: spec.start.length,
      logWeight: (theta) => {
        lastQuality = quality(theta);
        return exponentialMechanismLogWeight(lastQuality, epsilon, sensitivity);
      },
      logPrior: logFlatPrior,
      lastMonitoredValue: () => lastQuality,
    };
    const expected = runAdaptiveMetropolis(
      target,
      spec.start,
      {
        burnIn: spec.burnIn,
        steps: spec.steps,
        initialScales: spec.initialScales,
        drawAt: spec.drawAt,
        traceLimit: spec.traceLimit,
        initialInverseTemperature: spec.initialInverseTemperature,
      },
      rng,
      () => normal(0, 1),
    );
    expect(chain.draws).toEqual(expected.draws);
    expect(chain.trace.monitored).toEqual(expected.trace.monitored);
    // Both releases come from this chain: one charge of ε/l = 1 on each release's step.
    expect(meter.charges()).toEqual([
      { step: 0, notion: 'approx-dp', values: ['1/1', '0/1'] },
      { step: 1, notion: 'approx-dp', values: ['1/1', '0/1'] },
    ]);
  });
});

import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import type { Rng } from '../../rng';
import type { Schema, Table } from '../../table/types';
import { runStagesInOneThread } from '../staged-run';
import type { Mechanism, ParamValues, Release, RunContext, StagedRun } from '../types';
import { runChain, type PmseChainResult, type PmseChainSpec } from './chain';
import { pmseClaimAssumptions, pmseUnprovenBound } from './claim';
import { buildPmseDiagnostics } from './diagnostics';
import { planPmseRun, type PmseRunPlan } from './plan';
import { pmseMechanismMeta } from './meta';
import { throwIfReleaseOverflows } from './release-overflow';
import { synthesizeReleaseTable } from './release-table';
import { qualitySensitivity } from './target';

export {
  runChain,
  makePmseTarget,
  makeQualityEvaluator,
  type PmseChainSpec,
  type PmseChainResult,
} from './chain';
export { planPmseRun, makeChainRng, type PmseRunPlan } from './plan';
export { buildSynthesisModel, countModelParameters, modelParameterNames } from './model';
export { MCMC_DIAGNOSTICS_NOTICE, type PmseDiagnostics, type PmseDataHolderDiagnostics } from './diagnostics';
export { pmseClaim, pmseClaimAssumptions, pmseUnprovenBound } from './claim';
export { splitRhat, potentialScaleReduction } from '../../mcmc/rhat';
export { PMSE_MECHANISM_ID, pmseMechanismMeta } from './meta';

/**
 * Algorithm 2, step 2, and the release: n rows from g(θ̃_i) for every release, in release order,
 * plus the diagnostics. `results` are the chains' results in any order (e.g. as workers finish). The
 * claim's bound is "unproven" (MCMC draws; greedy trees add their Δu: claim.ts). Throws
 * SpentBudgetError (an InputError), releasing nothing, when a synthetic value overflows
 * (release-overflow.ts).
 */
export function finishPmseRun(
  plan: PmseRunPlan,
  results: PmseChainResult[],
  schema: Schema,
  rng: Rng,
  accountant: BudgetReserver,
  assumptions: string[],
): Release {
  const ordered = [...results].sort((a, b) => a.chainIndex - b.chainIndex);
  const { diagnostics, dataHolderDiagnostics } = buildPmseDiagnostics(plan, ordered);
  const n = plan.chainSpecs[0]!.n;
  const datasets = diagnostics.releasedParameters.map((theta) =>
    synthesizeReleaseTable(plan.model, schema, theta, n, rng),
  );
  const claim = accountant.claim(assumptions, pmseUnprovenBound(plan.settings));
  const spec = plan.chainSpecs[0]!;
  const weightScale = plan.releaseEpsilon / (2 * qualitySensitivity(spec.quality, n));
  throwIfReleaseOverflows(plan.model, datasets, claim.epsilon, weightScale);
  return {
    datasets,
    claim,
    diagnostics: { ...diagnostics },
    dataHolderDiagnostics: { ...dataHolderDiagnostics },
  };
}

/** What the planning worker keeps until the chains are back. */
interface PmsePlanned {
  run: PmseRunPlan;
  schema: Schema;
  assumptions: string[];
}

/**
 * The mechanism in stages: plan (budget reserved first, every chain's start and seed fixed), one
 * stage per MCMC chain, then the synthesis of the releases from the chains' draws.
 */
export const pmseStagedRun: StagedRun<PmsePlanned, PmseChainSpec, PmseChainResult> = {
  plan(table, schema, params, ctx, accountant) {
    const run = planPmseRun(table, schema, params, ctx, ctx.rng, accountant);
    const first = run.chainSpecs[0]!;
    return {
      plan: { run, schema, assumptions: pmseClaimAssumptions(params, ctx) },
      stages: run.chainSpecs.map((spec, c) => ({ spec, seed: run.chainSeeds[c] ?? null })),
      words: {
        stage: 'chain',
        stages: 'MCMC chains',
        step: 'iteration',
        finish: 'drawing the synthetic datasets',
      },
      trace: { warmUp: first.burnIn, total: first.burnIn + first.steps },
    };
  },
  runStage: (spec, rng, progress, signal, _shared, meter) => {
    if (meter === undefined)
      throw new Error('pmse-mechanism: a chain runs only on its stage’s privacy meter.');
    return runChain(spec, rng, meter, {
      signal,
      onProgress: (done, total, u, acceptance) => progress(done, total, { value: u, acceptance }),
    });
  },
  finish: (planned, results, ctx, accountant) =>
    finishPmseRun(planned.run, results, planned.schema, ctx.rng, accountant, planned.assumptions),
};

/** The whole mechanism on one thread: the stages one after the other (runStagesInOneThread). */
export async function runPmseMechanism(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta), ctx.meter),
): Promise<Release> {
  return runStagesInOneThread(pmseStagedRun, table, schema, params, ctx, accountant);
}

/** The pMSE mechanism as workers and the CLI run it. */
export const pmseMechanism: Mechanism = {
  ...pmseMechanismMeta,
  run: (table, schema, params, ctx) => runPmseMechanism(table, schema, params, ctx),
  staged: pmseStagedRun,
};

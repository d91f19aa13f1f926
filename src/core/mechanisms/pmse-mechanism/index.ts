import type { Accountant, BudgetReserver } from '../../privacy/accountant';
import type { PrivacyClaim } from '../../privacy/types';
import type { Rng } from '../../rng';
import type { Schema, Table } from '../../table/types';
import type { Drawn } from '../shape/define-mechanism';
import { defineStagedMechanism } from '../shape/define-staged-mechanism';
import { runStagesInOneThread } from '../staged-run';
import type { ParamValues, Release, RunContext } from '../types';
import { runChain, type PmseChainResult } from './chain';
import { pmseUnprovenBound } from './claim';
import { buildPmseDiagnostics, type PmseDiagnostics } from './diagnostics';
import { pmseRunPlan, readPmseInput, type PmseRunPlan } from './plan';
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
export { pmseClaimAssumptions, pmseUnprovenBound } from './claim';
export { splitRhat, potentialScaleReduction } from '../../mcmc/rhat';
export { PMSE_MECHANISM_ID, pmseMechanismMeta, planPmseMechanism, type PmsePlan } from './meta';

/**
 * Algorithm 2, step 2: n rows from g(θ̃_i) for every release, in release order, plus the diagnostics.
 * `results` are the chains' results in any order (e.g. as workers finish). Throws SpentBudgetError
 * (an InputError), releasing nothing, when a synthetic value overflows (release-overflow.ts); its
 * message states the claim's ε.
 */
function drawPmseReleases(
  plan: PmseRunPlan,
  results: PmseChainResult[],
  schema: Schema,
  rng: Rng,
  claim: PrivacyClaim,
): Drawn<Table, PmseDiagnostics> {
  const ordered = [...results].sort((a, b) => a.chainIndex - b.chainIndex);
  const { diagnostics, dataHolderDiagnostics } = buildPmseDiagnostics(plan, ordered);
  const n = plan.chainSpecs[0]!.n;
  const datasets = diagnostics.releasedParameters.map((theta) =>
    synthesizeReleaseTable(plan.model, schema, theta, n, rng),
  );
  const spec = plan.chainSpecs[0]!;
  const weightScale = plan.releaseEpsilon / (2 * qualitySensitivity(spec.quality, n));
  throwIfReleaseOverflows(plan.model, datasets, claim.epsilon, weightScale);
  return { datasets, diagnostics: { ...diagnostics }, dataHolderDiagnostics: { ...dataHolderDiagnostics } };
}

/**
 * The release of a run planned by `planPmseRun` on `accountant`: the datasets and diagnostics of
 * drawPmseReleases with the accountant's claim, whose bound is "unproven" (MCMC draws; greedy trees
 * add their Δu: claim.ts).
 */
export function finishPmseRun(
  plan: PmseRunPlan,
  results: PmseChainResult[],
  schema: Schema,
  rng: Rng,
  accountant: Pick<Accountant, 'claim'>,
  assumptions: string[],
): Release {
  const claim = accountant.claim(assumptions, pmseUnprovenBound(plan.settings));
  const drawn = drawPmseReleases(plan, results, schema, rng, claim);
  return {
    datasets: drawn.datasets,
    claim,
    diagnostics: { ...drawn.diagnostics },
    dataHolderDiagnostics: drawn.dataHolderDiagnostics ?? {},
  };
}

/**
 * The mechanism in stages (defineStagedMechanism): the plan's model and settings, the real rows
 * encoded, ε/l reserved per release, then every chain's start and seed fixed; one stage per MCMC
 * chain; the finish synthesizes the releases from the chains' draws.
 */
export const pmseMechanism = defineStagedMechanism(pmseMechanismMeta, {
  read: readPmseInput,
  stages: (input, plan, reserved, ctx) => {
    const run = pmseRunPlan(input, plan, reserved, ctx, ctx.rng);
    const first = run.chainSpecs[0]!;
    return {
      state: { run, schema: plan.schema },
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
  finish: ({ run, schema }, results, ctx, claim) => drawPmseReleases(run, results, schema, ctx.rng, claim),
});

/** The stages of a run, as the studio's workers run them. */
export const pmseStagedRun = pmseMechanism.staged;

/**
 * The whole mechanism on one thread: the stages one after the other (runStagesInOneThread), on
 * `accountant` (tests record its reservations) or the spec's on ctx.meter.
 */
export async function runPmseMechanism(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: BudgetReserver & Pick<Accountant, 'claim'>,
): Promise<Release> {
  if (accountant === undefined) return pmseMechanism.run(table, schema, params, ctx);
  return runStagesInOneThread(pmseStagedRun, table, schema, params, ctx, accountant);
}

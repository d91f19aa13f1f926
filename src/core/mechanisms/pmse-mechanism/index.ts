import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import type { Rng } from '../../rng';
import type { Schema, Table } from '../../table/types';
import type { Mechanism, ParamValues, Release, RunContext } from '../types';
import { throwIfAborted } from '../../table/abort';
import { runChain, type PmseChainResult } from './chain';
import { pmseClaimAssumptions, pmseUnprovenBound } from './claim';
import { buildPmseDiagnostics } from './diagnostics';
import { makeChainRng, planPmseRun, type PmseRunPlan } from './plan';
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
 * claim's bound is "unproven" for the configurations whose sensitivity is not proven. Throws
 * InputError, releasing nothing, when a synthetic value overflows (release-overflow.ts).
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

/**
 * The whole mechanism on one thread: plan (budget reserved first), run the chains one after the
 * other, then synthesise. The studio's worker layer runs the same three stages with the chains in
 * parallel workers (planPmseRun, runChain with makeChainRng, finishPmseRun).
 */
export async function runPmseMechanism(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
): Promise<Release> {
  const plan = planPmseRun(table, schema, params, ctx, ctx.rng, accountant);
  const chains = plan.chainSpecs.length;
  const results = plan.chainSpecs.map((spec, c) =>
    runChain(spec, makeChainRng(plan, c), {
      signal: ctx.signal,
      onProgress: (done, total) =>
        ctx.progress(
          (0.97 * (c + done / total)) / chains,
          `chain ${c + 1} of ${chains}: iteration ${done} of ${total}`,
        ),
    }),
  );
  throwIfAborted(ctx.signal);
  ctx.progress(0.98, 'drawing the synthetic datasets');
  const release = finishPmseRun(
    plan,
    results,
    schema,
    ctx.rng,
    accountant,
    pmseClaimAssumptions(params, ctx),
  );
  ctx.progress(1, 'done');
  return release;
}

/** The pMSE mechanism as workers and the CLI run it. */
export const pmseMechanism: Mechanism = {
  ...pmseMechanismMeta,
  run: (table, schema, params, ctx) => runPmseMechanism(table, schema, params, ctx),
};

import type { BudgetReserver } from '../../privacy/accountant';
import type { MeterStep } from '../../privacy/meter';
import type { Rational } from '../../rng/rational';
import { makeNormalSampler, makeRng, type Rng } from '../../rng';
import type { Schema, Table } from '../../table/types';
import { InputError } from '../../table/errors';
import type { ParamValues, PublicContext } from '../types';
import type { PmseChainSpec } from './chain';
import { encodeTableInModelSpace, makePmseFeatureColumns, writePmseFeatures } from './encode';
import { modelNeutralPoint, modelParameterNames, type SynthesisModel } from './model';
import {
  drawIterations,
  drawsPerChain,
  pmseQualityOf,
  START_JITTER_SD,
  TRACE_POINT_LIMIT,
} from './pmse-params';
import { reserveReleaseBudget } from './release-budget';
import { drawModelNoise } from './synthesize';
import { qualitySensitivity } from './target';
import { planOrRefuse } from '../shape/define-meta';
import { PMSE_MECHANISM_ID, pmseMechanismMeta } from './meta';
import type { PmsePlan, PmseRunPlan } from './plan-types';

export { pmseScoreQuery, releaseStepText, reserveReleaseBudget } from './release-budget';

/** Smallest scale ε/(2Δu) burn-in starts from, per θ coordinate and overall (see initialInverseTemperature). */
export const TEMPERED_SCALE_PER_PARAMETER = 60;
export const TEMPERED_SCALE_FLOOR = 300;

export type { PmseRunPlan };

/** What a run reads from the table: the real rows as pMSE predictors, and the undeclared missing values. */
export interface PmseInput {
  realFeatures: Float64Array[];
  /** Real values that were missing in columns not declared able to be missing (for the data holder). */
  undeclaredMissingCounts: Record<string, number>;
}

/** The plan's model; a plan without one has problems and is refused before any run reaches here. */
function modelOf(plan: PmsePlan): SynthesisModel {
  if (plan.model === undefined) throw new Error(`${PMSE_MECHANISM_ID}: a run was planned without a model.`);
  return plan.model;
}

/**
 * Encodes the real rows in model space and as the pMSE classifier's predictors, the only
 * data-dependent part of a run (no randomness), and counts the values missing where the schema does
 * not expect them.
 */
export function readPmseInput(table: Table, plan: PmsePlan, context: PublicContext): PmseInput {
  const model = modelOf(plan);
  if (table.nRows !== context.n) {
    throw new Error(
      `pmse-mechanism: the table has ${table.nRows} rows but the context says n = ${context.n}.`,
    );
  }
  const realModelSpace = encodeTableInModelSpace(table, model);
  const realFeatures = makePmseFeatureColumns(model, context.n);
  writePmseFeatures(model, realModelSpace, realFeatures);
  const undeclaredMissingCounts: Record<string, number> = {};
  model.columns.forEach((column, t) => {
    if (column.mayBeMissing) return;
    const count = realModelSpace[t]!.reduce((sum, value) => sum + (value === value ? 0 : 1), 0);
    if (count > 0) undeclaredMissingCounts[column.name] = count;
  });
  return { realFeatures, undeclaredMissingCounts };
}

/**
 * Fixes every chain after the budget of every release is reserved (`reserved`), from the parameters,
 * the schema and `rng` only: each chain's start point, the common noise of u, the iteration counts,
 * the draw iterations and each chain's seed; the real rows (`input`) go into every chain's spec.
 */
export function pmseRunPlan(
  input: PmseInput,
  plan: PmsePlan,
  reserved: { epsilon: Rational; steps: MeterStep[] },
  context: PublicContext,
  rng: Rng,
): PmseRunPlan {
  const { settings } = plan;
  const model = modelOf(plan);
  const draws = drawsPerChain(context.releases, settings.chains);
  const drawAt = draws.map((count) => {
    try {
      return drawIterations(count, settings.steps, settings.thinning);
    } catch (error) {
      throw new InputError(`The pMSE mechanism cannot place its releases: ${(error as Error).message}`);
    }
  });
  const quality = pmseQualityOf(settings);
  const releaseEpsilon = reserved.epsilon.toNumberDown();

  const normal = makeNormalSampler(rng);
  const standardNormal = () => normal(0, 1);
  const noise = Array.from({ length: settings.m }, () =>
    drawModelNoise(model, context.n, rng, standardNormal),
  );
  const neutral = modelNeutralPoint(model);
  const starts = draws.map(() => Array.from(neutral, (value) => value + START_JITTER_SD * standardNormal()));
  const chainSeeds = draws.map(() =>
    rng.seeded ? `pmse-chain-${rng.nextUint32()}-${rng.nextUint32()}` : null,
  );

  let release = 0;
  const releaseOfDraw = draws.map(() => [] as number[]);
  for (let j = 0; release < context.releases; j++) {
    for (let c = 0; c < settings.chains && release < context.releases; c++) {
      if (j < draws[c]!) releaseOfDraw[c]!.push(release++);
    }
  }

  const sensitivity = qualitySensitivity(quality, context.n);
  const chainSpecs: PmseChainSpec[] = draws.map((_, c) => ({
    chainIndex: c,
    model,
    realFeatures: input.realFeatures,
    n: context.n,
    noise,
    epsilon: reserved.epsilon.toString(),
    tickets: releaseOfDraw[c]!.map((release) => reserved.steps[release]!.ticket()),
    neighbouring: reserved.steps[0]!.neighbouring,
    quality,
    start: starts[c]!,
    initialScales: Array.from(neutral, () => settings.proposalScale),
    burnIn: settings.burnIn,
    steps: settings.steps,
    drawAt: drawAt[c]!,
    traceLimit: TRACE_POINT_LIMIT,
    initialInverseTemperature: initialInverseTemperature(releaseEpsilon, sensitivity, model.parameterCount),
  }));
  return {
    settings,
    model,
    parameterNames: modelParameterNames(model),
    releaseEpsilon,
    chainSpecs,
    releaseOfDraw,
    chainSeeds,
    undeclaredMissingCounts: input.undeclaredMissingCounts,
  };
}

/**
 * Plans a run as the staged mechanism does (plan → read → reserve → chains): refuses a plan with
 * problems (InputError), encodes the real rows, reserves the budget of every release before anything
 * random is drawn, then fixes every chain from the parameters, the schema and `rng` (pmseRunPlan).
 */
export function planPmseRun(
  table: Table,
  schema: Schema,
  params: ParamValues,
  context: PublicContext,
  rng: Rng,
  accountant: BudgetReserver,
): PmseRunPlan {
  const plan = planOrRefuse(pmseMechanismMeta.spec, schema, params, context);
  const input = readPmseInput(table, plan, context);
  const reserved = reserveReleaseBudget(accountant, context, pmseQualityOf(plan.settings));
  return pmseRunPlan(input, plan, reserved, context, rng);
}

/**
 * Burn-in starts with the exponential mechanism's weight −ε·u/(2Δu) flattened to the scale
 * S = max(300, 60·k) (k = dim θ) when ε/(2Δu) is larger, so that a sharply peaked, rugged target is
 * first explored smoothed. S is kept high for a reason: where the synthetic data are useless
 * (u = 0.25, complete separation) u is flat, and the flat prior makes that plateau roughly e^(6.7·k)
 * times larger than the region near the data (each coordinate ranges over ~800 prior units instead of
 * ~1); at a scale S the plateau is penalised by e^(−S/4) ≤ e^(−15·k), so even the tempered target
 * keeps the chain away from it (a scale of 100 did not: a chain could settle on the plateau and never
 * come back). From ε, Δu (n and the quality function) and the model only (public).
 */
export function initialInverseTemperature(
  epsilon: number,
  sensitivity: number,
  parameterCount: number,
): number {
  const startScale = Math.max(TEMPERED_SCALE_FLOOR, TEMPERED_SCALE_PER_PARAMETER * parameterCount);
  return Math.min(1, startScale / (epsilon / (2 * sensitivity)));
}

/** The generator of chain c: SeededRng from the plan's seed for seeded runs, else a CryptoRng. */
export function makeChainRng(plan: Pick<PmseRunPlan, 'chainSeeds'>, chainIndex: number): Rng {
  return makeRng(plan.chainSeeds[chainIndex] ?? undefined);
}

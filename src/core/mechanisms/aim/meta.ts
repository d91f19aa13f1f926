import { standardAssumptions } from '../../privacy/assumptions';
import { withOtherRelation } from '../../privacy/relation-conversion';
import { Rational } from '../../rng/rational';
import { roundDownRational, roundUpRational } from '../../privacy/round-up';
import { binningRows, publicRows, relationOf } from '../neighbouring';
import { pgmRelationAssumptions } from '../common/graphical-models/relation-assumptions';
import type { PrivacyClaim } from '../../privacy/types';
import type { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import type { Schema } from '../../table/types';
import { formatCount } from '../../format/format-count';
import { cellCount } from '../../models/pgm/factor-index';
import { deltaIsZero, deltaProblem, zcdpAccountantFor } from '../common/graphical-models/pgm-budget';
import {
  marginalLimitProblem,
  PGM_BINNING_PARAMS,
  planPgmDomain,
  SAMPLING_PARAM,
  type PgmDomain,
} from '../common/graphical-models/pgm-domain';
import { binnedDomainAssumptions } from '../common/claims/public-assumptions';
import { InputError } from '../../table/errors';
import { defineMechanismMeta } from '../shape/define-meta';
import type { ParamSpec, ParamValue, ParamValues, PublicContext } from '../types';
import { epsilonInWords, sigmaInWords } from '../../privacy/in-words';
import {
  AIM_FINAL_FIT_WORK_SHARES,
  AIM_MIN_REFIT_ITERATIONS,
  AIM_REFIT_WORK,
  aimReplaceOneRho,
  planAimBudget,
  reserveAimBudget,
  type AimBudgetPlan,
  type AimSteps,
} from './budget-plan';
import { candidatesOf, planWorkload, type WorkloadPlan } from './workload';
import { aimFit } from './fit';

export const AIM_ID = 'aim';

/** Rounds per column when `rounds` is 0 (private-pgm's default, 16·d). */
export const ROUNDS_PER_COLUMN = 16;

export const AIM_PARAMS: ParamSpec[] = [
  {
    name: 'degree',
    label: 'Workload degree',
    type: 'integer',
    default: 3,
    min: 1,
    max: 3,
    help: 'The workload is every marginal on this many columns (unless a workload is named below); AIM spends its budget on the marginals that serve it best.',
  },
  {
    name: 'maxCells',
    label: 'Largest workload marginal (cells)',
    type: 'integer',
    default: 10_000,
    min: 1,
    max: 20_000_000,
    help: 'Workload marginals with more cells than this are dropped (bins and the missing level included).',
  },
  {
    name: 'maxModelSize',
    label: 'Largest model (MB)',
    type: 'number',
    default: 1,
    min: 1,
    max: 80,
    help:
      'Memory of the graphical model (8 bytes per cell of its junction tree); the limit grows with the budget spent, ' +
      'reaching this value at the end, and never depends on ε. The paper uses 80; working memory is about 6× this. ' +
      'Larger models fit more relationships and take much longer at large ε (1 MB: about 100 processor seconds on 9,000 ' +
      'rows × 14 columns at ε = 10; 80 MB: 7–27 minutes).',
  },
  {
    name: 'rounds',
    label: 'Rounds',
    type: 'integer',
    default: 0,
    min: 0,
    max: 10_000,
    help: `Sets the starting noise: each round's share of the budget is 1/rounds. 0 means ${ROUNDS_PER_COLUMN} × the number of columns. At least the number of columns.`,
  },
  {
    name: 'maxIters',
    label: 'Estimation iterations per round',
    type: 'integer',
    default: 1000,
    min: 1,
    max: 100_000,
    help: 'Most iterations of mirror descent after each measurement (warm-started; it stops earlier once the loss settles).',
  },
  {
    name: 'measureShare',
    label: 'Share of a round for measuring',
    type: 'number',
    default: 0.9,
    min: 0.05,
    max: 0.95,
    help: 'The rest of each round’s budget selects the marginal to measure.',
  },
  {
    name: 'workload',
    label: 'Workload',
    type: 'text',
    default: '',
    help: 'Marginals to serve, as column names: "a,b,c; d,e". Empty: every marginal of the degree above.',
  },
  SAMPLING_PARAM,
  ...PGM_BINNING_PARAMS,
];

/** The parameters the reservations, the description and the draw read, resolved once by the plan. */
export interface AimSettings {
  /** Share of each round's ρ spent measuring (the rest selects). */
  measureShare: number;
  maxIters: number;
  /** Largest model in MB (8 bytes per cell of its junction tree). */
  maxModelSize: number;
  /** Workload marginals with more cells than this are dropped. */
  maxCells: number;
  /** How rows are drawn from the fitted model (sample-model.ts's SamplingRule). */
  sampling: ParamValue;
}

/** Everything AIM plans from public facts: domain, workload, candidates, rounds, settings and problems. */
export interface AimPlan extends PgmDomain {
  workload: WorkloadPlan;
  candidates: { cliques: number[][]; weights: number[] };
  rounds: number;
  settings: AimSettings;
}

export function planAim(
  schema: Schema,
  params: ParamValues,
  context?: Pick<PublicContext, 'n' | 'epsilon' | 'delta' | 'neighbouring'>,
): AimPlan {
  // Under add/remove n is private: the binning uses a fixed reference instead (neighbouring.ts).
  const domain = planPgmDomain(schema, params, binningRows(context));
  const rows = publicRows(context);
  const problems = [...domain.problems];
  const d = domain.sizes.length;
  const rounds = Number(params.rounds) === 0 ? ROUNDS_PER_COLUMN * d : Number(params.rounds);
  const names = domain.codings.map((coding) => coding.name);
  const workload = planWorkload(
    names,
    domain.sizes,
    Number(params.degree),
    Number(params.maxCells),
    String(params.workload ?? ''),
  );
  if (problems.length === 0) {
    problems.push(...workload.problems);
    if (rounds < d) problems.push(`rounds must be at least the number of columns (${d}); got ${rounds}.`);
    domain.sizes.forEach((size, j) => {
      const tooLarge = marginalLimitProblem([names[j]!], size, 'the one-way marginal');
      if (tooLarge) problems.push(tooLarge);
    });
  }
  if (rows !== undefined && rows < 1) problems.push('needs at least one row of data.');
  if (context && deltaIsZero(context)) problems.push(deltaProblem(AIM_ID));
  const settings: AimSettings = {
    measureShare: Number(params.measureShare),
    maxIters: Number(params.maxIters),
    maxModelSize: Number(params.maxModelSize),
    maxCells: Number(params.maxCells),
    sampling: params.sampling,
  };
  return { ...domain, problems, workload, candidates: candidatesOf(workload.workload), rounds, settings };
}

export function aimAssumptions(plan: AimPlan, context: PublicContext): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...binnedDomainAssumptions(plan.codings, context.schema),
    ...pgmRelationAssumptions(
      context,
      {
        replaceOne: '2 × the candidate weight for a weighted L1 score',
        addRemove: 'the candidate weight for a weighted L1 score',
      },
      'the model’s total and the synthetic row count, the minimum-variance estimate of the total from the d noisy one-way histograms (at least 1)',
    ),
    'The rounds choose their noise, their ε and when to stop from earlier outputs, and never spend past the share ' +
      'reserved for them: fully adaptive composition of zCDP under a privacy filter (Feldman & Zrnic 2021; as OpenDP’s AIM).',
    'Each exponential-mechanism round is ε-DP with bounded range, hence ε²/8-zCDP (Cesar & Rogers 2021); it is ' +
      'sampled exactly, with scores rounded to the grid 2^-20 so that the sensitivity holds exactly.',
    `All ${context.releases === 1 ? 'synthetic rows' : `${context.releases} releases`} are drawn from one fitted model (post-processing): releases do not split the budget.`,
  ];
}

/** Bytes in megabytes for sentences, two significant digits (memory is an estimate, not a privacy value). */
function megabytesInWords(bytes: number): string {
  const megabytes = bytes / 2 ** 20;
  return megabytes < 0.1 ? 'less than 0.1 MB' : `${Number(megabytes.toPrecision(2))} MB`;
}

/** AIM's budget plan and its two steps (one-way histograms, adaptive rounds), as the draw uses them. */
export interface AimReserved {
  budget: AimBudgetPlan;
  steps: AimSteps;
}

/**
 * Plans AIM's budget under the accountant's relation and makes its two reservations; the claim shown
 * before a run and the run both come from this. A plan with problems cannot be budgeted: InputError.
 */
export function reserveAim(
  accountant: Pick<ZcdpAccountant, 'reserve' | 'rhoBudget' | 'meter'>,
  plan: AimPlan,
): AimReserved {
  if (plan.problems.length > 0) throw new InputError(`${AIM_ID} cannot run: ${plan.problems.join(' ')}`);
  const budget = planAimBudget(
    accountant.rhoBudget,
    plan.sizes.length,
    plan.rounds,
    plan.settings.measureShare,
    accountant.meter.neighbouring,
  );
  return { budget, steps: reserveAimBudget(accountant, budget, plan.sizes.length) };
}

/**
 * What an AIM claim implies under the other relation: nothing for replace-one; for add/remove, the
 * replace-one ρ bound of the same run (aimReplaceOneRho) at the same δ.
 */
export function aimClaim(claim: PrivacyClaim, delta: Rational, { budget, steps }: AimReserved): PrivacyClaim {
  if (budget.neighbouring === 'replace-one') return withOtherRelation(claim);
  return withOtherRelation(claim, {
    notion: 'zcdp',
    rho: aimReplaceOneRho(budget, steps.adaptive),
    delta,
    why:
      'the one-way histograms’ ρ doubles (Δ₂² = 2 against 1); in the rounds measuring doubles and selecting ' +
      'quadruples (score sensitivity 2 against 1), and selecting is at most 1 − share of every round ' +
      `(share = ${roundDownRational(budget.measureShare)} measures), so the rounds’ ρ grows at most ` +
      `(4 − 2·share) = ${roundUpRational(Rational.of(4).sub(Rational.of(2).mul(budget.measureShare)))}-fold`,
  });
}

function describeAim(plan: AimPlan, context: PublicContext): string[] {
  if (plan.problems.length > 0) return [];
  const { settings } = plan;
  const budget = planAimBudget(
    zcdpAccountantFor(context, AIM_ID).rhoBudget,
    plan.sizes.length,
    plan.rounds,
    settings.measureShare,
    relationOf(context),
  );
  const names = plan.codings.map((coding) => coding.name);
  const candidateCells = plan.candidates.cliques.reduce((total, r) => total + cellCount(r, plan.sizes), 0);
  const sentences = [
    `Noise: σ = ${sigmaInWords(budget.sigma2)} on the one-way histograms and at first on each chosen marginal; each choice is an exponential mechanism with ε = ${epsilonInWords(budget.epsilon)} at first (${plan.rounds} rounds' worth of budget).`,
    `Workload: ${formatCount(plan.workload.workload.length)} marginals, ${formatCount(plan.candidates.cliques.length)} candidates to measure (with their sub-marginals).`,
    `Model: at most ${settings.maxModelSize} MB (${formatCount((settings.maxModelSize * 2 ** 20) / 8)} cells); working memory about ${formatCount(6 * settings.maxModelSize)} MB, plus ${megabytesInWords(candidateCells * 8)} for the data's counts on the candidates (${formatCount(candidateCells)} cells).`,
    `Work per round bounded whatever ε: each refit runs at most min(${formatCount(settings.maxIters)}, ${formatCount(AIM_REFIT_WORK)} / model cells) iterations of mirror descent (at least ${AIM_MIN_REFIT_ITERATIONS}; the final fit ${AIM_FINAL_FIT_WORK_SHARES}× that), and the model never exceeds the size above; the claim does not depend on either.`,
  ];
  if (plan.workload.dropped.length > 0) {
    const shown = plan.workload.dropped.slice(0, 5).map((q) => q.map((a) => names[a]).join(' × '));
    sentences.push(
      `${formatCount(plan.workload.dropped.length)} workload ${plan.workload.dropped.length === 1 ? 'marginal has' : 'marginals have'} more than ${formatCount(settings.maxCells)} cells and ${plan.workload.dropped.length === 1 ? 'is' : 'are'} dropped: ${shown.join('; ')}${plan.workload.dropped.length > 5 ? '; …' : ''}.`,
    );
  }
  return sentences;
}

/** Everything about AIM but its run: the plan, the two reservations and the claim they make. */
export const aimMeta = defineMechanismMeta({
  id: AIM_ID,
  label: 'AIM (adaptive marginals)',
  summary:
    'Chooses, round by round, the marginals a graphical model gets most wrong, measures them with noise and refits; keeps the workload of low-way marginals.',
  reference:
    'McKenna, Mullins, Sheldon & Miklau, AIM: an adaptive and iterative mechanism for differentially private synthetic data, VLDB 2022, Algorithm 1',
  supports: { numeric: true, categorical: true },
  supportsNeighbouring: ['replace-one', 'add-remove'],
  fit: aimFit,
  params: AIM_PARAMS,
  plan: planAim,
  // ρ from the context's (ε, δ) (δ > 0, else the plan's problem), steps on `meter` under its relation.
  accountant: (context, meter) => zcdpAccountantFor(context, AIM_ID, meter),
  reserve: (plan, accountant) => reserveAim(accountant, plan),
  assumptions: aimAssumptions,
  // The zCDP claim with what it implies under the other relation (the meter's relation is the run's).
  finishClaim: (claim, { accountant, reserved }) => aimClaim(claim, accountant.delta, reserved),
  describe: describeAim,
});

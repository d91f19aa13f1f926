import { Accountant } from '../../../privacy/accountant';
import { standardAssumptions } from '../../../privacy/assumptions';
import { parseBudget } from '../../../privacy/budget';
import type { MeterStep } from '../../../privacy/meter';
import { roundDownRational } from '../../../privacy/round-up';
import type { Rational } from '../../../rng/rational';
import type { Schema } from '../../../table/types';
import { defineMechanismMeta, type DefinedMeta, type PlanProblems } from '../../shape/define-meta';
import type { MechanismFit, ParamValues, PublicContext } from '../../types';
import { planBinnedDomain, type BinnedDomain } from '../binning/binned-domain';
import { BINNING_PARAMS, binningChoiceFromParams } from '../coding/binning-params';
import { describeBinnedDomain } from '../binning/describe-domain';
import { priorWeightFor, type PriorDraw } from '../../../privacy/dirichlet-prior';
import { formatCount } from '../../../format/format-count';
import { binnedDomainAssumptions } from '../claims/public-assumptions';

/**
 * The plan shared by the two synthesizers that draw rows from a prior weight α per cell plus the real
 * counts (DIPS §3.2.1): Multinomial–Dirichlet (`posterior`) and McClure–Reiter's Binomial–Beta
 * (`posterior-mean`). They differ only in the draw (dirichlet-prior.ts): the domain, the budget split,
 * the claim and the run are the same code. Page-safe: no sampling here.
 */

/** What claim() and run() need from an accountant; tests pass a recorder. */
export type BudgetReserver = Pick<Accountant, 'reserve' | 'claim'>;

/** The catalogue fields a synthesizer of this family states itself; the rest is shared. */
export interface PriorDrawEntry {
  id: string;
  label: string;
  summary: string;
  reference: string;
  fit: MechanismFit;
  /** The one difference: a posterior draw (Pólya urn) or independent rows from the posterior mean. */
  draw: PriorDraw;
}

export function planPriorDrawDomain(
  schema: Schema,
  params: ParamValues,
  n: number | undefined,
): BinnedDomain {
  return planBinnedDomain(schema, binningChoiceFromParams(params), n, true);
}

/** What the settings fix before any data is read: the binned domain and its problems. */
export interface PriorDrawPlan extends PlanProblems {
  domain: BinnedDomain;
}

/** The plan `check`, `claim`, `describe` and the run share (n is public: replace-one only). */
export function planPriorDraw(schema: Schema, params: ParamValues, context?: PublicContext): PriorDrawPlan {
  const domain = planPriorDrawDomain(schema, params, context?.n);
  return { domain, problems: domain.problems };
}

/** One release's share of ε, the prior weight per cell that buys it, and the step the draw charges. */
export interface ReleasePlan {
  epsilon: Rational;
  prior: Rational;
  step: MeterStep;
}

/** A step's words: how the n rows are drawn and the α that buys ε/M. */
function stepWords(draw: PriorDraw, n: number, domainCells: number, prior: Rational): string {
  return draw === 'posterior'
    ? `${formatCount(n)} rows drawn from the Dirichlet–multinomial posterior over the ` +
        `${formatCount(domainCells)}-cell cross-tabulation, prior α = n/(e^ε − 1) = ${roundDownRational(prior)} ` +
        'per cell'
    : `${formatCount(n)} rows drawn independently from p*_k = (n_k + α)/(n + Kα) over the ` +
        `${formatCount(domainCells)}-cell cross-tabulation, α = 1/(e^(ε/n) − 1) = ${roundDownRational(prior)}`;
}

/**
 * ε/M per release (sequential composition: each release is a fresh draw from the same rows), each with
 * the prior weight that buys it (dirichlet-prior.ts has both replace-one derivations):
 * - posterior: α = n/(e^(ε/M) − 1);
 * - posterior mean: α = 1/(e^(ε/(M·n)) − 1); the M releases are M·n independent draws from one p*, so
 *   together they cost n·M·log(1 + 1/α) = ε, the same as composing M steps of ε/M.
 * Shared by claim() and run(), so the claim is what the run reserves.
 */
export function reservePriorDrawReleases(
  accountant: BudgetReserver,
  draw: PriorDraw,
  total: Rational,
  releases: number,
  n: number,
  domainCells: number,
): ReleasePlan[] {
  return Array.from({ length: releases }, (_, r) => {
    const epsilon = Accountant.split(total, releases);
    const prior = priorWeightFor(draw, n, epsilon);
    const step = accountant.reserve(
      `${stepWords(draw, n, domainCells, prior)}, release ${r + 1} of ${releases}`,
      epsilon,
    );
    return { epsilon, prior, step };
  });
}

const ROUNDING =
  'and α is rounded up; the α printed in the steps is rounded down, so ε recomputed from it is never below the claim.';

/** What the privacy of each draw rests on, and its bias. */
function drawAssumptions(draw: PriorDraw): string[] {
  return draw === 'posterior'
    ? [
        'The privacy comes from the prior: with α = n/(e^ε − 1) in every cell, replacing one row changes the ' +
          'probability of any synthetic table by at most the factor 1 + n/α = e^ε. The posterior draw is made ' +
          `exactly (a Pólya urn in integer arithmetic), ${ROUNDING}`,
        'The prior pulls every cell towards the same share, so synthetic proportions are biased towards ' +
          'uniform; the pull grows with n.',
      ]
    : [
        'The privacy comes from the prior: with α = 1/(e^(ε/n) − 1) in every cell, replacing one row changes the ' +
          'probability of each drawn row by at most the factor 1 + 1/α, so n rows by at most e^ε. Rows are drawn ' +
          `exactly (integer arithmetic), ${ROUNDING}`,
        'With two cells this is the Binomial–Beta synthesizer of McClure & Reiter; every column here also has a ' +
          'missing-value cell, so a binary column gives three cells. The prior pulls proportions towards uniform.',
      ];
}

export function priorDrawAssumptions(
  draw: PriorDraw,
  domain: BinnedDomain,
  context: PublicContext,
): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...binnedDomainAssumptions(domain.codings, context.schema),
    ...drawAssumptions(draw),
  ];
}

/** A meta of this family: its plan, its ε/M per release and its claim, derived from one spec. */
export type PriorDrawMeta = DefinedMeta<PriorDrawPlan, Accountant, ReleasePlan[]>;

/** The catalogue entry of a synthesizer of this family, without its run code. */
export function priorDrawMeta(entry: PriorDrawEntry): PriorDrawMeta {
  const { draw, ...stated } = entry;
  return defineMechanismMeta({
    ...stated,
    supports: { numeric: true, categorical: true },
    params: BINNING_PARAMS,
    plan: planPriorDraw,
    accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
    reserve: ({ domain }, accountant, context) =>
      reservePriorDrawReleases(
        accountant,
        draw,
        parseBudget(context.epsilon, context.delta).epsilon,
        context.releases,
        context.n,
        domain.domainCells,
      ),
    assumptions: ({ domain }, context) => priorDrawAssumptions(draw, domain, context),
    describe: ({ domain }) => describeBinnedDomain(domain),
  });
}

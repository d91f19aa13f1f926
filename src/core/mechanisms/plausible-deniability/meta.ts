import { Accountant } from '../../privacy/accountant';
import type { MeterStep } from '../../privacy/meter';
import { plausibleDeniabilityTestCost } from '../../privacy/plausible-deniability-cost';
import { parseBudget } from '../../privacy/budget';
import { roundUpRational } from '../../privacy/round-up';
import { Rational } from '../../rng/rational';
import { InputError } from '../../table/errors';
import { binnedMechanismAssumptions } from '../common/binning/binned-mechanism';
import { formatCount } from '../../format/format-count';
import { defineMechanismMeta } from '../shape/define-meta';
import type { ParamValues, PublicContext } from '../types';
import { PLAUSIBLE_DENIABILITY_PARAMS } from './params';
import {
  fallbackProbability,
  planPlausibleDeniability,
  PLAUSIBLE_DENIABILITY_ID,
  seedTestOf,
  type PdPlan,
} from './plan';
import { plausibleDeniabilityFit } from './fit';

/** A plan with every public number known (n, ε, δ, M given and no problem). */
export type CompletePdPlan = PdPlan & Required<Pick<PdPlan, 'sizes' | 'modelEpsilon' | 'maxCost' | 'draws'>>;

/** The plan, complete: throws InputError with every problem `check` reports. */
export function completeOrRefuse(plan: PdPlan): CompletePdPlan {
  if (plan.problems.length > 0) {
    throw new InputError(`${PLAUSIBLE_DENIABILITY_ID} cannot run: ${plan.problems.join(' ')}`);
  }
  if (!plan.sizes || !plan.modelEpsilon || !plan.maxCost || !plan.draws) {
    throw new Error(
      `${PLAUSIBLE_DENIABILITY_ID}: the plan is incomplete without n, ε, δ and the release count.`,
    );
  }
  return plan as CompletePdPlan;
}

/** The plan for a run or a claim; throws InputError with every problem `check` reports. */
export function completePlan(params: ParamValues, context: PublicContext): CompletePdPlan {
  return completeOrRefuse(planPlausibleDeniability(context.schema, params, context));
}

const up = (r: Rational) => roundUpRational(r);

/** The one step's words: parts, rows, T and the per-draw numbers (ε_a, δ_a and ε0 rounded up). */
function stepWords(plan: CompletePdPlan): string {
  const { sizes, draws } = plan;
  return (
    `Bayesian network: structure from ${formatCount(sizes.structure)} rows, conditional tables from ` +
    `${formatCount(sizes.parameters)} rows (ε = ${up(plan.modelEpsilon)} each); ` +
    `T = ${formatCount(draws.draws)} seed-based draws from ${formatCount(sizes.seeds)} seed rows, each ` +
    `(ε = ${up(draws.epsilonPerDraw)}, δ = ${up(draws.deltaPerDraw)}) with k = ${formatCount(draws.k)}, ` +
    `t = ${formatCount(draws.t)}, ε0 = ${up(draws.testEpsilon)}`
  );
}

/**
 * The single reservation, before any draw: three parts split by position (a row is in exactly one):
 * the structure (ε_M), the parameters (ε_M) and the T draws on the seeds (ε, T·δ_a by basic
 * composition of T draws of (ε/T, δ_a)). Their maximum is charged. Shared by claim() and run(); the
 * returned step's parts are charged by the entropies, the tables and the metered test.
 */
export function reservePlausibleDeniability(
  accountant: Pick<Accountant, 'reserveParallel'>,
  plan: CompletePdPlan,
): MeterStep {
  return accountant.reserveParallel(
    stepWords(plan),
    [{ epsilon: plan.modelEpsilon }, { epsilon: plan.modelEpsilon }, seedPartCost(plan)],
    'by-position',
  );
}

/**
 * The seed part: T draws of the privacy test, each costing what the metered test computes from its own
 * numbers (ε0 + L(t), δ_a): (T·(ε0 + L), T·δ_a), at most (ε, δ) by the choice of ε0 and k.
 */
export function seedPartCost(plan: CompletePdPlan): { epsilon: Rational; delta: Rational } {
  const { epsilon, delta } = plausibleDeniabilityTestCost(seedTestOf(plan));
  const draws = Rational.of(plan.draws.draws);
  return { epsilon: epsilon.mul(draws), delta: delta.mul(draws) };
}

export function plausibleDeniabilityAssumptions(plan: CompletePdPlan, context: PublicContext): string[] {
  const { sizes, draws } = plan;
  return binnedMechanismAssumptions(plan.domain, context, [
    `The rows are split by a uniform random permutation, drawn before any row is read, into ${formatCount(sizes.structure)} ` +
      `structure rows, ${formatCount(sizes.parameters)} parameter rows and ${formatCount(sizes.seeds)} seeds (sizes ` +
      'from n and the shares only); a replaced row lies in one part, so the cost is the largest part’s, not the sum.',
    'The privacy test’s premise (γ = 1): a seed-based row keeps the seed’s levels on the first m − ω attributes of the ' +
      'network order and draws the rest from the network, reading nothing else of the seed, so every seed that agrees with ' +
      'the row there would have produced it with the same probability.',
    `The ${formatCount(draws.draws)} draws (one per synthetic row, M·n) compose by basic composition: each is ` +
      `(ε/T, δ_a)-DP given the network, together (ε, T·δ_a). A failed test or the fallback coin yields a row from the ` +
      'network alone, never a missing row, and how often that happens is not reported.',
    'Floating point is used only where the guarantee does not rest on exact probabilities (the Dirichlet draws, generation ' +
      'from the network, decoding); the noise, the test threshold, the fallback coin, the seed and ω are drawn exactly.',
  ]);
}

/** What the reservation gives the run: the complete plan and the run's one step. */
export interface PdReserved {
  plan: CompletePdPlan;
  step: MeterStep;
}

/** Public facts of the plan: the attributes, the split, the per-draw budget, the fallback and when it pays off. */
function describePlausibleDeniability(plan: PdPlan, context: PublicContext): string[] {
  if (plan.problems.length > 0 || !plan.sizes || !plan.draws || plan.m === 0) return [];
  const { sizes, draws } = plan;
  const budget = parseBudget(context.epsilon, context.delta);
  const fallback = fallbackProbability(plan)!;
  const lines = [
    `Attributes: ${plan.domain.codings.map((c) => `${c.name} ${c.levels}`).join(', ')} levels (each includes a missing level); ` +
      `ω from ${plan.omegaMin} to ${plan.omegaMax} of ${plan.m} attributes resampled.`,
    `Rows split at random: ${formatCount(sizes.structure)} learn the structure, ${formatCount(sizes.parameters)} the ` +
      `conditional tables, ${formatCount(sizes.seeds)} are seeds.`,
    `Each of the T = ${formatCount(draws.draws)} draws is (ε = ${up(draws.epsilonPerDraw)}, δ = ${up(draws.deltaPerDraw)})-DP ` +
      `with k = ${formatCount(draws.k)}, t = ${formatCount(draws.t)} and test noise ε0 = ${up(draws.testEpsilon)}; ` +
      `the whole release is (ε = ${up(budget.epsilon)}, δ = ${up(draws.totalDelta)})-DP.`,
    `A row skips its seed and comes from the network alone with probability p_f = t/(t + n_S) = ` +
      `${roundUpRational(Rational.of(fallback.num, fallback.den), 4)}, or when its seed fails the test.`,
  ];
  if (draws.k > sizes.seeds) {
    lines.push(
      `k = ${formatCount(draws.k)} exceeds the ${formatCount(sizes.seeds)} seeds: almost every row will come from the network alone.`,
    );
  }
  lines.push(
    'It pays off from tens of thousands of rows: on 48,842 census rows in the paper’s per-draw regime its two-way ' +
      'marginals were off by 0.043 (TVD) against 0.077 for independent marginals, while on 6,295 and 19,708 rows ' +
      `with a noisy network it did no better than them (bench/RESULTS.md); here the tables learn from ${formatCount(sizes.parameters)} rows.`,
  );
  return lines;
}

/** Plausible-deniability synthesis: seeds rewritten by a DP Bayesian network behind a randomized privacy test. */
export const plausibleDeniabilityMeta = defineMechanismMeta({
  id: PLAUSIBLE_DENIABILITY_ID,
  label: 'Plausible deniability (seeded network)',
  summary:
    'Each row rewrites part of a random seed row with a DP Bayesian network, released only if enough seeds could have produced it (randomized test, exact noise); keeps joint structure.',
  reference:
    'Bindschaedler, Shokri & Gunter, Plausible deniability for privacy-preserving data synthesis (VLDB 2017), §2–3, Privacy Test 2, Theorem 1',
  supports: { numeric: true, categorical: true },
  fit: plausibleDeniabilityFit,
  params: PLAUSIBLE_DENIABILITY_PARAMS,
  plan: planPlausibleDeniability,
  accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
  // The one step needs every public number: a plan with problems is refused here (InputError).
  reserve: (plan, accountant): PdReserved => {
    const complete = completeOrRefuse(plan);
    return { plan: complete, step: reservePlausibleDeniability(accountant, complete) };
  },
  assumptions: (plan, context) => plausibleDeniabilityAssumptions(completeOrRefuse(plan), context),
  describe: describePlausibleDeniability,
});

import { parseRational, Rational } from '../rng/rational';
import type { Schema } from '../table/types';
import { formatBudget } from './ledger';
import { roundUpRational } from './round-up';
import type { ClaimStep, ComposedClaimParts, PrivacyClaim } from './types';

/** What the domain steps of a schema spent, exactly: Σ ε and Σ δ of its `domainBudget` steps. */
export function domainSpend(schema: Schema): { epsilon: Rational; delta: Rational } | null {
  const steps = schema.domainBudget?.steps ?? [];
  if (steps.length === 0) return null;
  return {
    epsilon: steps.reduce((sum, step) => sum.add(parseRational(step.epsilon)), Rational.ZERO),
    delta: steps.reduce((sum, step) => sum.add(parseRational(step.delta)), Rational.ZERO),
  };
}

/** The sentence a claim carries when the schema's facts were learned with a seed. */
export const SEEDED_DOMAIN_ASSUMPTION =
  "The schema's facts were learned with a seed: their random numbers are reproducible, so this output is " +
  'for demonstration, not for release.';

/** The words that start every domain step of a claim. */
export const DOMAIN_STEP_PREFIX = 'learning the domain: ';

/**
 * The claim of a run on `schema`: the mechanism's claim composed sequentially (Dwork & Roth 2014,
 * Theorem 3.16) with the DP steps that learned the schema's `dp` facts, since the release depends
 * on the data through both. Every domain step of the schema counts, whether or not the mechanism
 * reads its fact (the learned schema as a whole was seen). Totals are summed exactly from the
 * mechanism's stated (ε, δ) (already rounded up, so an upper bound) and the domain steps' exact
 * decimals, then rounded up (privacy rule 7). The notion stays pure-dp only when both parts are
 * pure; a GDP or zCDP mechanism's μ or ρ describes its part only, so the total is stated as
 * approx-dp and the mechanism's own totals are kept in `composedOf`. Returns the claim unchanged
 * when the schema learned nothing, or when it is already composed.
 */
export function withDomainSteps(claim: PrivacyClaim, schema: Schema): PrivacyClaim {
  const spend = domainSpend(schema);
  if (spend === null || claim.composedOf !== undefined) return claim;
  const domainSteps: ClaimStep[] = schema.domainBudget!.steps.map((step) => {
    const epsilon = roundUpRational(parseRational(step.epsilon));
    const delta = parseRational(step.delta);
    return delta.isZero()
      ? { what: DOMAIN_STEP_PREFIX + step.what, epsilon }
      : { what: DOMAIN_STEP_PREFIX + step.what, epsilon, delta: roundUpRational(delta) };
  });
  const epsilon = parseRational(claim.epsilon).add(spend.epsilon);
  const delta = parseRational(claim.delta).add(spend.delta);
  const domain = { epsilon: roundUpRational(spend.epsilon), delta: roundUpRational(spend.delta) };
  const mechanism: ComposedClaimParts['mechanism'] = {
    notion: claim.notion,
    epsilon: claim.epsilon,
    delta: claim.delta,
    ...(claim.mu === undefined ? {} : { mu: claim.mu }),
    ...(claim.rho === undefined ? {} : { rho: claim.rho }),
  };
  const { mu: _mu, rho: _rho, ...rest } = claim;
  return {
    ...rest,
    notion: claim.notion === 'pure-dp' && spend.delta.isZero() ? 'pure-dp' : 'approx-dp',
    epsilon: roundUpRational(epsilon),
    delta: roundUpRational(delta),
    steps: [...domainSteps, ...claim.steps],
    assumptions: [
      ...claim.assumptions,
      `The schema's facts marked "dp" were learned from this data with ${formatBudget(domain)} ` +
        `(the steps "${DOMAIN_STEP_PREFIX.trim()} …"); the total adds them to the mechanism's ` +
        `${formatBudget(mechanism)} by sequential composition.`,
      ...(schema.domainBudget!.seeded === true ? [SEEDED_DOMAIN_ASSUMPTION] : []),
    ],
    composedOf: { domain, mechanism },
  };
}

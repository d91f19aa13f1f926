import { Accountant } from '../../privacy/accountant';
import { standardAssumptions } from '../../privacy/assumptions';
import { parseBudget } from '../../privacy/budget';
import { roundDownRational } from '../../privacy/round-up';
import type { PrivacyClaim } from '../../privacy/types';
import type { Rational } from '../../rng/rational';
import type { Schema } from '../../table/types';
import { planBinnedDomain, type BinnedDomain } from '../common/binned-domain';
import { binningChoiceFromParams } from '../common/binning-params';
import { multinomialDirichletPrior } from '../common/dirichlet-prior';
import { formatCount } from '../common/format-count';
import { binnedDomainAssumptions } from '../common/public-assumptions';
import type { ParamValues, PublicContext } from '../types';

export const MULTINOMIAL_DIRICHLET_ID = 'multinomial-dirichlet';

/** What claim() and run() need from an accountant; tests pass a recorder. */
export type BudgetReserver = Pick<Accountant, 'reserve' | 'claim'>;

export function planDomain(schema: Schema, params: ParamValues, n: number | undefined): BinnedDomain {
  return planBinnedDomain(schema, binningChoiceFromParams(params), n, true);
}

/** One release's share of ε and the prior weight per cell that buys it. */
export interface ReleasePlan {
  epsilon: Rational;
  prior: Rational;
}

/**
 * ε/M per release (sequential composition: each release is a fresh Dirichlet–multinomial draw from
 * the same rows), each with the prior weight α = n/(e^(ε/M) − 1) per cell (dirichlet-prior.ts has the
 * replace-one derivation). Shared by claim() and run(), so the claim is what the run reserves.
 */
export function reserveReleases(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  n: number,
  domainCells: number,
): ReleasePlan[] {
  return Array.from({ length: releases }, (_, r) => {
    const epsilon = Accountant.split(total, releases);
    const prior = multinomialDirichletPrior(n, epsilon);
    accountant.reserve(
      `${formatCount(n)} rows drawn from the Dirichlet–multinomial posterior over the ` +
        `${formatCount(domainCells)}-cell cross-tabulation, prior α = n/(e^ε − 1) = ${roundDownRational(prior)} ` +
        `per cell, release ${r + 1} of ${releases}`,
      epsilon,
    );
    return { epsilon, prior };
  });
}

export function assumptionsFor(domain: BinnedDomain, context: PublicContext): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...binnedDomainAssumptions(domain.codings, context.schema),
    'The privacy comes from the prior: with α = n/(e^ε − 1) in every cell, replacing one row changes the ' +
      'probability of any synthetic table by at most the factor 1 + n/α = e^ε. The posterior draw is made ' +
      'exactly (a Pólya urn in integer arithmetic), and α is rounded up; the α printed in the steps is rounded down, so ε recomputed from it is never below the claim.',
    'The prior pulls every cell towards the same share, so synthetic proportions are biased towards ' +
      'uniform; the pull grows with n.',
  ];
}

export function claimFor(params: ParamValues, context: PublicContext): PrivacyClaim {
  const budget = parseBudget(context.epsilon, context.delta);
  const domain = planDomain(context.schema, params, context.n);
  const accountant = new Accountant(budget);
  reserveReleases(accountant, budget.epsilon, context.releases, context.n, domain.domainCells);
  return accountant.claim(assumptionsFor(domain, context));
}

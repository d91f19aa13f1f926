import { Accountant } from '../../privacy/accountant';
import { standardAssumptions } from '../../privacy/assumptions';
import { parseBudget } from '../../privacy/budget';
import { roundDownRational } from '../../privacy/round-up';
import type { PrivacyClaim } from '../../privacy/types';
import type { Rational } from '../../rng/rational';
import type { Schema } from '../../table/types';
import { planBinnedDomain, type BinnedDomain } from '../common/binned-domain';
import { binningChoiceFromParams } from '../common/binning-params';
import { mcclureReiterPrior } from '../common/dirichlet-prior';
import { formatCount } from '../common/format-count';
import { binnedDomainAssumptions } from '../common/public-assumptions';
import type { ParamValues, PublicContext } from '../types';

export const BINOMIAL_BETA_MR_ID = 'binomial-beta-mr';

/** What claim() and run() need from an accountant; tests pass a recorder. */
export type BudgetReserver = Pick<Accountant, 'reserve' | 'claim'>;

export function planDomain(schema: Schema, params: ParamValues, n: number | undefined): BinnedDomain {
  return planBinnedDomain(schema, binningChoiceFromParams(params), n, true);
}

export interface ReleasePlan {
  epsilon: Rational;
  prior: Rational;
}

/**
 * ε/M per release, each with α = 1/(e^(ε/(M·n)) − 1) per cell (dirichlet-prior.ts derives it for
 * replace-one). The M releases are M·n independent draws from one distribution p*, so together
 * they cost n·M·log(1 + 1/α) = ε: the same as composing M steps of ε/M. Shared by claim() and run().
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
    const prior = mcclureReiterPrior(n, epsilon);
    accountant.reserve(
      `${formatCount(n)} rows drawn independently from p*_k = (n_k + α)/(n + Kα) over the ` +
        `${formatCount(domainCells)}-cell cross-tabulation, α = 1/(e^(ε/n) − 1) = ${roundDownRational(prior)}, ` +
        `release ${r + 1} of ${releases}`,
      epsilon,
    );
    return { epsilon, prior };
  });
}

export function assumptionsFor(domain: BinnedDomain, context: PublicContext): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...binnedDomainAssumptions(domain.codings, context.schema),
    'The privacy comes from the prior: with α = 1/(e^(ε/n) − 1) in every cell, replacing one row changes the ' +
      'probability of each drawn row by at most the factor 1 + 1/α, so n rows by at most e^ε. Rows are drawn ' +
      'exactly (integer arithmetic), and α is rounded up; the α printed in the steps is rounded down, so ε recomputed from it is never below the claim.',
    'With two cells this is the Binomial–Beta synthesizer of McClure & Reiter; every column here also has a ' +
      'missing-value cell, so a binary column gives three cells. The prior pulls proportions towards uniform.',
  ];
}

export function claimFor(params: ParamValues, context: PublicContext): PrivacyClaim {
  const budget = parseBudget(context.epsilon, context.delta);
  const domain = planDomain(context.schema, params, context.n);
  const accountant = new Accountant(budget);
  reserveReleases(accountant, budget.epsilon, context.releases, context.n, domain.domainCells);
  return accountant.claim(assumptionsFor(domain, context));
}

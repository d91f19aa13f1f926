import { BINNING_PARAMS } from '../common/binning-params';
import { describeBinnedDomain } from '../common/describe-domain';
import type { Mechanism } from '../types';
import { claimFor, MULTINOMIAL_DIRICHLET_ID, planDomain } from './plan';
import { multinomialDirichletFit } from './fit';

/** The catalogue entry of the Multinomial–Dirichlet synthesizer, without its run code. */
export const multinomialDirichletMeta: Omit<Mechanism, 'run'> = {
  id: MULTINOMIAL_DIRICHLET_ID,
  label: 'Multinomial–Dirichlet',
  summary:
    'Rows drawn from the Dirichlet posterior of the cross-tabulation with a prior α = n/(e^ε − 1) per cell; no added noise, biased towards uniform.',
  reference:
    'Bowen & Liu, Comparative study of differentially private data synthesis methods, §3.2.1 and §4.1 (Abowd & Vilhuber 2008; Machanavajjhala et al. 2008)',
  supports: { numeric: true, categorical: true },
  fit: multinomialDirichletFit,
  params: BINNING_PARAMS,
  claim: claimFor,
  describe: (params, context) => describeBinnedDomain(planDomain(context.schema, params, context.n)),
  check: (schema, params, context) => planDomain(schema, params, context?.n).problems,
};

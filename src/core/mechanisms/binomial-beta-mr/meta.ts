import { BINNING_PARAMS } from '../common/binning-params';
import { describeBinnedDomain } from '../common/describe-domain';
import type { Mechanism } from '../types';
import { BINOMIAL_BETA_MR_ID, claimFor, planDomain } from './plan';
import { binomialBetaMrFit } from './fit';

/** The catalogue entry of the McClure–Reiter Binomial–Beta synthesizer, without its run code. */
export const binomialBetaMrMeta: Omit<Mechanism, 'run'> = {
  id: BINOMIAL_BETA_MR_ID,
  label: 'Binomial–Beta (McClure–Reiter)',
  summary:
    'Rows drawn from the posterior mean p* = (n_k + α)/(n + Kα) with α = 1/(e^(ε/n) − 1); made for one binary column, biased towards uniform.',
  reference:
    'Bowen & Liu, Comparative study of differentially private data synthesis methods, §3.2.1 and §4.1 (McClure & Reiter 2012)',
  supports: { numeric: true, categorical: true },
  fit: binomialBetaMrFit,
  params: BINNING_PARAMS,
  claim: claimFor,
  describe: (params, context) => describeBinnedDomain(planDomain(context.schema, params, context.n)),
  check: (schema, params, context) => planDomain(schema, params, context?.n).problems,
};

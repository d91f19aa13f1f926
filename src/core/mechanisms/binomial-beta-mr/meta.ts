import { priorDrawMeta } from '../common/prior-draw/plan';
import { binomialBetaMrFit } from './fit';

export const BINOMIAL_BETA_MR_ID = 'binomial-beta-mr';

/**
 * The catalogue entry of the McClure–Reiter Binomial–Beta synthesizer, without its run code: rows drawn
 * independently from the posterior mean. Plan and run are shared with multinomial-dirichlet
 * (common/prior-draw/), which differs only in the draw.
 */
export const binomialBetaMrMeta = priorDrawMeta({
  id: BINOMIAL_BETA_MR_ID,
  label: 'Binomial–Beta (McClure–Reiter)',
  summary:
    'Rows drawn from the posterior mean p* = (n_k + α)/(n + Kα) with α = 1/(e^(ε/n) − 1); made for one binary column, biased towards uniform.',
  reference:
    'Bowen & Liu, Comparative study of differentially private data synthesis methods, §3.2.1 and §4.1 (McClure & Reiter 2012)',
  fit: binomialBetaMrFit,
  draw: 'posterior-mean',
});

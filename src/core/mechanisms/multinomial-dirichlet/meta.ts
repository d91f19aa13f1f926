import { priorDrawMeta } from '../common/prior-draw/plan';
import { multinomialDirichletFit } from './fit';

export const MULTINOMIAL_DIRICHLET_ID = 'multinomial-dirichlet';

/**
 * The catalogue entry of the Multinomial–Dirichlet synthesizer, without its run code: rows drawn from
 * the Dirichlet posterior (a Pólya urn). Plan and run are shared with binomial-beta-mr
 * (common/prior-draw/), which differs only in the draw.
 */
export const multinomialDirichletMeta = priorDrawMeta({
  id: MULTINOMIAL_DIRICHLET_ID,
  label: 'Multinomial–Dirichlet',
  summary:
    'Rows drawn from the Dirichlet posterior of the cross-tabulation with a prior α = n/(e^ε − 1) per cell; no added noise, biased towards uniform.',
  reference:
    'Bowen & Liu, Comparative study of differentially private data synthesis methods, §3.2.1 and §4.1 (Abowd & Vilhuber 2008; Machanavajjhala et al. 2008)',
  fit: multinomialDirichletFit,
  draw: 'posterior',
});

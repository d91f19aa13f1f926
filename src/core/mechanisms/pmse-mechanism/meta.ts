import type { MechanismMeta } from '../types';
import { checkPmseMechanism } from './check';
import { pmseClaim, pmseSchemaRead } from './claim';
import { describePmseMechanism } from './describe';
import { PMSE_PARAMS } from './pmse-params';
import { pmseMechanismFit } from './fit';

export const PMSE_MECHANISM_ID = 'pmse-mechanism';

/** Snoke & Slavković's pMSE mechanism: exponential mechanism over synthesis-model parameters, sampled by MCMC. */
export const pmseMechanismMeta: MechanismMeta = {
  sweepRepeats: 'shared-chains',
  // Each chain places draws `thinning` apart in its `steps` post-burn-in iterations (drawIterations).
  sweepRepeatsPerRun: (params) =>
    Number(params.chains) * (Math.floor((Number(params.steps) - 1) / Number(params.thinning)) + 1),
  id: PMSE_MECHANISM_ID,
  label: 'pMSE mechanism',
  summary:
    'Parameters of a sequential parametric model drawn by the exponential mechanism, sampled by MCMC, with a propensity-tree pMSE as quality (by default the best depth-2 tree on a grid of synthetic quantiles), then data from the model; no bounds needed.',
  reference:
    'Snoke & Slavković, pMSE Mechanism: Differentially Private Synthetic Data with Maximal Distributional Similarity (PSD 2018), §3–4, Algorithm 2',
  supports: { numeric: true, categorical: true },
  fit: pmseMechanismFit,
  params: PMSE_PARAMS,
  claim: pmseClaim,
  schemaRead: pmseSchemaRead,
  describe: describePmseMechanism,
  check: checkPmseMechanism,
};

import { Accountant } from '../../privacy/accountant';
import { standardAssumptions } from '../../privacy/assumptions';
import { parseBudget } from '../../privacy/budget';
import type { PrivacyClaim } from '../../privacy/types';
import type { ParamValues, PublicContext } from '../types';
import { drawsPerChain, readPmseSettings, type PmseSettings } from './pmse-params';
import { reserveReleaseBudget } from './plan';

/**
 * What the pMSE mechanism's guarantee rests on, beyond the schema facts every mechanism lists
 * (DESIGN.md privacy rule 6: a claim never overstates).
 */
export function pmseAssumptions(settings: PmseSettings, releases: number): string[] {
  const sentences: string[] = [];
  if (settings.treeDepth === 1) {
    sentences.push(
      'The quality u(X, θ) uses depth-1 trees, for which the greedy split is the globally optimal one, so the ' +
        'sensitivity bound Δu = 1/n (Snoke & Slavković 2018, Theorem 2) holds exactly.',
    );
  } else {
    sentences.push(
      `The sensitivity Δu = 1/n is proven for trees with globally optimal splits (Snoke & Slavković 2018, ` +
        `Theorem 2); the propensity trees here (depth ${settings.treeDepthLabel}, cp ${settings.cp}) are fitted ` +
        'greedily and can exceed it: the paper measured 0.3–2.5 % of neighbouring datasets above the bound ' +
        '(Table 1). Choose depth 1 for a guarantee that rests on the theorem alone.',
    );
  }
  sentences.push(
    `Each θ̃ is drawn by a finite Metropolis chain (${settings.burnIn} burn-in and ${settings.steps} further ` +
      'iterations, from a start point and for a number of iterations fixed before the data are read), which ' +
      'only approximates the exponential mechanism’s distribution; the ε-DP guarantee is exact for exact draws.',
  );
  sentences.push(
    `u(X, θ) averages the pMSE over m = ${settings.m} synthetic dataset${settings.m === 1 ? '' : 's'} made from ` +
      'noise drawn once per run, independently of the data; the sensitivity bound holds for every synthetic ' +
      'dataset (Theorem 2, proof, eq. 8), so the exponential mechanism is run on this fixed quality function.',
  );
  const mostDraws = Math.max(...drawsPerChain(releases, settings.chains));
  if (mostDraws > 1) {
    sentences.push(
      `A chain provides up to ${mostDraws} releases taken ${settings.thinning} iterations apart; composing ` +
        'them as independent draws assumes the chain forgets its state over that many iterations.',
    );
  }
  return sentences;
}

/** Assumptions of a run: the schema's inferred facts and seed, then the mechanism's own. */
export function pmseClaimAssumptions(params: ParamValues, context: PublicContext): string[] {
  const settings = readPmseSettings(params, context.schema);
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...pmseAssumptions(settings, context.releases),
  ];
}

/**
 * Pure ε-DP by sequential composition of l exponential-mechanism draws at ε/l each (Snoke &
 * Slavković 2018, Algorithm 2 and Theorem 1); the synthetic data are post-processing
 * (Proposition 1). Computed from parameters and public facts only.
 */
export function pmseClaim(params: ParamValues, context: PublicContext): PrivacyClaim {
  const accountant = new Accountant(parseBudget(context.epsilon, context.delta));
  reserveReleaseBudget(accountant, context);
  return accountant.claim(pmseClaimAssumptions(params, context));
}

import { standardAssumptions } from '../../privacy/assumptions';
import type { UnprovenBound } from '../../privacy/types';
import { factSource, isPublicSource, withPartSources } from '../../table/schema-facts';
import type { Schema } from '../../table/types';
import type { ParamValues, PublicContext } from '../types';
import {
  drawsPerChain,
  isProvenQuality,
  pmseQualityOf,
  readPmseSettings,
  type PmseSettings,
} from './pmse-params';

/**
 * What the pMSE mechanism's guarantee rests on, beyond the schema facts every mechanism lists
 * (DESIGN.md privacy rule 6: a claim never overstates).
 */
export function pmseAssumptions(settings: PmseSettings, releases: number): string[] {
  const sentences: string[] = [];
  const quality = pmseQualityOf(settings);
  if (quality.kind === 'grid-tree') {
    sentences.push(
      `The quality u(X, θ) is the pMSE of the best tree of depth 2 whose splits lie on a grid of ` +
        `${quality.gridSize + 1} quantiles of each synthetic column, found by exhaustive search: u is the ` +
        'maximum of the pMSEs of partitions fixed before the real data are read (the grid comes from the ' +
        'synthetic data only), each of which moves by at most 1/(2(n + 1)) when one of the n real rows is ' +
        'replaced, so Δu = 1/(2n) holds exactly (proof in the mechanism’s README, “Quality functions”).',
    );
  } else if (quality.kind === 'exhaustive-stump') {
    sentences.push(
      'The quality u(X, θ) is the pMSE of the best single split, where every synthetic value is a possible ' +
        'cut ("x < v" or "x ≤ v"), which is the best split over every threshold: u is the maximum of the ' +
        'pMSEs of partitions fixed before the real data are read, each of which moves by at most ' +
        '1/(2(n + 1)) when one of the n real rows is replaced, so Δu = 1/(2n) holds exactly (proof in the ' +
        'mechanism’s README, “Quality functions”).',
    );
  } else {
    sentences.push(
      `The sensitivity Δu = 1/n is proven for trees with globally optimal splits (Snoke & Slavković 2018, ` +
        `Theorem 2); the propensity trees here (depth ${settings.treeDepthLabel}, cp ${settings.cp}) are fitted ` +
        'greedily and pruned by cp, and then the bound can fail: the paper measured 0.3–2.5 % of random ' +
        'neighbouring datasets above it (Table 1), and a chosen neighbour can move u by about cp·n/8 times ' +
        'the bound by switching a split on or off. The stated ε is therefore not a proven upper bound for ' +
        'this setting, even for exact draws. Choose the depth "2 on a grid" or 1 for a proven Δu.',
    );
  }
  sentences.push(
    'The Metropolis proposal (its scales and covariance) is adapted during burn-in from the chain’s own ' +
      'history, which depends on the data through u; the tempering of early burn-in follows a schedule fixed ' +
      'in advance. After burn-in the kernel is fixed and only post-burn-in states are released.',
  );
  sentences.push(
    `Each θ̃ is drawn by a finite Metropolis chain (${settings.burnIn} burn-in and ${settings.steps} further ` +
      'iterations, from a start point and for a number of iterations fixed before the data are read), which ' +
      'only approximates the exponential mechanism’s distribution; the ε-DP guarantee holds for exact draws ' +
      'and is not proven for the chain’s draws, which is why the claim does not call ε a proven bound.',
  );
  sentences.push(
    `u(X, θ) averages the pMSE over m = ${settings.m} synthetic dataset${settings.m === 1 ? '' : 's'} made from ` +
      'noise drawn once per run, independently of the data; the sensitivity bound holds for every synthetic ' +
      `dataset and so for their average (${
        isProvenQuality(quality)
          ? 'proof of Δu = 1/(2n): the mechanism’s README, “Quality functions”'
          : 'Snoke & Slavković 2018, Theorem 2, proof, eq. 8'
      }), so the exponential mechanism is run on this fixed quality function.`,
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

/** Why ε is not a proven bound for draws from a finite MCMC chain, whatever the quality function. */
export const MCMC_UNPROVEN_REASON = 'MCMC draws approximate the exponential mechanism';

/**
 * Why ε is not a proven bound, for every configuration (README, "Privacy claim"): the exponential
 * mechanism is ε-DP only for exact draws, and the draws come from a finite, adaptive Metropolis chain
 * (a finite chain has no pure-ε guarantee). With the grid tree and the exhaustive stump Δu = 1/(2n) is
 * proven (README, "Quality functions"), so ε holds for exact draws; greedy trees add a second reason,
 * their Δu is not proven.
 */
export function pmseUnprovenBound(settings: PmseSettings): UnprovenBound {
  if (isProvenQuality(pmseQualityOf(settings))) {
    return { unprovenBecause: `${MCMC_UNPROVEN_REASON}; ε holds for exact draws, Δu = 1/(2n) proven` };
  }
  return {
    unprovenBecause: `greedy trees, depth ${settings.treeDepthLabel}: Δu not proven; ${MCMC_UNPROVEN_REASON}`,
  };
}

/**
 * The schema as the pMSE mechanism reads it: bounds only when both ends are declared or learned
 * with DP (model.ts uses them to standardise and clamp; other bounds, the data's own extremes, are
 * ignored), so inferred bounds are neither claimed as an assumption nor published.
 */
export function pmseSchemaRead(schema: Schema): Schema {
  return {
    ...schema,
    columns: schema.columns.map((column) => {
      if (column.type !== 'numeric' || column.bounds === undefined) return column;
      if (isPublicSource(factSource(column, 'bounds'))) return column;
      const { bounds: _ignored, ...rest } = column;
      // Re-normalise the sources now that the column states no bounds.
      return withPartSources(rest, [], rest.source);
    }),
  };
}

/** Assumptions of a run: the inferred facts it reads and the seed, then the mechanism's own. */
export function pmseSettingsAssumptions(settings: PmseSettings, context: PublicContext): string[] {
  return [
    ...standardAssumptions(pmseSchemaRead(context.schema), context.seeded),
    ...pmseAssumptions(settings, context.releases),
  ];
}

/** The same assumptions from the parameters (the settings they give on the context's schema). */
export function pmseClaimAssumptions(params: ParamValues, context: PublicContext): string[] {
  return pmseSettingsAssumptions(readPmseSettings(params, context.schema), context);
}

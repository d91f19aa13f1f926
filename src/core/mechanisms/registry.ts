import { binomialBetaMr } from './binomial-beta-mr';
import { clustmix } from './clustmix';
import { dpMarginals } from './dp-marginals';
import { laplaceHistogram } from './laplace-histogram';
import { mst } from './mst';
import { modips } from './modips';
import { multinomialDirichlet } from './multinomial-dirichlet';
import { pmseMechanism } from './pmse-mechanism';
import { smoothedHistogram } from './smoothed-histogram';
import type { Mechanism } from './types';

/**
 * Every mechanism the studio and the CLI offer, in catalogue order.
 * Adding a mechanism = its folder under src/core/mechanisms/ plus one line here (see README.md).
 */
export const MECHANISMS: readonly Mechanism[] = [
  laplaceHistogram,
  smoothedHistogram,
  dpMarginals,
  pmseMechanism,
  clustmix,
  mst,
  multinomialDirichlet,
  binomialBetaMr,
  modips,
];

/** The mechanism with this id, or undefined when none is registered under it. */
export function getMechanism(id: string): Mechanism | undefined {
  return MECHANISMS.find((mechanism) => mechanism.id === id);
}

/** The ids of all registered mechanisms, in catalogue order. */
export function mechanismIds(): string[] {
  return MECHANISMS.map((mechanism) => mechanism.id);
}

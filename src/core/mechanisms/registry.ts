import { aim } from './aim';
import { binomialBetaMr } from './binomial-beta-mr';
import { clustmix } from './clustmix';
import { dpMarginals } from './dp-marginals';
import { dpSequentialRegression } from './dp-sequential-regression';
import { laplaceHistogram } from './laplace-histogram';
import { mst } from './mst';
import { modips } from './modips';
import { multinomialDirichlet } from './multinomial-dirichlet';
import { plausibleDeniability } from './plausible-deniability';
import { pmseMechanism } from './pmse-mechanism';
import { smoothedHistogram } from './smoothed-histogram';
import { getMechanismMeta, withMechanismId } from './catalogue';
import { composedMechanism } from './domain-composition';
import type { MechanismId } from './mechanism-id';
import type { Mechanism } from './types';

export { mechanismIds, parseMechanismId, type MechanismId } from './catalogue';

/** A registered mechanism: its id is one of MECHANISM_IDS. */
export type RegisteredMechanism = Mechanism & { readonly id: MechanismId };

/**
 * Every mechanism with its run, in catalogue order, for workers and the CLI (the page imports
 * catalogue.ts instead). Adding a mechanism = its folder plus one line here and one in
 * catalogue.ts, in the same place (README.md); registry.test.ts checks that the two lists agree.
 * Each takes its catalogue meta and composes its run's claim with the schema's DP domain steps
 * (domain-composition.ts).
 */
export const MECHANISMS: readonly RegisteredMechanism[] = [
  laplaceHistogram,
  smoothedHistogram,
  dpMarginals,
  pmseMechanism,
  clustmix,
  mst,
  aim,
  multinomialDirichlet,
  binomialBetaMr,
  modips,
  dpSequentialRegression,
  plausibleDeniability,
].map((mechanism) => {
  const meta = getMechanismMeta(mechanism.id);
  if (meta === undefined) throw new Error(`mechanism ${mechanism.id} has no meta in catalogue.ts`);
  return withMechanismId(composedMechanism(mechanism, meta));
});

/** The mechanism with this id; for any other text, undefined when none is registered under it. */
export function getMechanism(id: MechanismId): RegisteredMechanism;
export function getMechanism(id: string): RegisteredMechanism | undefined;
export function getMechanism(id: string): RegisteredMechanism | undefined {
  return MECHANISMS.find((mechanism) => mechanism.id === id);
}

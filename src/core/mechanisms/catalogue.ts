import { aimMeta } from './aim/meta';
import { binomialBetaMrMeta } from './binomial-beta-mr/meta';
import { clustmixMeta } from './clustmix/meta';
import { dpMarginalsMeta } from './dp-marginals/meta';
import { dpSequentialRegressionMeta } from './dp-sequential-regression/meta';
import { laplaceHistogramMeta } from './laplace-histogram/meta';
import { modipsMeta } from './modips/meta';
import { mstMeta } from './mst/meta';
import { multinomialDirichletMeta } from './multinomial-dirichlet/meta';
import { plausibleDeniabilityMeta } from './plausible-deniability/meta';
import { pmseMechanismMeta } from './pmse-mechanism/meta';
import { smoothedHistogramMeta } from './smoothed-histogram/meta';
import { composedMeta } from './domain-composition';
import { isMechanismId, MECHANISM_IDS, type MechanismId } from './mechanism-id';
import type { MechanismMeta } from './types';

export { isMechanismId, parseMechanismId, MECHANISM_IDS, type MechanismId } from './mechanism-id';

/** A meta whose id is a registered mechanism's. */
export type CatalogueMeta = MechanismMeta & { readonly id: MechanismId };

/** The meta with its id checked against MECHANISM_IDS (a meta under another id is a programming error). */
export function withMechanismId<M extends MechanismMeta>(meta: M): M & { readonly id: MechanismId } {
  if (!isMechanismId(meta.id)) throw new Error(`mechanism ${meta.id} is not listed in mechanism-id.ts`);
  return meta as M & { readonly id: MechanismId };
}

/**
 * What the page knows of every mechanism, in catalogue order: metas only, no run code, so the page
 * bundle stays free of samplers (workers and the CLI use registry.ts). Adding a mechanism = its
 * folder plus one line here and one in registry.ts, in the same place (README.md). Each claim is
 * composed with the schema's DP domain steps, if any (domain-composition.ts).
 */
export const MECHANISM_CATALOGUE: readonly CatalogueMeta[] = [
  laplaceHistogramMeta,
  smoothedHistogramMeta,
  dpMarginalsMeta,
  pmseMechanismMeta,
  clustmixMeta,
  mstMeta,
  aimMeta,
  multinomialDirichletMeta,
  binomialBetaMrMeta,
  modipsMeta,
  dpSequentialRegressionMeta,
  plausibleDeniabilityMeta,
].map((meta) => withMechanismId(composedMeta(meta)));

/** The meta of the mechanism with this id; for any other text, undefined when none is registered under it. */
export function getMechanismMeta(id: MechanismId): CatalogueMeta;
export function getMechanismMeta(id: string): CatalogueMeta | undefined;
export function getMechanismMeta(id: string): CatalogueMeta | undefined {
  return MECHANISM_CATALOGUE.find((mechanism) => mechanism.id === id);
}

/** The ids of all registered mechanisms, in catalogue order. */
export function mechanismIds(): MechanismId[] {
  return [...MECHANISM_IDS];
}

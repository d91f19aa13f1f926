import { InputError } from '../table/errors';

/**
 * The id of every registered mechanism, in catalogue order (catalogue.ts and registry.ts check that
 * their lists hold exactly these, in this order). Page-safe: no mechanism code.
 */
export const MECHANISM_IDS = [
  'laplace-histogram',
  'smoothed-histogram',
  'dp-marginals',
  'pmse-mechanism',
  'clustmix',
  'mst',
  'aim',
  'multinomial-dirichlet',
  'binomial-beta-mr',
  'modips',
  'dp-sequential-regression',
  'plausible-deniability',
] as const;

/** A registered mechanism's id, as the catalogue, the registry, the CLI and the studio hold it. */
export type MechanismId = (typeof MECHANISM_IDS)[number];

/** True when `text` is a registered mechanism's id. */
export function isMechanismId(text: string): text is MechanismId {
  return (MECHANISM_IDS as readonly string[]).includes(text);
}

/** `text` as a mechanism id, or an InputError naming it and the known ids (CLI flags, saved files). */
export function parseMechanismId(text: string): MechanismId {
  if (isMechanismId(text)) return text;
  throw new InputError(`unknown mechanism '${text}'. Known: ${MECHANISM_IDS.join(', ')}.`);
}

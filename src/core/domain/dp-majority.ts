import type { ChargeableStep } from '../privacy/meter';
import { meteredDiscreteLaplace } from '../privacy/metered/discrete-laplace';
import { querySensitivity, type QueryKind } from '../privacy/query-sensitivity';
import { Rational } from '../rng/rational';
import type { Rng } from '../rng/types';

/**
 * Whether more rows have a property than have its opposite, decided with ε-DP: with `yes` rows that
 * have it and `no` rows that have the opposite (other rows, e.g. missing cells, count for neither),
 * the answer is yes + … (yes − no) + Z ≥ 1 with Z exact discrete Laplace noise of scale 2/ε
 * (Canonne, Kamath & Steinke 2020), so a tie answers no.
 *
 * Sensitivity under replace-one with n public: one replaced row leaves one of the three groups
 * (yes, no, neither) and joins one, so yes − no moves by at most 2 (a row turning from yes to no);
 * noise of scale Δ/ε = 2/ε makes the noisy difference ε-DP, and the answer is post-processing.
 * (Under add/remove the row joins or leaves one group: Δ = 1.) The noise is drawn through the privacy
 * meter (`count-difference` query, privacy/query-sensitivity.ts) at the scale Δ/ε of the step's relation,
 * which charges `step` exactly ε.
 */
export function dpMajority(
  step: ChargeableStep,
  rng: Rng,
  yes: number,
  no: number,
  epsilon: Rational,
): boolean {
  const scale = querySensitivity(MAJORITY_QUERY, step.neighbouring).l1.div(epsilon);
  const [noisy] = meteredDiscreteLaplace(step, MAJORITY_QUERY, Float64Array.of(yes - no), scale, rng);
  return noisy! >= 1;
}

/** The query a majority answers: yes − no, two disjoint counts. */
export const MAJORITY_QUERY: QueryKind = { kind: 'count-difference' };

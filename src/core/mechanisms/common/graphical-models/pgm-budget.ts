import { parseBudget } from '../../../privacy/budget';
import { PrivacyMeter } from '../../../privacy/meter';
import { ZcdpAccountant } from '../../../privacy/zcdp-accountant';
import { InputError } from '../../../table/errors';
import type { PublicContext } from '../../types';

/**
 * The zCDP accountant for the budget the user gave: ρ is the largest (12 digits) whose conversion to
 * (ε, δ) stays within ε at δ (Canonne, Kamath & Steinke 2020, Corollary 13, the same conversion as
 * private-pgm's `cdp_rho`). Throws InputError with a sentence when δ = 0, which zCDP cannot meet.
 * `meter`: the run's privacy meter (`ctx.meter`), where the accountant registers its steps.
 */
export function zcdpAccountantFor(
  context: Pick<PublicContext, 'epsilon' | 'delta' | 'neighbouring'>,
  id: string,
  meter?: PrivacyMeter,
): ZcdpAccountant {
  const budget = parseBudget(context.epsilon, context.delta);
  if (budget.delta.isZero()) throw new InputError(deltaProblem(id));
  // Without the run's meter (a claim before a run), a fresh one under the context's relation, so the
  // plan's sensitivities and the claim's relation are the run's.
  return ZcdpAccountant.forBudget(budget, meter ?? new PrivacyMeter(context.neighbouring ?? 'replace-one'));
}

/** The sentence saying that a zCDP mechanism needs δ > 0. */
export function deltaProblem(id: string): string {
  return `${id} adds Gaussian noise, whose guarantee is stated as (ε, δ): set δ > 0 (for example 1e-9, well below 1/n).`;
}

/** True when the context's δ parses to 0 (a budget that cannot be parsed is reported by the budget fields). */
export function deltaIsZero(context: Pick<PublicContext, 'epsilon' | 'delta'>): boolean {
  try {
    return parseBudget(context.epsilon, context.delta).delta.isZero();
  } catch {
    return false;
  }
}

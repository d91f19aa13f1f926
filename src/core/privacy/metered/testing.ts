import type { ChargeableStep, StepCost } from '../meter';
import type { Neighbouring } from '../query-sensitivity';

/**
 * For tests that call a metered primitive many times outside a run (statistical and empirical privacy
 * tests): a step with no plan that keeps every charge it is given, so the test can also check them.
 */
export function recordingStep(
  notion: StepCost['notion'] = 'zcdp',
  neighbouring: Neighbouring = 'replace-one',
): ChargeableStep & { charges: StepCost[] } {
  const charges: StepCost[] = [];
  return {
    id: 0,
    what: 'test step',
    notion,
    neighbouring,
    charges,
    charge(cost: StepCost): void {
      charges.push(cost);
    },
  };
}

import type { MeterStep } from '../../privacy/meter';
import { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import type { Rational } from '../../rng/rational';

/** A real ZcdpAccountant that also appends "reserve" to `log` and keeps each step's exact ρ (tests). */
export class RecordingZcdpAccountant extends ZcdpAccountant {
  readonly reserved: { what: string; rho: Rational }[] = [];
  constructor(
    rhoBudget: Rational,
    delta: Rational,
    private readonly log: string[] = [],
  ) {
    super(rhoBudget, delta);
  }
  override reserve(what: string, rho: Rational): MeterStep {
    this.log.push('reserve');
    const step = super.reserve(what, rho);
    this.reserved.push({ what, rho });
    return step;
  }
}

import { describe, expect, it, vi } from 'vitest';
import { Accountant } from '../privacy/accountant';
import { parseRational, Rational } from '../rng/rational';
import { mixedTable, runContext } from './common/testing/fixtures';
import { resolveParams } from './params';
import { MECHANISMS } from './registry';
import { smoothingPlan } from './smoothed-histogram/meta';

// An ε sweep takes its R repeats at one ε from a single run with R releases at R·ε when a mechanism's
// meta says so (meta.sweepRepeats). That is only honest if each release of such a run spends exactly ε,
// as a run at ε would: checked here on the claims before running, for every mechanism that opts in.

const N = 60;
const { schema } = mixedTable(N);
const REPEATS = 5;
const EPSILON = '0.3';

/** The ε of every reservation made on a pure-DP accountant while `work` runs, as exact text, sorted. */
function reservedEpsilons(work: () => void): string[] {
  const reserved: string[] = [];
  const reserve = Accountant.prototype.reserve;
  const spy = vi.spyOn(Accountant.prototype, 'reserve').mockImplementation(function (
    this: Accountant,
    what: string,
    epsilon: Rational,
    delta?: Rational,
  ) {
    reserved.push(epsilon.toString());
    return reserve.call(this, what, epsilon, delta);
  });
  try {
    work();
  } finally {
    spy.mockRestore();
  }
  return reserved.sort();
}

describe('sweep repeats from one run', () => {
  const optedIn = MECHANISMS.filter((mechanism) => mechanism.sweepRepeats !== undefined);

  it('covers the histogram mechanisms, the sequential regression synthesizer and the pMSE mechanism', () => {
    expect(Object.fromEntries(optedIn.map((m) => [m.id, m.sweepRepeats]))).toEqual({
      'laplace-histogram': 'independent-releases',
      'dp-marginals': 'independent-releases',
      'smoothed-histogram': 'independent-releases',
      'pmse-mechanism': 'shared-chains',
      'dp-sequential-regression': 'independent-releases',
    });
  });

  for (const mechanism of MECHANISMS.filter(
    (m) => m.sweepRepeats !== undefined && m.id !== 'smoothed-histogram',
  )) {
    it(`${mechanism.id}: R releases at R·ε reserve R copies of the steps of one release at ε, exactly`, () => {
      // The reservations are recorded as exact rationals (the claim's steps are rounded up for display,
      // which would hide a split that is off in the 7th digit).
      const params = resolveParams(mechanism, {});
      const total = parseRational(EPSILON).mul(Rational.of(REPEATS)).toString(); // "3/2"
      const one = reservedEpsilons(() =>
        mechanism.claim(params, runContext(schema, N, { epsilon: EPSILON, releases: 1 })),
      );
      const many = reservedEpsilons(() =>
        mechanism.claim(params, runContext(schema, N, { epsilon: total, releases: REPEATS })),
      );
      expect(one.length).toBeGreaterThan(0);
      expect(many).toEqual(
        Array.from({ length: REPEATS }, () => one)
          .flat()
          .sort(),
      );
    });
  }

  it('pmse-mechanism: one run gives at most chains × the draws that fit in its steps', () => {
    // Defaults: 2 chains, 2,500 steps, thinning 500: draws at 500, 1000, …, 2500 → 5 per chain.
    const pmse = MECHANISMS.find((m) => m.id === 'pmse-mechanism')!;
    const params = resolveParams(pmse, {});
    const perRun = pmse.sweepRepeatsPerRun!(params);
    expect(perRun).toBe(10);
    const fits = runContext(schema, N, { epsilon: '10', releases: perRun });
    const tooMany = runContext(schema, N, { epsilon: '11', releases: perRun + 1 });
    expect(pmse.check(schema, params, fits)).toEqual([]);
    expect(pmse.check(schema, params, tooMany).join(' ')).toMatch(/draws|iterations/);
  });

  it('smoothed-histogram: λ for R releases at R·ε equals λ for one release at ε', () => {
    // λ = K/(K + n(e^(ε/T) − 1)) with T = M·n drawn rows: (R·ε)/(R·n) = ε/n. A plan that kept T = n
    // for R releases would give a different λ (checked as a control).
    const one = smoothingPlan(1000, N, 1, parseRational(EPSILON));
    const many = smoothingPlan(1000, N, REPEATS, parseRational(EPSILON).mul(Rational.of(REPEATS)));
    // Compared through 1 − λ, the weight of the data, which is what ε bounds.
    expect((1 - many.lambda) / (1 - one.lambda)).toBeCloseTo(1, 9);
    expect(many.totalDrawnRows).toBe(REPEATS * N);
    const wrong = smoothingPlan(1000, N, 1, parseRational(EPSILON).mul(Rational.of(REPEATS)));
    expect((1 - wrong.lambda) / (1 - one.lambda)).toBeGreaterThan(4);
  });
});

import { describe, expect, it } from 'vitest';
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

function sortedStepEpsilons(steps: { epsilon: number }[]): number[] {
  return steps.map((step) => step.epsilon).sort((a, b) => a - b);
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
    it(`${mechanism.id}: R releases at R·ε reserve R copies of the steps of one release at ε`, () => {
      const params = resolveParams(mechanism, {});
      const total = parseRational(EPSILON).mul(Rational.of(REPEATS)).toString(); // "3/2"
      const one = mechanism.claim(params, runContext(schema, N, { epsilon: EPSILON, releases: 1 }));
      const many = mechanism.claim(params, runContext(schema, N, { epsilon: total, releases: REPEATS }));
      const expected = sortedStepEpsilons(Array.from({ length: REPEATS }, () => one.steps).flat());
      expect(sortedStepEpsilons(many.steps)).toEqual(expected);
      expect(one.steps.length).toBeGreaterThan(0);
    });
  }

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

import { describe, expect, it } from 'vitest';
import { SeededRng } from '../rng';
import { runAdaptiveMetropolis, type MetropolisTarget } from './adaptive-metropolis';
import { splitRhatFromHalves } from './rhat';

/** Box–Muller standard normals for the proposal (test helper). */
function boxMuller(rng: SeededRng): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rng.nextFloat())) * Math.cos(2 * Math.PI * rng.nextFloat());
}

/** N(μ, Σ) with μ = (1, −2), Σ = [4, 1.8; 1.8, 1] (correlation 0.9): a target with a known answer. */
const MEAN = [1, -2];
const COVARIANCE = [4, 1.8, 1.8, 1];
const DETERMINANT = 4 * 1 - 1.8 * 1.8;
function gaussianTarget(): MetropolisTarget & { evaluations: number } {
  let last = NaN;
  const target = {
    dimension: 2,
    evaluations: 0,
    logWeight(theta: Float64Array) {
      target.evaluations++;
      const a = theta[0]! - MEAN[0]!;
      const b = theta[1]! - MEAN[1]!;
      // Quadratic form with Σ⁻¹ = [1, −1.8; −1.8, 4] / det.
      const quadratic =
        (COVARIANCE[3]! * a * a - 2 * COVARIANCE[1]! * a * b + COVARIANCE[0]! * b * b) / DETERMINANT;
      last = quadratic;
      return -0.5 * quadratic;
    },
    lastMonitoredValue: () => last,
  };
  return target;
}

describe('runAdaptiveMetropolis on a correlated 2-D Gaussian', () => {
  const steps = 20_000;
  const run = (seed: number, start: number[]) => {
    const rng = new SeededRng(seed);
    return runAdaptiveMetropolis(
      gaussianTarget(),
      start,
      { burnIn: 2000, steps, initialScales: [0.1, 0.1], drawAt: [steps], traceLimit: steps + 2000 },
      rng,
      boxMuller(rng),
    );
  };
  const first = run(1, [-5, 5]);
  const second = run(2, [6, -8]);

  it('recovers the mean and covariance within Monte Carlo error', () => {
    // Tolerances: random-walk Metropolis in 2-D with a tuned proposal has an integrated
    // autocorrelation time of at most ~30, so 20,000 kept draws give an ESS ≥ 660. The mean of θ1
    // then has sd ≤ √(4/660) ≈ 0.078 and of θ2 ≤ 0.039; we allow 4 sd. A sample variance has
    // relative sd ≈ √(2/ESS) ≈ 0.055; we allow 0.25 relative (4.5 sd).
    for (const result of [first, second]) {
      const [half1, half2] = result.halves;
      for (const [j, sd] of [
        [0, 0.078],
        [1, 0.039],
      ] as const) {
        const mean = (half1.mean[j]! + half2.mean[j]!) / 2;
        expect(Math.abs(mean - MEAN[j]!), `mean of θ${j + 1}`).toBeLessThan(4 * sd);
        const variance = (half1.variance[j]! + half2.variance[j]!) / 2;
        expect(Math.abs(variance / COVARIANCE[j * 3]! - 1), `variance of θ${j + 1}`).toBeLessThan(0.25);
      }
      // The monitored value is the quadratic form, χ²(2) under the target: mean 2.
      expect(Math.abs((half1.mean[2]! + half2.mean[2]!) / 2 - 2)).toBeLessThan(0.3);
    }
  });

  it('adapts the proposal to the target shape and the acceptance rate to ≈ 0.234', () => {
    for (const result of [first, second]) {
      const [l11, , l21, l22] = result.proposalCholesky;
      const correlation = l21! / Math.sqrt(l21! * l21! + l22! * l22!);
      expect(correlation).toBeGreaterThan(0.8);
      expect(l11! / Math.sqrt(l21! * l21! + l22! * l22!)).toBeGreaterThan(1.5); // sd ratio 2
      expect(result.acceptanceRate).toBeGreaterThan(0.15);
      expect(result.acceptanceRate).toBeLessThan(0.4);
    }
  });

  it('gives split-R̂ below 1.05 for two chains from opposite starts', () => {
    const halves = [...first.halves, ...second.halves];
    expect(splitRhatFromHalves(halves, 0)).toBeLessThan(1.05);
    expect(splitRhatFromHalves(halves, 1)).toBeLessThan(1.05);
  });

  it('records the requested draw, the full trace and the number of evaluations', () => {
    expect(first.draws).toHaveLength(1);
    expect(first.draws[0]).toEqual(first.finalState);
    expect(first.trace.iterations).toHaveLength(22_000);
    expect(first.logDensityEvaluations).toBe(22_001);
  });
});

describe('runAdaptiveMetropolis bookkeeping', () => {
  it('thins the trace to the limit and takes draws at the requested iterations', () => {
    const rng = new SeededRng(3);
    const result = runAdaptiveMetropolis(
      gaussianTarget(),
      [0, 0],
      { burnIn: 100, steps: 1000, initialScales: [1, 1], drawAt: [400, 700, 1000], traceLimit: 50 },
      rng,
      boxMuller(rng),
    );
    expect(result.trace.iterations.length).toBeLessThanOrEqual(50);
    expect(result.trace.iterations[0]).toBe(Math.ceil(1100 / 50));
    // The trace point at iteration 100 + 1000 is the final state, which is the last draw.
    expect(result.trace.parameters[0]!.at(-1)).toBe(result.draws[2]![0]);
    expect(result.draws.every((draw) => draw.length === 2)).toBe(true);
    expect(result.halves[0].count).toBe(500);
    expect(result.halves[1].count).toBe(500);
  });

  it('rejects draw iterations outside the kept segment', () => {
    const rng = new SeededRng(4);
    expect(() =>
      runAdaptiveMetropolis(
        gaussianTarget(),
        [0, 0],
        { burnIn: 10, steps: 10, initialScales: [1, 1], drawAt: [11], traceLimit: 10 },
        rng,
        boxMuller(rng),
      ),
    ).toThrow(RangeError);
  });

  it('throws AbortError as soon as the signal is set', () => {
    const rng = new SeededRng(5);
    const signal = { aborted: false };
    const target = gaussianTarget();
    expect(() =>
      runAdaptiveMetropolis(
        target,
        [0, 0],
        { burnIn: 100, steps: 100_000, initialScales: [1, 1], drawAt: [], traceLimit: 10 },
        rng,
        boxMuller(rng),
        {
          signal,
          onProgress: (done) => {
            if (done >= 1000) signal.aborted = true;
          },
        },
      ),
    ).toThrow(expect.objectContaining({ name: 'AbortError' }));
    expect(target.evaluations).toBeLessThan(2500);
  });

  it('reports live snapshots whose acceptance adds up to the final rate and whose value is the current state', () => {
    const rng = new SeededRng(9);
    const reports: { done: number; monitored: number; acceptance: number }[] = [];
    // total = 10,000 → a report every 100 iterations; burn-in ends on a report boundary.
    const result = runAdaptiveMetropolis(
      gaussianTarget(),
      [0, 0],
      { burnIn: 1000, steps: 9000, initialScales: [1, 1], drawAt: [], traceLimit: 100 },
      rng,
      boxMuller(rng),
      { onProgress: (done, _total, monitored, acceptance) => reports.push({ done, monitored, acceptance }) },
    );
    expect(reports).toHaveLength(100);
    expect(reports.map((r) => r.done)).toEqual(Array.from({ length: 100 }, (_, i) => (i + 1) * 100));
    // Each report covers the 100 iterations since the previous one, so the post-burn-in reports
    // count exactly the accepted proposals behind result.acceptanceRate.
    const acceptedAfterBurnIn = reports
      .filter((r) => r.done > 1000)
      .reduce((sum, r) => sum + r.acceptance * 100, 0);
    expect(acceptedAfterBurnIn).toBeCloseTo(result.acceptanceRate * 9000, 6);
    // The trace keeps every 100th iteration: the last report's value is the trace's last value.
    expect(reports.at(-1)!.monitored).toBe(result.trace.monitored.at(-1));
  });
});

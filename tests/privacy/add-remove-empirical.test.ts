/**
 * Empirical privacy checks under add/remove neighbours (one row added or removed, n private), able to
 * fail: the histogram mechanisms' noise step and dp-marginals' whole run, each beside a control whose
 * noise is calibrated for half the true sensitivity (add/remove L1 = 1, the control uses 1/2: what a run
 * at 2ε draws), which must fail.
 *
 * 1. The noise step (meteredNoisyPositiveCells on a step of the add/remove meter, at the scale
 *    laplaceScaleFor gives: t = Δ₁/ε = 1/ε) on counts a = (10, 0, 5, 3) and b = (11, 0, 5, 3), one row
 *    added to cell 0. Event TAIL: y0 ≥ 11. With q = e^(−1/t), P(Z ≥ 0) = 1/(1 + q), P(Z ≥ 1) = q/(1 + q),
 *    so P[TAIL | b]/P[TAIL | a] = 1/q = e^(1/t): exactly e^ε at t = 1/ε (tight), e^(2ε) for the control
 *    t = 1/(2ε). Event CELL1: y1 > 0 (the empty cell, which the sparse sampler skips over): the same in
 *    a and b, log-ratio 0, so it checks that skipping does not depend on the other cells.
 *    At ε = 1, 50,000 runs: P[TAIL | a] = q/(1 + q) = 0.269, SD of the log-ratio ≈ √((1 − p)/(Np)) summed
 *    over both sides ≈ 0.014; the Clopper–Pearson bounds (α = 10⁻⁶) subtract about 4.75 SD. Measured
 *    with these seeds: correct ε̂ 0.951 (TAIL), control 1.951.
 * 2. dp-marginals through the registry with `neighbouring: 'add-remove'`, one column x ∈ {a, b} with
 *    its missing level (3 cells): A = (a, b) and B = (b), a removed. The release has a noisy row count
 *    (noisy-row-count.ts), then rows drawn from the noisy levels. Events: NO_A (no synthetic row is a)
 *    and SOME_A. SOME_A is nearly tight: it needs the noisy count of a to be positive, whose ratio is
 *    P(Z ≥ 0)/P(Z ≥ 1) = e^ε exactly, and the draws blur it only a little; as post-processing of an
 *    ε-DP output its true log-ratio is at most ε. Measured with these seeds (20,000 runs per side):
 *    correct ε̂ 0.371 (NO_A), 0.895 (SOME_A, point estimate 1.008, SD ≈ 0.018, so the bound subtracts
 *    about 0.11); the control (a run at 2ε, the noise of half the sensitivity) 1.917 (SOME_A).
 */
import { describe, expect, it } from 'vitest';
import { laplaceScaleFor } from '../../src/core/privacy/noisy-cell-counts';
import { sparseFromDenseCounts } from '../../src/core/cells/sparse-cell-counts';
import { categoricalColumn } from '../../src/core/mechanisms/common/testing/fixtures';
import { rowsWithCategory } from '../../src/core/mechanisms/common/testing/audit-tables';
import { getMechanism } from '../../src/core/mechanisms/registry';
import type { Release } from '../../src/core/mechanisms/types';
import { PrivacyMeter } from '../../src/core/privacy/meter';
import { meteredNoisyPositiveCells } from '../../src/core/privacy/metered/noisy-positive-cells';
import { recordingStep } from '../../src/core/privacy/metered/testing';
import { Rational } from '../../src/core/rng/rational';
import { SeededRng } from '../../src/core/rng/seeded-rng';
import type { Schema, Table } from '../../src/core/table/types';
import { epsilonLowerBound } from './clopper-pearson';

const CLAIMED = 1;
const ALPHA = 1e-6;
const PARTITION = { kind: 'partition-counts' } as const;

describe('add/remove noise step, empirical privacy at ε = 1', () => {
  const RUNS = 50_000;
  const A = sparseFromDenseCounts([10, 0, 5, 3]);
  const B = sparseFromDenseCounts([11, 0, 5, 3]);

  /** Hits of TAIL and CELL1 over RUNS draws at `epsilon` (scale from the add/remove step's query table). */
  function hits(counts: typeof A, epsilon: Rational, seed: number): [number, number] {
    const step = recordingStep('approx-dp', 'add-remove');
    const scale = laplaceScaleFor(step, PARTITION, epsilon);
    const rng = new SeededRng(seed);
    let tail = 0;
    let cell1 = 0;
    for (let run = 0; run < RUNS; run++) {
      const noisy = meteredNoisyPositiveCells(step, PARTITION, counts, scale, rng, {
        domainCells: 4,
        upper: Infinity,
        signal: { aborted: false },
      });
      const at = (cell: number) => {
        const i = Array.prototype.indexOf.call(noisy.cells, cell) as number;
        return i < 0 ? 0 : noisy.weights[i]!;
      };
      if (at(0) >= 11) tail++;
      if (at(1) > 0) cell1++;
    }
    return [tail, cell1];
  }

  function largest(epsilon: Rational, seed: number): { epsilon: number; detail: string } {
    const a = hits(A, epsilon, seed);
    const b = hits(B, epsilon, seed + 1);
    const bounds = a.map((_, i) =>
      Math.max(epsilonLowerBound(a[i]!, b[i]!, RUNS, ALPHA), epsilonLowerBound(b[i]!, a[i]!, RUNS, ALPHA)),
    );
    const detail = `a=${a} b=${b} ε̂=${bounds.map((e) => e.toFixed(3))}`;
    return { epsilon: Math.max(...bounds), detail };
  }

  it('uses scale 1/ε under add/remove (sensitivity 1) and charges exactly ε', () => {
    const step = recordingStep('approx-dp', 'add-remove');
    const scale = laplaceScaleFor(step, PARTITION, Rational.of(1, 2));
    expect(scale.toString()).toBe('2');
    meteredNoisyPositiveCells(step, PARTITION, A, scale, new SeededRng(1), {
      domainCells: 4,
      upper: Infinity,
      signal: { aborted: false },
    });
    expect(step.charges).toHaveLength(1);
    const charge = step.charges[0]!;
    expect(charge.notion === 'approx-dp' && charge.epsilon.toString()).toBe('1/2');
  });

  it('passes with the step’s own scale (tight: the TAIL ratio is exactly e^ε)', () => {
    const { epsilon, detail } = largest(Rational.of(CLAIMED), 501);
    expect(epsilon, detail).toBeLessThanOrEqual(CLAIMED);
    expect(epsilon, detail).toBeGreaterThan(0.85);
  });

  it('fails with noise for half the sensitivity (scale 1/(2ε))', () => {
    const { epsilon, detail } = largest(Rational.of(2 * CLAIMED), 601);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED);
  });
});

describe('dp-marginals run under add/remove, empirical privacy at ε = 1', () => {
  const RUNS = 20_000;
  const SCHEMA: Schema = {
    version: 1,
    missing: [''],
    columns: [{ name: 'x', type: 'categorical', categories: ['a', 'b'], source: 'declared' }],
  };
  const table = (values: string[]): Table => ({
    nRows: values.length,
    columns: [categoricalColumn('x', values)],
  });
  const NEIGHBOURS = [table(['a', 'b']), table(['b'])] as const;
  const EVENTS = [
    (release: Release) => rowsWithCategory(release.datasets[0]!, 'x', 'a') === 0,
    (release: Release) => rowsWithCategory(release.datasets[0]!, 'x', 'a') > 0,
  ];

  async function eventHits(data: Table, epsilon: number, seed: number): Promise<number[]> {
    const mechanism = getMechanism('dp-marginals')!;
    const rng = new SeededRng(seed);
    const counts = EVENTS.map(() => 0);
    for (let run = 0; run < RUNS; run++) {
      const release = await mechanism.run(
        data,
        SCHEMA,
        {},
        {
          n: data.nRows,
          neighbouring: 'add-remove',
          meter: new PrivacyMeter('add-remove'),
          schema: SCHEMA,
          epsilon: String(epsilon),
          delta: 0,
          releases: 1,
          seeded: true,
          rng,
          progress: () => {},
          signal: { aborted: false },
        },
      );
      EVENTS.forEach((event, i) => {
        if (event(release)) counts[i]!++;
      });
    }
    return counts;
  }

  async function largest(epsilon: number, seed: number): Promise<{ epsilon: number; detail: string }> {
    const a = await eventHits(NEIGHBOURS[0], epsilon, seed);
    const b = await eventHits(NEIGHBOURS[1], epsilon, seed + 1);
    const bounds = a.map((_, i) =>
      Math.max(epsilonLowerBound(a[i]!, b[i]!, RUNS, ALPHA), epsilonLowerBound(b[i]!, a[i]!, RUNS, ALPHA)),
    );
    const detail = `a=${a} b=${b} ε̂=${bounds.map((e) => e.toFixed(3))}`;
    return { epsilon: Math.max(...bounds), detail };
  }

  it('passes with the run’s own noise', async () => {
    const { epsilon, detail } = await largest(CLAIMED, 701);
    expect(epsilon, detail).toBeLessThanOrEqual(CLAIMED);
    expect(epsilon, detail).toBeGreaterThan(0.3);
  }, 120_000);

  it('fails with the noise of half the sensitivity (a run at 2ε)', async () => {
    const { epsilon, detail } = await largest(2 * CLAIMED, 801);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED);
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../../privacy/budget';
import { PrivacyMeter } from '../../../privacy/meter';
import { Rational } from '../../../rng/rational';
import { SeededRng } from '../../../rng/seeded-rng';
import type { Schema, Table } from '../../../table/types';
import { composedMechanism } from '../../domain-composition';
import type { Mechanism, ParamValues, RunContext } from '../../types';

/**
 * What the meter of a converted mechanism must see on a small fixed table: the registry's wrapper
 * (domain-composition.ts) settles it before releasing, so a draw skipped (no noise) refuses the run with
 * a MeterMismatchError, and one made at another scale or prior (half the noise) is refused by the
 * primitive before it draws. These tests fail on either, and on a run that ignores cancellation.
 */
export interface MeteredRunCase {
  mechanism: Mechanism;
  table: Table;
  schema: Schema;
  params?: ParamValues;
  epsilon: string;
  releases: number;
  /** How many metered draws each planned step receives (1: one noisy vector or one sampling per step). */
  drawsPerStep: number;
  /** How many steps the plan has (e.g. M releases, or M·p marginals). */
  steps: number;
}

function context(c: MeteredRunCase, overrides: Partial<RunContext>): RunContext {
  return {
    n: c.table.nRows,
    schema: c.schema,
    epsilon: c.epsilon,
    delta: 0,
    releases: c.releases,
    seeded: true,
    rng: new SeededRng(20_261_128),
    progress: () => {},
    signal: { aborted: false },
    ...overrides,
  };
}

/** Registers the meter and cancellation tests of a converted mechanism. */
export function describeMeteredRun(c: MeteredRunCase): void {
  const wrapped = composedMechanism(c.mechanism, c.mechanism);
  describe(`${c.mechanism.id} on the privacy meter`, () => {
    it('a run through the registry charges every planned step exactly its claim', async () => {
      const meter = new PrivacyMeter();
      const release = await wrapped.run(c.table, c.schema, c.params ?? {}, context(c, { meter }));
      const steps = meter.steps();
      expect(steps).toHaveLength(c.steps);
      expect(release.claim.steps).toHaveLength(c.steps);
      for (const step of steps) {
        expect(step.settled(), step.what).toBe(true);
        expect(step.charges(), step.what).toBe(c.drawsPerStep);
      }
      // What was charged adds up to the whole budget exactly (sequential composition of the steps).
      const charged = steps.reduce((sum, s) => {
        const cost = s.charged();
        return cost.notion === 'approx-dp' ? sum.add(cost.epsilon) : sum;
      }, Rational.ZERO);
      expect(charged.equals(parseBudget(c.epsilon, 0).epsilon)).toBe(true);
    });

    it('in row blocks too', async () => {
      if (wrapped.runInBlocks === undefined) return;
      const meter = new PrivacyMeter();
      await wrapped.runInBlocks(c.table, c.schema, c.params ?? {}, context(c, { meter }), { blockRows: 4 });
      expect(meter.steps().every((s) => s.settled())).toBe(true);
    });

    it('stops with an AbortError when cancelled from its first progress call, releasing nothing', async () => {
      const signal = { aborted: false };
      let calls = 0;
      const run = wrapped.run(
        c.table,
        c.schema,
        c.params ?? {},
        // One release: the signal must be read after the first progress call even when nothing follows.
        context(c, {
          releases: 1,
          signal,
          progress: () => {
            calls++;
            signal.aborted = true;
          },
        }),
      );
      await expect(run).rejects.toMatchObject({ name: 'AbortError' });
      expect(calls).toBeGreaterThanOrEqual(1);
    });
  });
}

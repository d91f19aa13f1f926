/**
 * MST and AIM through the registry (the path of the CLI, the studio and row blocks), privacy meter
 * settled: what each step was charged, draw by draw; the sensitivity each private selection used
 * (recorded from the exact sampler); and cancellation from the first progress report.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PrivacyMeter } from '../../../privacy/meter';
import { recordingStep } from '../../../privacy/metered/testing';
import * as exponentialMechanism from '../../../rng/exponential-mechanism';
import { Rational } from '../../../rng/rational';
import { SeededRng } from '../../../rng/seeded-rng';
import { selectMarginal } from '../../aim/select-marginal';
import { pairScores, selectSpanningTree } from '../../mst/select-tree';
import { resolveParams } from '../../params';
import { getMechanism } from '../../registry';
import type { RunContext } from '../../types';
import { mixedTable, runContext } from '../testing/fixtures';
import { SCORE_GRID } from './grid-score';

const N = 300;
const { table, schema } = mixedTable(N);
const D = schema.columns.length;
const mst = getMechanism('mst')!;
const aim = getMechanism('aim')!;
const context = (overrides: Partial<RunContext> = {}) =>
  runContext(schema, N, { epsilon: '1', delta: '1e-6', rng: new SeededRng(3), ...overrides });

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every sensitivity handed to the exact exponential-mechanism samplers while `body` runs. */
async function selectionSensitivities(body: () => unknown): Promise<bigint[]> {
  const seen: bigint[] = [];
  const small = exponentialMechanism.sampleExponentialMechanism;
  const big = exponentialMechanism.sampleExponentialMechanismBig;
  vi.spyOn(exponentialMechanism, 'sampleExponentialMechanism').mockImplementation(
    (rng, scores, eps, sens) => {
      seen.push(BigInt(sens));
      return small(rng, scores, eps, sens);
    },
  );
  vi.spyOn(exponentialMechanism, 'sampleExponentialMechanismBig').mockImplementation(
    (rng, scores, eps, sens) => {
      seen.push(sens);
      return big(rng, scores, eps, sens);
    },
  );
  try {
    await body();
  } finally {
    vi.restoreAllMocks();
  }
  return seen;
}

describe('MST through the registry: each draw charged to its step, the claim settled', () => {
  it('charges d one-way draws, d − 1 selections and d − 1 two-way draws, each step exactly its plan', async () => {
    for (const form of ['run', 'runInBlocks'] as const) {
      const meter = new PrivacyMeter();
      await mst[form]!(table, schema, resolveParams(mst, {}), context({ meter }));
      expect(meter.steps().map((s) => [s.charges(), s.settled()])).toEqual([
        [D, true],
        [D - 1, true],
        [D - 1, true],
      ]);
    }
  });

  it('selects every edge with sensitivity 2 counts (2·2^20 grid units, replace-one)', async () => {
    const seen = await selectionSensitivities(() =>
      mst.run(table, schema, resolveParams(mst, {}), context()),
    );
    expect(seen).toEqual(Array(D - 1).fill(BigInt(2 * SCORE_GRID)));
    const levels = [Uint32Array.of(0, 1, 1), Uint32Array.of(1, 1, 0)];
    const oneWay = [Float64Array.of(1.5, 1.5), Float64Array.of(1.5, 1.5)];
    const { pairs, scores } = pairScores(levels, [2, 2], oneWay, 3);
    const direct = await selectionSensitivities(() =>
      selectSpanningTree(recordingStep(), new SeededRng(1), 2, pairs, scores, Rational.ONE),
    );
    expect(direct).toEqual([BigInt(2 * SCORE_GRID)]);
  });

  it('stops with an AbortError when cancelled from its first progress report', async () => {
    const signal = { aborted: false };
    const progress = vi.fn(() => {
      signal.aborted = true;
    });
    await expect(
      mst.run(table, schema, resolveParams(mst, {}), context({ signal, progress })),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(progress).toHaveBeenCalledTimes(1);
  });
});

describe('AIM through the registry: each draw charged to its step, the claim settled', () => {
  it('charges d one-way draws, then a selection and a measurement per round, each step exactly its plan', async () => {
    for (const form of ['run', 'runInBlocks'] as const) {
      const meter = new PrivacyMeter();
      const release = await aim[form]!(
        table,
        schema,
        resolveParams(aim, { maxIters: 20 }),
        context({ meter }),
      );
      const rounds = (release.diagnostics.rounds as unknown[]).length;
      expect(rounds).toBeGreaterThan(0);
      expect(meter.steps().map((s) => [s.charges(), s.settled()])).toEqual([
        [D, true],
        [2 * rounds, true],
      ]);
    }
  });

  it('selects with sensitivity 2·max w counts (replace-one): 2·5·2^20 grid units for weights 3 and 5', async () => {
    const candidates = [3, 5].map((weight) => ({
      answer: Float64Array.of(4, 6),
      estimate: Float64Array.of(5, 5),
      weight,
    }));
    const seen = await selectionSensitivities(() =>
      selectMarginal(recordingStep(), new SeededRng(1), candidates, 2, Rational.ONE),
    );
    expect(seen).toEqual([BigInt(2 * 5 * SCORE_GRID)]);
  });

  it('stops with an AbortError when cancelled from its first progress report', async () => {
    const signal = { aborted: false };
    const progress = vi.fn(() => {
      signal.aborted = true;
    });
    await expect(
      aim.run(table, schema, resolveParams(aim, {}), context({ signal, progress })),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(progress).toHaveBeenCalledTimes(1);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { sweepRunsFor } from './run-sweep';

vi.mock('./workers', () => ({ runPool: () => undefined, ensureTableOnWorker: async () => {} }));

describe('sweepRunsFor', () => {
  const pending = [0.1, 1].flatMap((epsilon) => [0, 1, 2, 3, 4].map((repeat) => ({ epsilon, repeat })));

  it('makes one run per point when repeats cannot share a run', () => {
    const runs = sweepRunsFor(pending, 1);
    expect(runs).toHaveLength(10);
    expect(runs.every((run) => run.repeats.length === 1)).toBe(true);
  });

  it('groups an ε’s repeats into runs of at most the per-run limit, every repeat once', () => {
    expect(sweepRunsFor(pending, 2)).toEqual([
      { epsilon: 0.1, repeats: [0, 1] },
      { epsilon: 0.1, repeats: [2, 3] },
      { epsilon: 0.1, repeats: [4] },
      { epsilon: 1, repeats: [0, 1] },
      { epsilon: 1, repeats: [2, 3] },
      { epsilon: 1, repeats: [4] },
    ]);
    expect(sweepRunsFor(pending, Infinity)).toEqual([
      { epsilon: 0.1, repeats: [0, 1, 2, 3, 4] },
      { epsilon: 1, repeats: [0, 1, 2, 3, 4] },
    ]);
  });

  it('keeps only the pending repeats (cached points are not run again)', () => {
    expect(
      sweepRunsFor(
        [
          { epsilon: 2, repeat: 3 },
          { epsilon: 2, repeat: 4 },
        ],
        10,
      ),
    ).toEqual([{ epsilon: 2, repeats: [3, 4] }]);
  });
});

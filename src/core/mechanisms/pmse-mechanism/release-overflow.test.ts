import { describe, expect, it } from 'vitest';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { SeededRng } from '../../rng';
import { writeCsv } from '../../table/csv-write';
import type { NumericColumn, Schema, Table } from '../../table/types';
import { resolveParams } from '../params';
import type { RunContext } from '../types';
import { finishPmseRun, makeChainRng, planPmseRun, pmseMechanism, runChain } from './index';
import { RELEASE_MAGNITUDE_LIMIT } from './release-overflow';
import { StageMeter } from '../../privacy/meter';

const unbounded: Schema = {
  version: 1,
  columns: [
    { name: 'x1', type: 'numeric', source: 'declared' },
    { name: 'x2', type: 'numeric', source: 'declared' },
  ],
  missing: [],
};
const bounded: Schema = {
  ...unbounded,
  columns: [
    { name: 'x1', type: 'numeric', bounds: [-10, 14], source: 'declared' },
    { name: 'x2', type: 'numeric', bounds: [-9, 6], source: 'declared' },
  ],
};

function smallTable(n: number): Table {
  const column = (name: string, values: number[]): NumericColumn => ({
    kind: 'numeric',
    name,
    values: Float64Array.from(values),
    missing: new Uint8Array(n),
  });
  const x1 = Array.from({ length: n }, (_, i) => (i % 9) - 2);
  return {
    nRows: n,
    columns: [
      column('x1', x1),
      column(
        'x2',
        x1.map((x) => 0.5 * x - 2),
      ),
    ],
  };
}

/**
 * A run whose released θ̃ is replaced by `theta` after the chains (as if the exponential mechanism had
 * drawn it): log σ of x1 = 800 makes σ overflow to Infinity.
 */
function finishWithTheta(schema: Schema, theta: number[]) {
  const n = 30;
  const context: RunContext = {
    n,
    schema,
    epsilon: '0.5',
    delta: 0,
    releases: 1,
    seeded: true,
    rng: new SeededRng(1),
    progress: () => {},
    signal: { aborted: false },
  };
  const params = resolveParams(pmseMechanism, { burnIn: 0, steps: 4, thinning: 1, chains: 1 });
  const accountant = new Accountant(parseBudget('0.5'));
  const plan = planPmseRun(smallTable(n), schema, params, context, context.rng, accountant);
  const result = runChain(plan.chainSpecs[0]!, makeChainRng(plan, 0), new StageMeter());
  result.draws[0] = theta;
  return () => finishPmseRun(plan, [result], schema, new SeededRng(2), accountant, []);
}

const OVERFLOWING_THETA = [0, 800, 0, 0.5, 0];

describe('synthetic values that overflow', () => {
  it('fail the run before release, naming the column, what to change and the spent budget', () => {
    expect(finishWithTheta(unbounded, OVERFLOWING_THETA)).toThrow(
      /synthetic values of `x1` \(release 1 of 1\) reach ±1e\+150; nothing was released\. The budget of this run \(ε = 0\.5\) is spent.*Declare bounds for `x1`.*aim for 100/,
    );
  });

  it('are clamped to declared bounds, and every value written to CSV is a finite number', () => {
    const release = finishWithTheta(bounded, OVERFLOWING_THETA)();
    const x1 = release.datasets[0]!.columns[0] as NumericColumn;
    expect(Array.from(x1.values).every((value) => value >= -10 && value <= 14)).toBe(true);
    // With σ infinite every value sits on a bound.
    expect(Array.from(x1.values).some((value) => value === -10 || value === 14)).toBe(true);
    const csv = writeCsv(release.datasets[0]!);
    const cells = csv
      .trim()
      .split('\n')
      .slice(1)
      .flatMap((line) => line.split(','));
    expect(cells.every((cell) => Number.isFinite(Number(cell)))).toBe(true);
  });

  it('leave ordinary draws alone', () => {
    const release = finishWithTheta(unbounded, [2, 1.15, -2.5, 0.5, 0.55])();
    const values = (release.datasets[0]!.columns[1] as NumericColumn).values;
    expect(Array.from(values).every((value) => Math.abs(value) < RELEASE_MAGNITUDE_LIMIT)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { SeededRng } from '../../rng';
import type { Schema, Table } from '../../table/types';
import type { PublicContext } from '../types';
import { makePmseTarget, makeQualityEvaluator } from './chain';
import { planPmseRun } from './plan';

// The proven quality functions keep Δu = 1/(2n) through the whole pipeline (planning, synthesis from
// the fixed noise, clamping to declared bounds, encoding, evaluation) on the pair that broke the
// former exhaustive stump: declared bounds [0, 100] clamp about half the synthetic values to exactly
// 0, and real values sit at 5e-324, the next double above 0. The former stump (rpart at depth 1)
// cut at the midpoint (0 + 5e-324)/2, which rounds to 0, so "x < 0" put every row on one side:
// u(X) = 0 but u(X′) = 0.097 for X′ with one real row moved to 0, |Δu|·2n = 38.9 against < 1.
// The greedy trees also cut at midpoints; their Δu is not proven anyway.

const schema: Schema = {
  version: 1,
  columns: [{ name: 'x', type: 'numeric', bounds: [0, 100], source: 'declared' }],
  missing: [''],
};

function table(values: number[]): Table {
  return {
    nRows: values.length,
    columns: [
      {
        kind: 'numeric',
        name: 'x',
        values: Float64Array.from(values),
        missing: new Uint8Array(values.length),
      },
    ],
  };
}

/** u(X, θ) as a chain of the run computes it; the plan's seed fixes the noise, so only X differs. */
function qualityAt(values: number[], treeDepth: string, theta: number[]): number {
  const n = values.length;
  const context: PublicContext = { n, schema, epsilon: '1', delta: 0, releases: 1, seeded: true };
  const accountant = new Accountant(parseBudget('1', 0));
  const plan = planPmseRun(table(values), schema, { treeDepth }, context, new SeededRng(5), accountant);
  // Only u is read here; the log weight is not used.
  return makePmseTarget(plan.chainSpecs[0]!, () => 0, makeQualityEvaluator).quality(theta);
}

describe('proven quality functions through the pipeline, synthetic values clamped to a bound', () => {
  const n = 200;
  // θ = (intercept, log σ) of x on the standardised scale z = (x − 50)/25: x ~ N(0, 25²), so about
  // half the synthetic rows are clamped to 0 and the rest lie below 100.
  const theta = [-2, 0];
  for (const treeDepth of ['1', '2-grid']) {
    it(`treeDepth ${treeDepth}: |u(X) − u(X′)| ≤ 1/(2n) with real rows one ulp above the bound`, () => {
      let largest = 0;
      let largestU = 0;
      // X: a real rows at 5e-324 and n − a at 100; X′ moves one of the a rows to 0.
      for (let a = 1; a < n; a += 3) {
        const real = [...Array<number>(a).fill(5e-324), ...Array<number>(n - a).fill(100)];
        const neighbour = [0, ...real.slice(1)];
        const u = qualityAt(real, treeDepth, theta);
        largestU = Math.max(largestU, u);
        largest = Math.max(largest, Math.abs(u - qualityAt(neighbour, treeDepth, theta)));
      }
      // The quality sees the pile at 0: the real rows are not where the synthetic ones are.
      expect(largestU).toBeGreaterThan(0.05);
      expect(largest * 2 * n).toBeLessThanOrEqual(1);
    });
  }
});

import { describe, expect, it } from 'vitest';
import { pmseNullMeansOnTwoThreads } from '../../src/cli/pmse-null-threads';
import { cartPmseInput, cartPmseNullSum } from '../../src/core/metrics/pmse';
import { SYNTHPOP_CART_DEFAULTS } from '../../src/core/models/cart/cart-types';
import { SeededRng } from '../../src/core/rng/seeded-rng';
import type { Table } from '../../src/core/table/types';

function numericTable(rng: SeededRng, n: number, shift: number): Table {
  const column = (name: string, offset: number) => ({
    kind: 'numeric' as const,
    name,
    values: Float64Array.from({ length: n }, () => rng.nextFloat() + offset),
    missing: new Uint8Array(n),
  });
  return { nRows: n, columns: [column('a', shift), column('b', 0)] };
}

describe('the pMSE null on two threads (dpsynth metrics)', () => {
  it('equals the two halves computed in line with the same seeds, whichever thread runs the second half', async () => {
    const rng = new SeededRng('tables');
    const real = numericTable(rng, 300, 0);
    const synths = [numericTable(rng, 300, 0.2), numericTable(rng, 250, 0)];
    const means = await pmseNullMeansOnTwoThreads(
      real,
      synths,
      SYNTHPOP_CART_DEFAULTS,
      7,
      new SeededRng('null'),
    );
    // The same computation in line: per release, a seed for the worker's 3 refits drawn from the
    // generator, then this thread's 4 refits from it.
    const expectedRng = new SeededRng('null');
    const expected = synths.map((synth) => {
      const { input, share } = cartPmseInput(real, synth);
      const seed = `pmse-null-${expectedRng.nextUint32()}-${expectedRng.nextUint32()}`;
      const mine = cartPmseNullSum(input, SYNTHPOP_CART_DEFAULTS, share, 4, expectedRng);
      const theirs = cartPmseNullSum(input, SYNTHPOP_CART_DEFAULTS, share, 3, new SeededRng(seed));
      return (mine + theirs) / 7;
    });
    expect(means).toEqual(expected);
    expect(means![0]).toBeGreaterThan(0);
  });

  it('leaves a single refit to the in-line null', async () => {
    const rng = new SeededRng('small');
    const real = numericTable(rng, 50, 0);
    expect(await pmseNullMeansOnTwoThreads(real, [real], SYNTHPOP_CART_DEFAULTS, 1, rng)).toBeUndefined();
  });
});

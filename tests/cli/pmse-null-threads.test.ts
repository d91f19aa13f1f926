import { describe, expect, it } from 'vitest';
import {
  nullWorkerUrl,
  secondThreadHelps,
  startPmseNull,
  workerRefits,
} from '../../src/cli/pmse-null-threads';
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
  it('equals the two parts computed in line with the same seeds, however the threads shared the refits', async () => {
    const rng = new SeededRng('tables');
    const real = numericTable(rng, 300, 0);
    const synths = [numericTable(rng, 300, 0.2), numericTable(rng, 250, 0)];
    const generator = new SeededRng('null');
    const pmseNull = await startPmseNull(real, synths, SYNTHPOP_CART_DEFAULTS, 7, generator);
    expect(pmseNull).toBeDefined();
    // Something else uses the generator between the start and the asks (the other metrics do).
    generator.nextUint32();
    const means = [pmseNull!.nullMeanOf(0), pmseNull!.nullMeanOf(1)];
    await pmseNull!.stop();
    // The same computation in line: per release, the worker part's seed then this thread's, drawn
    // from the generator in release order before anything else; 4 refits in part 0 (workerRefits(7)), 3 in part 1.
    expect(workerRefits(7)).toBe(4);
    const expectedRng = new SeededRng('null');
    const seeds = synths.map(() => [
      `pmse-null-${expectedRng.nextUint32()}-${expectedRng.nextUint32()}`,
      `pmse-null-${expectedRng.nextUint32()}-${expectedRng.nextUint32()}`,
    ]);
    const expected = synths.map((synth, j) => {
      const { input, share } = cartPmseInput(real, synth);
      const theirs = cartPmseNullSum(input, SYNTHPOP_CART_DEFAULTS, share, 4, new SeededRng(seeds[j]![0]));
      const mine = cartPmseNullSum(input, SYNTHPOP_CART_DEFAULTS, share, 3, new SeededRng(seeds[j]![1]));
      return (mine + theirs) / 7;
    });
    expect(means).toEqual(expected);
    expect(means[0]).toBeGreaterThan(0);
  });

  it('leaves a single refit to the in-line null', async () => {
    const rng = new SeededRng('small');
    const real = numericTable(rng, 50, 0);
    expect(await startPmseNull(real, [real], SYNTHPOP_CART_DEFAULTS, 1, rng)).toBeUndefined();
  });
});

describe('where the pMSE null worker thread is looked for', () => {
  it('beside the module in the sources, beside main.js in the built command (from main.js or a chunk)', () => {
    expect(nullWorkerUrl('file:///p/src/cli/pmse-null-threads.ts').href).toBe(
      'file:///p/src/cli/pmse-null-worker.ts',
    );
    expect(nullWorkerUrl('file:///p/dist-cli/main.js').href).toBe('file:///p/dist-cli/pmse-null-worker.js');
    expect(nullWorkerUrl('file:///p/dist-cli/chunks/chunk-ABC123.js').href).toBe(
      'file:///p/dist-cli/pmse-null-worker.js',
    );
  });
});

describe('when the pMSE null takes a second thread', () => {
  it('only with two cores or more and a load average below the number of cores', () => {
    expect(secondThreadHelps(0.4, 2)).toBe(true);
    expect(secondThreadHelps(1.9, 2)).toBe(true);
    expect(secondThreadHelps(2, 2)).toBe(false);
    expect(secondThreadHelps(14, 2)).toBe(false);
    expect(secondThreadHelps(0, 1)).toBe(false);
    expect(secondThreadHelps(5, 8)).toBe(true);
  });

  it('gives the same null without a worker thread (this thread fits every refit of the same parts)', async () => {
    const rng = new SeededRng('one thread');
    const real = numericTable(rng, 200, 0);
    const synth = numericTable(rng, 150, 0.2);
    const alone = await startPmseNull(real, [synth], SYNTHPOP_CART_DEFAULTS, 5, new SeededRng('n'), null);
    const shared = await startPmseNull(real, [synth], SYNTHPOP_CART_DEFAULTS, 5, new SeededRng('n'));
    const means = [alone!.nullMeanOf(0), shared!.nullMeanOf(0)];
    await Promise.all([alone!.stop(), shared!.stop()]);
    expect(means[0]).toBeGreaterThan(0);
    expect(means[0]).toBe(means[1]);
  });
});

import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng';
import { makeBucketOrder } from './bucket-order';

/** Columns that stress the bucketing: ties, one far outlier (one huge bucket), ±1e300, all equal, subnormals. */
function columns(rng: SeededRng): Float64Array[] {
  const n = 257;
  return [
    Float64Array.from({ length: n }, () => rng.nextFloat()),
    Float64Array.from({ length: n }, () => Math.floor(rng.nextFloat() * 5)),
    Float64Array.from({ length: n }, (_, i) => (i === 0 ? 1e9 : rng.nextFloat())),
    Float64Array.from({ length: n }, () => (rng.nextFloat() < 0.5 ? -1e300 : 1e300 * rng.nextFloat())),
    Float64Array.from({ length: n }, () => 3.5),
    Float64Array.from({ length: n }, () => rng.nextFloat() * 5e-324 * 7),
    Float64Array.of(2),
  ];
}

describe('bucket order', () => {
  it('gives every rank the value a full sort gives, and the whole sorted column', () => {
    const rng = new SeededRng('bucket-order');
    const order = makeBucketOrder(257);
    const single = makeBucketOrder(1);
    for (const column of columns(rng)) {
      const target = column.length === 1 ? single : order;
      const expected = Float64Array.from(column).sort();
      target.deal(column);
      // Ranks out of order too (the rank cursor must move back).
      const ranks = [...Array(column.length).keys()].reverse();
      for (const rank of ranks) expect(target.valueAt(rank)).toBe(expected[rank]);
      const out = new Float64Array(column.length);
      target.sortInto(out);
      expect(Array.from(out)).toEqual(Array.from(expected));
    }
  });
});

/**
 * Order statistics of a numeric column without a full comparison sort, for the grid-tree quality
 * (grid-tree-quality.ts), which needs them once per MCMC iteration: the values are dealt into B
 * equal-width buckets between the column's minimum and maximum (bucket ⌊(x − min)·B/(max − min)⌋,
 * a non-decreasing function of x because IEEE subtraction, multiplication and floor are monotone), so
 * the buckets laid end to end and each sorted are the sorted column. Only the buckets that hold a
 * wanted rank are sorted. The values found are exactly those of a full sort (up to the sign of a zero,
 * which no comparison sees); only the work differs. Written by hand because it runs in the chain's
 * inner loop and must allocate nothing.
 */
export interface BucketOrder {
  /** Deals `values` (finite, the length given at creation) into the buckets; the next calls read them. */
  deal(values: Float64Array): void;
  /** The value of rank `rank` (0-based) in ascending order of the last dealt column. */
  valueAt(rank: number): number;
  /** Writes the whole column in ascending order to `out`. */
  sortInto(out: Float64Array): void;
  /** Number of buckets B. */
  readonly bucketCount: number;
  /** Bucket of each row of the last dealt column (read-only view). */
  readonly rowBucket: Int32Array;
  /** Bucket b holds the values bucketed[start[b]] … bucketed[start[b + 1] − 1] (read-only views). */
  readonly start: Int32Array;
  readonly bucketed: Float64Array;
}

/** Segments this short are sorted by insertion; longer ones by the built-in typed-array sort. */
const INSERTION_LIMIT = 48;

export function makeBucketOrder(length: number): BucketOrder {
  const bucketCount = Math.max(1, Math.ceil(length / 8));
  const start = new Int32Array(bucketCount + 1);
  const sorted = new Uint8Array(bucketCount);
  const bucketOf = new Int32Array(length);
  const dealt = new Float64Array(length);
  // Bucket of each rank's position: the bucket index b with start[b] ≤ rank < start[b + 1].
  let lastBucket = 0;

  /** Sorts dealt[from, to) ascending in place. */
  const sortSegment = (from: number, to: number): void => {
    if (to - from > INSERTION_LIMIT) {
      dealt.subarray(from, to).sort();
      return;
    }
    for (let i = from + 1; i < to; i++) {
      const x = dealt[i]!;
      let k = i - 1;
      while (k >= from && dealt[k]! > x) {
        dealt[k + 1] = dealt[k]!;
        k--;
      }
      dealt[k + 1] = x;
    }
  };

  const ensureSorted = (bucket: number): void => {
    if (sorted[bucket] === 0) {
      sortSegment(start[bucket]!, start[bucket + 1]!);
      sorted[bucket] = 1;
    }
  };

  return {
    bucketCount,
    rowBucket: bucketOf,
    start,
    bucketed: dealt,
    deal(values) {
      let min = values[0]!;
      let max = min;
      for (let i = 1; i < length; i++) {
        const x = values[i]!;
        if (x < min) min = x;
        else if (x > max) max = x;
      }
      const range = max - min;
      start.fill(0);
      sorted.fill(0);
      lastBucket = 0;
      if (!(range > 0) || !Number.isFinite(range) || !Number.isFinite(bucketCount / range)) {
        // One bucket: all values equal, or a range too wide or narrow to scale; a plain sort.
        dealt.set(values);
        bucketOf.fill(0);
        start.fill(length, 1);
        return;
      }
      const scale = bucketCount / range;
      const top = bucketCount - 1;
      for (let i = 0; i < length; i++) {
        let b = Math.floor((values[i]! - min) * scale);
        if (b > top) b = top;
        bucketOf[i] = b;
        start[b + 1]!++;
      }
      for (let b = 0; b < bucketCount; b++) start[b + 1] += start[b]!;
      // Scatter with the bucket starts as write cursors, then shift them back.
      for (let i = 0; i < length; i++) dealt[start[bucketOf[i]!]!++] = values[i]!;
      for (let b = bucketCount; b > 0; b--) start[b] = start[b - 1]!;
      start[0] = 0;
    },
    valueAt(rank) {
      if (rank < start[lastBucket]!) lastBucket = 0;
      while (start[lastBucket + 1]! <= rank) lastBucket++;
      ensureSorted(lastBucket);
      return dealt[rank]!;
    },
    sortInto(out) {
      for (let b = 0; b < bucketCount; b++) ensureSorted(b);
      out.set(dealt);
    },
  };
}

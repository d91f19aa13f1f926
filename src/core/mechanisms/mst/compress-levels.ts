import type { Rational } from '../../rng/rational';

/**
 * How one column's levels are merged after its noisy one-way histogram is seen (post-processing):
 * the levels kept, then at most one merged level standing for all the others.
 */
export interface LevelCompression {
  /** compressed[l]: the compressed level of original level l. */
  compressed: Uint32Array;
  /** The original levels of each compressed level (the last one is the merged level when there is one). */
  members: number[][];
  /** Noisy counts of the compressed levels (the merged level: the sum of its members' noisy counts). */
  y: Float64Array;
  /** 1/variance of each compressed level's noise: 1/σ², or 1/(kσ²) for a merged level of k levels. */
  weight: Float64Array;
}

/**
 * private-pgm's `compress_domain` (mechanisms/mst.py): keep the levels whose noisy count y satisfies
 * y >= 3σ, i.e. y >= 0 and y² >= 9σ² — tested exactly on integers, with σ² a rational — and merge the
 * others into one level measured by the sum of their noisy counts (k independent noises: variance kσ²).
 * When every level is kept nothing is merged. Levels that noise alone would rarely push past 3σ are
 * mostly empty, so the model gets smaller without losing much. Cost O(levels).
 */
export function compressLevels(noisy: Float64Array, sigma2: Rational): LevelCompression {
  const keep: number[] = [];
  const merged: number[] = [];
  const nine = 9n * sigma2.num;
  for (let l = 0; l < noisy.length; l++) {
    const y = noisy[l]!;
    if (!Number.isSafeInteger(y)) throw new RangeError(`noisy count ${y} is not a whole number`);
    const big = BigInt(y);
    if (y >= 0 && big * big * sigma2.den >= nine) keep.push(l);
    else merged.push(l);
  }
  const members = keep.map((l) => [l]);
  if (merged.length > 0) members.push(merged);
  return compressionOf(noisy, members, sigma2.toNumber());
}

/** No merging: every level is its own compressed level (the `compress = false` choice). */
export function identityCompression(noisy: Float64Array, sigma2: Rational): LevelCompression {
  return compressionOf(
    noisy,
    Array.from(noisy, (_, l) => [l]),
    sigma2.toNumber(),
  );
}

function compressionOf(noisy: Float64Array, members: number[][], sigma2: number): LevelCompression {
  const compressed = new Uint32Array(noisy.length);
  const y = new Float64Array(members.length);
  const weight = new Float64Array(members.length);
  members.forEach((levels, c) => {
    for (const l of levels) {
      compressed[l] = c;
      y[c] += noisy[l]!;
    }
    weight[c] = 1 / (levels.length * sigma2);
  });
  return { compressed, members, y, weight };
}

/** Levels in the compressed domain for each row. Cost O(rows). */
export function compressRows(levels: Uint32Array, compression: LevelCompression): Uint32Array {
  const out = new Uint32Array(levels.length);
  for (let i = 0; i < levels.length; i++) out[i] = compression.compressed[levels[i]!]!;
  return out;
}

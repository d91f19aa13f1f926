import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import type { Rng } from '../rng/types';
import { chiSquareSurvival } from '../stats/chi-square';
import { countNoiseScale } from './noisy-cell-counts';
import {
  expectedPositiveNoise,
  noiseDominanceWarning,
} from '../mechanisms/common/noisy-counts/noise-dominance';
import { makeCountNoiseSampler, perturbAllCellCounts, perturbCellCounts } from './metered/testing';
import {
  makeSparseNoiseSamplers,
  perturbCellCountsSparsely,
  type NoisyPositiveCells,
} from './metered/sparse-cell-noise';
import { countRowsPerCell, sparseFromDenseCounts, type SparseCellCounts } from '../cells/sparse-cell-counts';

const idle = { aborted: false };

describe('countNoiseScale', () => {
  it('is 2/ε under replace-one and Δ/ε for another sensitivity, exactly', () => {
    expect(countNoiseScale(Rational.of(1, 2)).equals(Rational.of(4))).toBe(true);
    expect(countNoiseScale(Rational.of(3, 10)).equals(Rational.of(20, 3))).toBe(true);
    expect(countNoiseScale(Rational.of(1, 2), 1).equals(Rational.of(2))).toBe(true);
  });
});

describe('makeCountNoiseSampler', () => {
  it('refuses a scale above 2^40 with a sentence instead of failing inside the sampler', () => {
    // 2/ε ≤ 2^40 ⇔ ε ≥ 2^−39 ≈ 1.82e−12.
    expect(() => makeCountNoiseSampler(Rational.of(1, 2 ** 39))).not.toThrow();
    expect(() => makeCountNoiseSampler(parseRational('1e-20'))).toThrow(
      expect.objectContaining({ name: 'InputError', message: expect.stringMatching(/Use a larger ε/) }),
    );
  });
});

describe('expectedPositiveNoise and the noise-dominance warning', () => {
  it('E[max(X, 0)] = q/(1 − q²), q = e^(−ε/2), matches the exact sampler', () => {
    // ε = 1: q = e^(−0.5) = 0.60653066, q/(1 − q²) = 0.60653066 / 0.63212056 = 0.95951738.
    expect(expectedPositiveNoise(1)).toBeCloseTo(0.95951738, 7);
    const draw = makeCountNoiseSampler(Rational.of(1));
    const rng = new SeededRng('positive part');
    const draws = 200_000;
    let sum = 0;
    let sumSquares = 0;
    for (let i = 0; i < draws; i++) {
      const positive = Math.max(0, draw(rng));
      sum += positive;
      sumSquares += positive * positive;
    }
    const mean = sum / draws;
    // Tolerance: 5 standard errors of the mean, from the sample variance (≈ 2.7 here → SE ≈ 0.0037).
    const standardError = Math.sqrt((sumSquares / draws - mean * mean) / draws);
    expect(Math.abs(mean - expectedPositiveNoise(1))).toBeLessThan(5 * standardError);
  });

  it('warns only when the expected noise mass K·E[X⁺] exceeds n', () => {
    // 17,694,720 · 0.9595 ≈ 1.698e7 against 10,000 rows: 99.9 % of the rows from noise.
    expect(noiseDominanceWarning(17_694_720, 10_000, 1)[0]).toMatch(
      /up to about 99\.9% of the synthetic rows/,
    );
    // 1,000 cells · 0.9595 = 959.5 < 10,000: no warning.
    expect(noiseDominanceWarning(1_000, 10_000, 1)).toEqual([]);
  });
});

describe('perturbAllCellCounts', () => {
  it('draws noise for every cell of the domain, empty or not, and keeps only positive cells', () => {
    let draws = 0;
    const counts = sparseFromDenseCounts([0, 3, 0, 0, 7]);
    // Noise +1, −1, +1, −1, … : empty cells 0 and 2 become 1, cell 3 becomes −1 (dropped), 1 → 2, 4 → 8.
    const noisy = perturbAllCellCounts(new SeededRng(1), counts, () => (draws++ % 2 === 0 ? 1 : -1), {
      domainCells: 5,
      repair: 'zero',
      nRows: 10,
      signal: idle,
    });
    expect(draws).toBe(5);
    expect(Array.from(noisy.cells)).toEqual([0, 1, 2, 4]);
    expect(Array.from(noisy.weights)).toEqual([1, 2, 1, 8]);
  });

  it('clamps at n with boundary-inflated repair', () => {
    const noisy = perturbAllCellCounts(new SeededRng(1), sparseFromDenseCounts([9, 1]), () => 5, {
      domainCells: 2,
      repair: 'boundary-inflated',
      nRows: 10,
      signal: idle,
    });
    expect(Array.from(noisy.weights)).toEqual([10, 6]);
  });

  it('stops with an AbortError when the signal is set', () => {
    expect(() =>
      perturbAllCellCounts(new SeededRng(1), sparseFromDenseCounts([1]), () => 0, {
        domainCells: 1,
        repair: 'zero',
        nRows: 1,
        signal: { aborted: true },
      }),
    ).toThrow(expect.objectContaining({ name: 'AbortError' }));
  });
});

describe('countRowsPerCell', () => {
  it('counts distinct cells in increasing order', () => {
    const { cells, counts } = countRowsPerCell(Uint32Array.from([5, 1, 5, 5, 0, 1]));
    expect(Array.from(cells)).toEqual([0, 1, 5]);
    expect(Array.from(counts)).toEqual([1, 2, 3]);
  });
});

/**
 * Pearson's chi-square test of homogeneity for two samples of small non-negative integers
 * (Agresti, Categorical Data Analysis, 3rd ed., §3.2.1): values ≥ `top` share the last column,
 * columns are pooled from the right until each expected count is at least 5, and X² is compared
 * with χ² on (columns − 1) degrees of freedom. Test support: a noisy cell's value in two runs.
 */
function homogeneity(
  a: number[],
  b: number[],
  top: number,
): { statistic: number; df: number; pValue: number } {
  const table = [new Float64Array(top + 1), new Float64Array(top + 1)];
  a.forEach((v) => table[0]![Math.min(v, top)]++);
  b.forEach((v) => table[1]![Math.min(v, top)]++);
  const columns: [number, number][] = [];
  let pending: [number, number] = [0, 0];
  const share = [a.length / (a.length + b.length), b.length / (a.length + b.length)];
  for (let v = top; v >= 0; v--) {
    pending = [pending[0] + table[0]![v]!, pending[1] + table[1]![v]!];
    const total = pending[0] + pending[1];
    if (total * Math.min(share[0]!, share[1]!) >= 5) {
      columns.push(pending);
      pending = [0, 0];
    }
  }
  if (pending[0] + pending[1] > 0) {
    const last = columns.pop() ?? [0, 0];
    columns.push([last[0] + pending[0], last[1] + pending[1]]);
  }
  let statistic = 0;
  for (const column of columns) {
    const total = column[0] + column[1];
    for (const row of [0, 1]) {
      const expected = total * share[row]!;
      statistic += (column[row]! - expected) ** 2 / expected;
    }
  }
  const df = columns.length - 1;
  return { statistic, df, pValue: chiSquareSurvival(statistic, df) };
}

type Perturb = (rng: Rng, counts: SparseCellCounts, domainCells: number) => NoisyPositiveCells;

const repairOptions = { repair: 'boundary-inflated', nRows: 8, signal: idle } as const;

/** The dense reference: exact discrete Laplace noise drawn for every cell, empty or not. */
function densePath(epsilon: Rational): Perturb {
  return (rng, counts, domainCells) =>
    perturbAllCellCounts(rng, counts, makeCountNoiseSampler(epsilon), { domainCells, ...repairOptions });
}

/** The product path: empty cells skipped by exact geometric draws. */
function sparsePath(epsilon: Rational): Perturb {
  return (rng, counts, domainCells) =>
    perturbCellCounts(rng, counts, epsilon, { domainCells, ...repairOptions });
}

/** The sparse path with its samplers built for another ε (a plausible bug the tests must see). */
function sparsePathWithSamplersAt(epsilon: Rational): Perturb {
  return (rng, counts, domainCells) =>
    perturbCellCountsSparsely(rng, counts, makeSparseNoiseSamplers(countNoiseScale(epsilon)), {
      domainCells,
      upper: 8,
      signal: idle,
    });
}

/** The repaired noisy value of every cell in `repeats` runs (0 where dropped), and the number kept. */
function noisyValuesPerCell(
  rng: Rng,
  dense: number[],
  repeats: number,
  perturb: Perturb,
): { values: number[][]; kept: number[] } {
  const values = dense.map(() => [] as number[]);
  const kept: number[] = [];
  const counts = sparseFromDenseCounts(dense);
  for (let r = 0; r < repeats; r++) {
    const noisy = perturb(rng, counts, dense.length);
    const byCell = new Map<number, number>();
    noisy.cells.forEach((cell, i) => byCell.set(cell, noisy.weights[i]!));
    dense.forEach((_, cell) => values[cell]!.push(byCell.get(cell) ?? 0));
    kept.push(noisy.cells.length);
  }
  return { values, kept };
}

describe('perturbCellCounts: exact geometric skipping over empty cells', () => {
  // A 12-cell domain with counts [0, 2, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0], n = 8, boundary-inflated
  // repair, ε = 1 (scale 2): 30,000 runs on each path. Every cell's released value (0 … 8 after the
  // clamp at n) and the number of kept cells (0 … 12, which depends on the joint law: a gap sampler
  // with correlated draws would move it) must have the same law on the sparse path as on the dense
  // reference (Pearson homogeneity, α = 1e−6 per test).
  const dense = [0, 2, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0];
  const repeats = 30_000;
  const epsilon = Rational.of(1);
  const reference = noisyValuesPerCell(new SeededRng('dense path'), dense, repeats, densePath(epsilon));

  it('releases the same distribution of noisy counts as noise drawn on every cell', () => {
    const sparse = noisyValuesPerCell(new SeededRng('sparse path'), dense, repeats, sparsePath(epsilon));
    for (let cell = 0; cell < dense.length; cell++) {
      const test = homogeneity(reference.values[cell]!, sparse.values[cell]!, 8);
      expect(test.df, `cell ${cell}`).toBeGreaterThanOrEqual(3);
      expect(test.pValue, `cell ${cell}: X² = ${test.statistic} on ${test.df} df`).toBeGreaterThan(1e-6);
    }
    const kept = homogeneity(reference.kept, sparse.kept, 12);
    expect(kept.pValue, `kept cells: X² = ${kept.statistic} on ${kept.df} df`).toBeGreaterThan(1e-6);
  });

  it('has the power to see the skipping at the wrong scale', () => {
    // Samplers for ε = 0.8 instead of 1 (scale 2.5, q = 0.670 against 0.607) move P(empty cell kept)
    // from 0.378 to 0.401 and the mean kept value by about 0.23: with 30,000 runs per side the
    // expected X² is in the hundreds against a critical value near 38.
    const wrong = noisyValuesPerCell(
      new SeededRng('wrong scale'),
      dense,
      repeats,
      sparsePathWithSamplersAt(Rational.of(4, 5)),
    );
    const emptyCell = homogeneity(reference.values[0]!, wrong.values[0]!, 8);
    expect(emptyCell.pValue, `X² = ${emptyCell.statistic} on ${emptyCell.df} df`).toBeLessThan(1e-6);
    const kept = homogeneity(reference.kept, wrong.kept, 12);
    expect(kept.pValue, `kept cells: X² = ${kept.statistic}`).toBeLessThan(1e-6);
  });

  it('keeps cells in increasing order and skips past occupied cells correctly', () => {
    // Every occupied cell of a domain with occupied cells at both ends and in a run must come out
    // in place: with ε = 20 the noise is almost always 0 on occupied cells (P(e ≠ 0) ≈ 2e^(−10)).
    const counts = sparseFromDenseCounts([3, 0, 0, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    const noisy = perturbCellCounts(new SeededRng('order'), counts, Rational.of(20), {
      domainCells: 16,
      ...repairOptions,
    });
    for (let i = 1; i < noisy.cells.length; i++) expect(noisy.cells[i]).toBeGreaterThan(noisy.cells[i - 1]!);
    expect(Array.from(noisy.cells)).toEqual([0, 3, 4, 5, 15]);
    expect(Array.from(noisy.weights)).toEqual([3, 4, 4, 4, 2]);
  });

  it('costs O(kept cells), not O(K): 10^8 cells at ε = 10 well within 5 s', () => {
    // q = e^(−5): about 10^8·q/(1 + q) ≈ 670,000 kept cells. Measured about 0.2 s on an idle core;
    // noise on every cell takes over 10 s, so the 5 s guard separates the two with a wide margin.
    const counts = sparseFromDenseCounts([1, 0, 2]);
    const started = performance.now();
    const noisy = perturbCellCounts(new SeededRng('large'), counts, Rational.of(10), {
      domainCells: 100_000_000,
      repair: 'zero',
      nRows: 3,
      signal: idle,
    });
    const seconds = (performance.now() - started) / 1000;
    // Kept cells: binomial(10^8, p), p = q/(1 + q) = 0.0066929; 6 sd ≈ 4,900.
    const p = Math.exp(-5) / (1 + Math.exp(-5));
    expect(Math.abs(noisy.cells.length - 1e8 * p)).toBeLessThan(6 * Math.sqrt(1e8 * p * (1 - p)) + 3);
    expect(seconds).toBeLessThan(5);
  });

  it('clamps kept empty cells at n with boundary-inflated repair, and keeps none when n = 0', () => {
    // ε = 1/2 (q = e^(−1/4) ≈ 0.78): about 0.44 of 2,000 empty cells are kept, many with noise above 2.
    const clamped = perturbCellCounts(
      new SeededRng('clamp'),
      sparseFromDenseCounts([0, 1, 0]),
      Rational.of(1, 2),
      {
        domainCells: 2000,
        repair: 'boundary-inflated',
        nRows: 2,
        signal: idle,
      },
    );
    expect(clamped.cells.length).toBeGreaterThan(500);
    expect(Math.max(...clamped.weights)).toBe(2);
    // n = 0: every repaired count is min(0, ·) ≤ 0, so nothing is kept, as on the dense path.
    const none = perturbCellCounts(new SeededRng('n = 0'), sparseFromDenseCounts([]), Rational.of(1), {
      domainCells: 1000,
      repair: 'boundary-inflated',
      nRows: 0,
      signal: idle,
    });
    expect(none.cells.length).toBe(0);
  });

  it('draws the kept values with the generic sampler below ε/Δ = 1/1024 with the same law', () => {
    // ε = 1/1000, Δ = 2: q = e^(−1/2000), kept empty values 1 + Geometric(q) with mean ≈ 2,000 and
    // sd ≈ 2,000 on either path. 4,000 runs on 10 empty cells keep ≈ 20,000 values per path: the
    // means' standard error ≈ 2,000/√20,000 ≈ 14 each, so |z| < 5 fails with probability < 10⁻⁶;
    // samplers built for a doubled rate move the mean by about 1,000 (z ≈ 50).
    const epsilon = Rational.of(1, 1000);
    const options = { domainCells: 10, repair: 'zero', nRows: 5, signal: idle } as const;
    const empty = sparseFromDenseCounts([]);
    const meanOf = (perturb: (rng: Rng) => NoisyPositiveCells, seed: string) => {
      const rng = new SeededRng(seed);
      const values: number[] = [];
      for (let run = 0; run < 4000; run++) values.push(...perturb(rng).weights);
      const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
      const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (values.length - 1);
      return { mean, se2: variance / values.length };
    };
    const sparse = meanOf((rng) => perturbCellCounts(rng, empty, epsilon, options), 'sparse small rate');
    const dense = meanOf(
      (rng) => perturbAllCellCounts(rng, empty, makeCountNoiseSampler(epsilon), options),
      'dense small rate',
    );
    expect(Math.abs(sparse.mean - dense.mean) / Math.sqrt(sparse.se2 + dense.se2)).toBeLessThan(5);
    const wrong = meanOf(
      (rng) =>
        perturbCellCountsSparsely(
          rng,
          empty,
          makeSparseNoiseSamplers(countNoiseScale(Rational.of(2, 1000))),
          {
            domainCells: 10,
            upper: Infinity,
            signal: idle,
          },
        ),
      'wrong small rate',
    );
    expect(Math.abs(wrong.mean - dense.mean) / Math.sqrt(wrong.se2 + dense.se2)).toBeGreaterThan(5);
  });

  it('falls back to noise on every cell above ε/Δ = 64, and skips below it', () => {
    // No statistical test can see the empty cells' noise at q < 10⁻²⁸, so the path is checked by
    // the random words read: the dense loop reads at least one per cell, the skipping a handful.
    const counting = (seed: string) => {
      const inner = new SeededRng(seed);
      const rng = {
        seeded: true,
        words: 0,
        nextUint32: () => (rng.words++, inner.nextUint32()),
        nextFloat: () => inner.nextFloat(),
      };
      return rng;
    };
    const counts = sparseFromDenseCounts([0, 3, 0, 1]);
    const options = { domainCells: 10_000, repair: 'zero', nRows: 4, signal: idle } as const;
    const dense = counting('fallback');
    const released = perturbCellCounts(dense, counts, Rational.of(200), options);
    expect(dense.words).toBeGreaterThanOrEqual(10_000);
    expect(Array.from(released.cells)).toEqual([1, 3]);
    const sparse = counting('skipping');
    perturbCellCounts(sparse, counts, Rational.of(100), options);
    expect(sparse.words).toBeLessThan(100);
    expect(() => makeSparseNoiseSamplers(countNoiseScale(Rational.of(200)))).toThrow(RangeError);
  });

  it('checks the abort signal while skipping', () => {
    const aborted = { aborted: true };
    expect(() =>
      perturbCellCounts(new SeededRng('abort'), sparseFromDenseCounts([1]), Rational.of(1), {
        domainCells: 10_000_000,
        repair: 'zero',
        nRows: 1,
        signal: aborted,
      }),
    ).toThrow(expect.objectContaining({ name: 'AbortError' }));
  });
});

describe('noisy counts: scale, sensitivity and progress', () => {
  const counts: SparseCellCounts = { cells: Uint32Array.of(3, 40, 41), counts: Uint32Array.of(5, 1, 2) };
  const options = { domainCells: 100, repair: 'zero' as const, nRows: 8, signal: idle };

  it('says which ε and scale it refuses', () => {
    // ε = 1e-20 per count: 2/ε = 2·10²⁰, above 2^40 ≈ 1.10·10¹².
    expect(() => makeCountNoiseSampler(parseRational('1e-20'))).toThrow(
      'ε = 1e-20 per count gives a noise scale of 2.00e+20, above 1.10e+12: the counts would be pure noise ' +
        'and cannot be sampled exactly. Use a larger ε or fewer releases.',
    );
  });

  it('draws at the scale Δ/ε: sensitivity 1 at ε is the same noise as the default Δ = 2 at 2ε', () => {
    // The same seed and the same scale give the same draws; a different scale gives different ones.
    const halfSensitivity = perturbCellCounts(new SeededRng('scale'), counts, Rational.of(1, 4), {
      ...options,
      sensitivity: 1,
    });
    const doubleEpsilon = perturbCellCounts(new SeededRng('scale'), counts, Rational.of(1, 2), options);
    const defaultAtEpsilon = perturbCellCounts(new SeededRng('scale'), counts, Rational.of(1, 4), options);
    expect(Array.from(halfSensitivity.cells)).toEqual(Array.from(doubleEpsilon.cells));
    expect(Array.from(halfSensitivity.weights)).toEqual(Array.from(doubleEpsilon.weights));
    // Scale 4 against scale 8 over 100 cells: the kept cells differ for this seed.
    expect(Array.from(defaultAtEpsilon.cells)).not.toEqual(Array.from(halfSensitivity.cells));
  });

  it('reports progress every 65,536 cells of the dense loop, then 1', () => {
    const seen: number[] = [];
    perturbAllCellCounts(new SeededRng('progress'), counts, makeCountNoiseSampler(Rational.of(100)), {
      ...options,
      domainCells: 200_000,
      onProgress: (fraction) => seen.push(fraction),
    });
    expect(seen).toEqual([0, 65_536 / 200_000, 131_072 / 200_000, 196_608 / 200_000, 1]);
  });
});

describe('makeSparseNoiseSamplers', () => {
  it('refuses a rate 1/scale outside (0, 64]', () => {
    expect(() => makeSparseNoiseSamplers(Rational.of(1, 65))).toThrow(
      'sparse noise: 1/scale must be in (0, 64], got 65',
    );
    expect(() => makeSparseNoiseSamplers(Rational.of(1, 64))).not.toThrow();
  });
});

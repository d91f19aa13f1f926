import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import {
  countNoiseScale,
  expectedPositiveNoise,
  makeCountNoiseSampler,
  noiseDominanceWarning,
  perturbAllCellCounts,
} from './noisy-cell-counts';
import { countRowsPerCell, sparseFromDenseCounts } from './sparse-cell-counts';

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

import { describe, expect, it } from 'vitest';
import { recordingStep } from '../../privacy/metered/testing';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import {
  columnEntropyBits,
  correlations,
  drawCumulativeTables,
  entropyNoiseScale,
  entropySensitivityBits,
  entropySensitivityUpperBound,
  generateFrom,
  greedyStructure,
  kahnOrder,
  merit,
  noisyEntropies,
  noisyTableCounts,
  pairEntropyBits,
  tableNoiseScale,
  tableShapes,
  type BayesNet,
} from './index';

const all = (n: number) => Uint32Array.from({ length: n }, (_, i) => i);

describe('entropies and their replace-one sensitivity', () => {
  it('computes entropies in bits', () => {
    // Two equally likely levels: 1 bit; four equally likely pairs: 2 bits; a constant: 0.
    const a = Uint32Array.from([0, 1, 0, 1]);
    const b = Uint32Array.from([0, 0, 1, 1]);
    expect(columnEntropyBits(a, all(4), 2)).toBeCloseTo(1, 14);
    expect(pairEntropyBits(a, b, all(4), 2, new Uint32Array(4))).toBeCloseTo(2, 14);
    expect(columnEntropyBits(Uint32Array.from([1, 1, 1]), all(3), 2)).toBe(0);
    // Counts 3 and 1: H = −(3/4)log₂(3/4) − (1/4)log₂(1/4) = 0.811278124459133 (by hand).
    expect(columnEntropyBits(Uint32Array.from([0, 0, 0, 1]), all(4), 2)).toBeCloseTo(0.811278124459133, 13);
  });

  it('ΔH(2) = 1 bit, and ΔH(n) bounds the largest change over every replacement of small tables', () => {
    expect(entropySensitivityBits(2)).toBeCloseTo(1, 14);
    expect(entropySensitivityUpperBound(2).compare(Rational.ONE)).toBeGreaterThanOrEqual(0);
    expect(entropySensitivityUpperBound(2).toNumber()).toBeLessThan(1 + 1e-11);
    // Exhaustive over every table of n rows with 3 levels and every one-row replacement: the largest
    // change is ΔH(n) exactly (attained by 1 → n − 1 … moving the only row of a level to the full one).
    for (const n of [2, 3, 5, 8]) {
      let largest = 0;
      const entropy = (counts: number[]) =>
        Math.log2(n) - counts.reduce((s, c) => s + (c > 0 ? c * Math.log2(c) : 0), 0) / n;
      for (let c0 = 0; c0 <= n; c0++) {
        for (let c1 = 0; c0 + c1 <= n; c1++) {
          const counts = [c0, c1, n - c0 - c1];
          for (let from = 0; from < 3; from++) {
            if (counts[from] === 0) continue;
            for (let to = 0; to < 3; to++) {
              const moved = [...counts];
              moved[from]!--;
              moved[to]!++;
              largest = Math.max(largest, Math.abs(entropy(moved) - entropy(counts)));
            }
          }
        }
      }
      expect(largest).toBeCloseTo(entropySensitivityBits(n), 12);
    }
    // Large n, where n·log₂n − (n − 1)·log₂(n − 1) would cancel: against the series
    // (log₂n + (1 − 1/(2(n − 1)) + 1/(3(n − 1)²))/ln 2)/n, whose next term is below 10⁻¹⁸ relative.
    const n = 1e6;
    const series = (Math.log2(n) + (1 - 1 / (2 * (n - 1)) + 1 / (3 * (n - 1) ** 2)) / Math.LN2) / n;
    expect(Math.abs(entropySensitivityBits(n) / series - 1)).toBeLessThan(1e-13);
  });

  it('uses 17·m(m + 1)/(2ε) grid units for entropies and 2m/ε for table cells', () => {
    expect(entropyNoiseScale(3, Rational.of(2)).equals(Rational.of(51))).toBe(true); // 17·6/2
    expect(tableNoiseScale(4, Rational.of(1, 2)).equals(Rational.of(16))).toBe(true); // 2·4/(1/2)
  });

  it('releases entropies clamped to [0, log₂ cells], near the true value at large ε', () => {
    const a = Uint32Array.from({ length: 400 }, (_, i) => i % 2);
    const b = Uint32Array.from({ length: 400 }, (_, i) => (i >> 1) % 2);
    const noisy = noisyEntropies(
      recordingStep('approx-dp'),
      new SeededRng('h'),
      [a, b],
      [2, 2],
      all(400),
      Rational.of(1e6),
    );
    // At ε = 10⁶ the noise is 0 with probability > 1 − 10⁻³; the grid rounding moves H by at most g/2.
    expect(noisy.single[0]).toBeCloseTo(1, 2);
    expect(noisy.pair[1]).toBeCloseTo(2, 2);
    const tiny = noisyEntropies(
      recordingStep('approx-dp'),
      new SeededRng('h'),
      [a, b],
      [2, 2],
      all(400),
      Rational.of(1, 1000),
    );
    for (const h of [...tiny.single, tiny.pair[1]!]) {
      expect(h).toBeGreaterThanOrEqual(0);
      expect(h).toBeLessThanOrEqual(2);
    }
  });
});

describe('the network’s draws charge exactly ε each (replace-one)', () => {
  it('charges the entropies ε in one draw and the m tables ε/m each', () => {
    const a = Uint32Array.from({ length: 40 }, (_, i) => i % 2);
    const b = Uint32Array.from({ length: 40 }, (_, i) => (i >> 2) % 3);
    const c = Uint32Array.from({ length: 40 }, (_, i) => (i >> 1) % 2);
    const epsilon = Rational.of(3, 7);
    const entropies = recordingStep('approx-dp');
    noisyEntropies(entropies, new SeededRng('h'), [a, b, c], [2, 3, 2], all(40), epsilon);
    // 6 entropies, 17 grid units each, noise scale 17·6/ε: ε exactly.
    expect(entropies.charges).toHaveLength(1);
    const charged = entropies.charges[0]!;
    expect(charged.notion === 'approx-dp' && charged.epsilon.equals(epsilon)).toBe(true);
    const tables = recordingStep('approx-dp');
    noisyTableCounts(
      tables,
      new SeededRng('t'),
      [a, b, c],
      tableShapes([[], [0], [0, 1]], [2, 3, 2]),
      all(40),
      epsilon,
    );
    expect(tables.charges).toHaveLength(3);
    for (const cost of tables.charges) {
      expect(cost.notion === 'approx-dp' && cost.epsilon.equals(epsilon.div(Rational.of(3)))).toBe(true);
    }
  });
});

describe('structure', () => {
  it('corr is the symmetrical uncertainty, clamped to [0, 1]', () => {
    const corr = correlations({
      m: 3,
      single: Float64Array.from([1, 1, 0]),
      pair: Float64Array.from([0, 1.5, 0.9, 1.5, 0, 1, 0.9, 1, 0]),
    });
    expect(corr[0 * 3 + 1]).toBeCloseTo(0.5, 14); // 2 − 2·1.5/2
    expect(corr[0 * 3 + 2]).toBeCloseTo(0.2, 14); // 2 − 2·0.9/(1 + 0)
    expect(corr[1 * 3 + 2]).toBe(0); // 2 − 2·1/1 = 0
  });

  it('merit is Σ corr(i, P)/√(|P| + 2Σ corr within P)', () => {
    const m = 3;
    const corr = Float64Array.from([0, 0.6, 0.8, 0.6, 0, 0.5, 0.8, 0.5, 0]);
    expect(merit(0, [], corr, m)).toBe(0);
    expect(merit(0, [1], corr, m)).toBeCloseTo(0.6, 14);
    // (0.6 + 0.8)/√(2 + 2·0.5) = 1.4/√3
    expect(merit(0, [1, 2], corr, m)).toBeCloseTo(1.4 / Math.sqrt(3), 14);
  });

  it('adds the best edges greedily, keeps the graph acyclic and orders it', () => {
    // corr(0,1) = 0.9 strongest, then corr(1,2) = 0.7; corr(0,2) = 0.1.
    const corr = Float64Array.from([0, 0.9, 0.1, 0.9, 0, 0.7, 0.1, 0.7, 0]);
    const parents = greedyStructure(corr, [2, 2, 2], 1, [1e9, 1e9, 1e9]);
    // 1 → 0 first (ties broken by the smallest child), then 2 → 1 (child 1's best), then 0 can not
    // parent 2 (2 → 1 → 0 → 2 would be a cycle), 1 → 2 neither; with one parent each it stops.
    expect(parents).toEqual([[1], [2], []]);
    expect(kahnOrder(parents)).toEqual([2, 1, 0]);
    expect(() => kahnOrder([[1], [0]])).toThrow(/cycle/);
  });

  it('respects maxCost and maxParents', () => {
    const corr = Float64Array.from([0, 0.9, 0.8, 0.9, 0, 0.1, 0.8, 0.1, 0]);
    // Parent 1 has 5 levels, parent 2 has 3: child 0 may spend only 4, so only 2 → 0 fits.
    const cheap = greedyStructure(corr, [2, 5, 3], 2, [4, 1e9, 1e9]);
    expect(cheap[0]).toEqual([2]);
    const none = greedyStructure(corr, [2, 5, 3], 0, [1e9, 1e9, 1e9]);
    expect(none).toEqual([[], [], []]);
    for (const ps of greedyStructure(corr, [2, 5, 3], 2, [15, 15, 15])) {
      expect(ps.length).toBeLessThanOrEqual(2);
    }
  });
});

describe('conditional tables and generation', () => {
  const a = Uint32Array.from([0, 0, 1, 1, 1, 0]);
  const b = Uint32Array.from([0, 0, 1, 1, 1, 1]);
  const shapes = tableShapes([[], [0]], [2, 2]);

  it('counts every cell exactly at large ε', () => {
    const counts = noisyTableCounts(
      recordingStep('approx-dp'),
      new SeededRng('t'),
      [a, b],
      shapes,
      all(6),
      Rational.of(1e9),
    );
    expect([...counts[0]!]).toEqual([3, 3]);
    // configuration a = 0: b = 0 twice, b = 1 once; a = 1: b = 1 three times.
    expect([...counts[1]!]).toEqual([2, 1, 0, 3]);
    const noisy = noisyTableCounts(
      recordingStep('approx-dp'),
      new SeededRng('t'),
      [a, b],
      shapes,
      all(6),
      Rational.of(1, 10),
    );
    for (const table of noisy) for (const c of table) expect(c).toBeGreaterThanOrEqual(0);
  });

  it('rows equal on the kept attributes give equal rows on one random stream', () => {
    const counts = noisyTableCounts(
      recordingStep('approx-dp'),
      new SeededRng('t'),
      [a, b],
      shapes,
      all(6),
      Rational.of(1),
    );
    const net: BayesNet = {
      shapes,
      cumulative: drawCumulativeTables(new SeededRng('θ'), shapes, counts, 1),
      order: kahnOrder([[], [0]]),
    };
    for (let trial = 0; trial < 50; trial++) {
      const first = Uint32Array.from([1, 0]);
      const second = Uint32Array.from([1, 1]); // differs only off the kept attribute
      generateFrom(new SeededRng(`g${trial}`), net, first, 1);
      generateFrom(new SeededRng(`g${trial}`), net, second, 1);
      expect([...first]).toEqual([...second]);
      expect(first[0]).toBe(1);
    }
  });
});

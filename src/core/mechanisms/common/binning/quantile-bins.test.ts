import { describe, expect, it } from 'vitest';
import { boundScores } from '../../../domain/dp-quantile';
import { PrivacyMeter } from '../../../privacy/meter';
import { recordingStep } from '../../../privacy/metered/testing';
import { querySensitivity } from '../../../privacy/query-sensitivity';
import { ZcdpAccountant } from '../../../privacy/zcdp-accountant';
import { exponentialMechanismProbabilities } from '../../../rng/exponential-mechanism';
import { parseRational, Rational } from '../../../rng/rational';
import { SeededRng } from '../../../rng/seeded-rng';
import { fitDraws, type IntegerPmf } from '../../../rng/testing/distribution-fit';
import { shapedNumericLevel, shapedNumericValue, type ShapedCoding } from '../coding/bin-shape';
import type { IntegerBinCoding, RealBinCoding } from '../coding/column-coding';
import {
  candidateCounts,
  countedValues,
  detectPointMasses,
  dpQuantileEdges,
  edgeCandidates,
  edgeRank,
  learnQuantileEdges,
  planQuantileBinStep,
  reserveQuantileBinStep,
  strictlyIncreasing,
} from './quantile-bins';
import { numericColumn } from '../testing/fixtures';

/** A small integer column 0 … 3 with the point mass 0 and 3 quantile bins: candidates 1, 2, 3. */
const SMALL: IntegerBinCoding = {
  kind: 'integer',
  name: 'x',
  first: 0,
  count: 4,
  bins: 3,
  levels: 5,
  points: [0],
  quantile: {},
};
const ALPHABET = [null, 0, 1, 2, 3];
const ROWS = 4;

/** Every table of `rows` rows over the alphabet (missing, the point mass 0, 1, 2, 3). */
function tables(rows: number): (number | null)[][] {
  const out: (number | null)[][] = [];
  for (let code = 0; code < ALPHABET.length ** rows; code++) {
    out.push(
      Array.from(
        { length: rows },
        (_, i) => ALPHABET[Math.floor(code / ALPHABET.length ** i) % ALPHABET.length]!,
      ),
    );
  }
  return out;
}

/** Neighbouring pairs: every replacement of one row (replace-one), or every removal of one row (add/remove). */
function* neighbours(
  relation: 'replace-one' | 'add-remove',
): Generator<[(number | null)[], (number | null)[]]> {
  for (const base of tables(ROWS)) {
    for (let row = 0; row < ROWS; row++) {
      if (relation === 'add-remove') {
        yield [base, base.filter((_, i) => i !== row)];
        continue;
      }
      for (const v of ALPHABET) {
        const other = [...base];
        other[row] = v;
        yield [base, other];
      }
    }
  }
}

const sorted = (values: (number | null)[]) => countedValues(numericColumn('x', values), SMALL);

/** The edge scores of every edge j = 1 … B − 1 of a table, with the rank rule given. */
function scoresOf(values: (number | null)[], rank: (j: number, m: number) => number): number[][] {
  const counted = sorted(values);
  const candidates = edgeCandidates(SMALL);
  return [1, 2].map((j) => boundScores(counted, rank(j, counted.length), candidates, 'lower'));
}

function largestMove(relation: 'replace-one' | 'add-remove', rank: (j: number, m: number) => number): number {
  let largest = 0;
  for (const [a, b] of neighbours(relation)) {
    const sa = scoresOf(a, rank);
    const sb = scoresOf(b, rank);
    sa.forEach((row, j) => row.forEach((s, i) => (largest = Math.max(largest, Math.abs(s - sb[j]![i]!)))));
  }
  return largest;
}

describe('quantile bin edges: sensitivity of the scores', () => {
  it('move by at most 1 (and by 1 for some pair) under replace-one and add/remove, point masses and missing cells included (brute force)', () => {
    const rule = (j: number, m: number) => edgeRank(j, SMALL.bins, m);
    expect(largestMove('replace-one', rule)).toBe(1);
    expect(largestMove('add-remove', rule)).toBe(1);
    // The query table says the same for the kind the metered draw uses.
    expect(querySensitivity({ kind: 'quantile-cell-score' }, 'replace-one').l1).toEqual(Rational.ONE);
    expect(querySensitivity({ kind: 'quantile-cell-score' }, 'add-remove').l1).toEqual(Rational.ONE);
  });

  it('controls: a rank that jumps by 2 when m rises by 1, or that counts the point masses, moves a score by 2', () => {
    expect(largestMove('replace-one', (j, m) => 2 * edgeRank(j, SMALL.bins, m))).toBe(2);
    expect(largestMove('add-remove', (j, m) => 2 * edgeRank(j, SMALL.bins, m))).toBe(2);
  });

  it('r_j(m) = ⌈j·m/B⌉ never falls and rises by at most 1 per value (m = 0 … 5,000, B = 2 … 40)', () => {
    for (let bins = 2; bins <= 40; bins++) {
      for (let j = 1; j < bins; j++) {
        for (let m = 1; m <= 5000; m++) {
          const step = edgeRank(j, bins, m) - edgeRank(j, bins, m - 1);
          if (step !== 0 && step !== 1) throw new Error(`B ${bins}, j ${j}: r moves by ${step} at m = ${m}`);
        }
        expect(edgeRank(j, bins, 1000)).toBe(Math.ceil((j * 1000) / bins));
      }
    }
  });
});

/**
 * The exact distribution of the released edges of a table: each of the B − 1 = 2 draws independent
 * with the exponential mechanism's probabilities P(i) ∝ exp(ε·score(i)/(2Δ)), written from the
 * definition, then the same post-processing as the mechanism (sort, space apart). Keys: the edges.
 */
function edgeDistribution(values: (number | null)[], epsilon: number, sensitivity = 1): Map<string, number> {
  const candidates = edgeCandidates(SMALL);
  const [p1, p2] = scoresOf(values, (j, m) => edgeRank(j, SMALL.bins, m)).map((s) =>
    exponentialMechanismProbabilities(s, epsilon, sensitivity),
  );
  const out = new Map<string, number>();
  p1!.forEach((a, i) =>
    p2!.forEach((b, k) => {
      const key = strictlyIncreasing([i, k], candidates.length)
        .map((index) => candidates[index])
        .join(',');
      out.set(key, (out.get(key) ?? 0) + a * b);
    }),
  );
  return out;
}

function largestLogRatio(relation: 'replace-one' | 'add-remove', epsilon: number, sensitivity = 1): number {
  let largest = 0;
  for (const [a, b] of neighbours(relation)) {
    const pa = edgeDistribution(a, epsilon, sensitivity);
    const pb = edgeDistribution(b, epsilon, sensitivity);
    for (const key of new Set([...pa.keys(), ...pb.keys()])) {
      largest = Math.max(largest, Math.abs(Math.log(pa.get(key) ?? 0) - Math.log(pb.get(key) ?? 0)));
    }
  }
  return largest;
}

describe('quantile bin edges: privacy of the released edges, exactly', () => {
  // Two draws at ε each compose to 2ε (pure DP); the released edges are post-processing of them.
  const EPSILON = 0.7;

  it('the exact output distributions of neighbouring tables differ by a factor of at most e^(2ε), under both relations', () => {
    for (const relation of ['replace-one', 'add-remove'] as const) {
      const ratio = largestLogRatio(relation, EPSILON);
      expect(ratio, relation).toBeLessThanOrEqual(2 * EPSILON + 1e-12);
      // Not vacuous: neighbouring tables do move the distribution (by more than e^(ε/2) for some pair).
      expect(ratio, relation).toBeGreaterThan(EPSILON / 2);
    }
  });

  it('control: the same edges drawn as if the scores moved by 1/4 (four times the ε) exceed e^(2ε) for some neighbouring pair', () => {
    expect(largestLogRatio('replace-one', EPSILON, 0.25)).toBeGreaterThan(2 * EPSILON + 1e-6);
    expect(largestLogRatio('add-remove', EPSILON, 0.25)).toBeGreaterThan(2 * EPSILON + 1e-6);
  });

  it('the metered draws follow that distribution (chi-square, α = 1e−6) and charge ε per edge', () => {
    const values = [0, 1, 1, 2, 3, 3, null, 0];
    const exact = edgeDistribution(values, EPSILON);
    const keys = [...exact.keys()].sort();
    const pmf: IntegerPmf = {
      lo: 0,
      hi: keys.length - 1,
      probabilities: Float64Array.from(keys.map((key) => exact.get(key)!)),
    };
    const rng = new SeededRng('quantile edges');
    const step = recordingStep('approx-dp');
    const column = numericColumn('x', values);
    const epsilon = parseRational(String(EPSILON));
    const fit = fitDraws(
      () => keys.indexOf(dpQuantileEdges(step, column, SMALL, epsilon, rng).join(',')),
      100_000,
      pmf,
    );
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(1e-6);
    expect(step.charges.length).toBe(200_000);
    expect(step.charges[0]).toEqual({ notion: 'approx-dp', epsilon, delta: Rational.ZERO });
  });
});

describe('quantile bin edges: a valid partition within the bounds', () => {
  const skewed = (n: number, rng: SeededRng) =>
    Array.from({ length: n }, () => {
      const u = rng.nextFloat();
      return u < 0.9 ? 0 : u < 0.92 ? null : Math.floor(Math.exp(rng.nextFloat() * 11));
    });

  it('edges are strictly increasing grid candidates inside the bounds, bins − 1 of them, at any ε', () => {
    const rng = new SeededRng('partition');
    const values = skewed(3000, rng);
    const integer: IntegerBinCoding = {
      kind: 'integer',
      name: 'x',
      first: 0,
      count: 100_000,
      bins: 40,
      levels: 42,
      points: [0],
      quantile: {},
    };
    const real: RealBinCoding = {
      kind: 'real',
      name: 'x',
      lo: -5,
      hi: 1e5,
      bins: 40,
      levels: 41,
      quantile: {},
    };
    for (const coding of [integer, real] as ShapedCoding[]) {
      const candidates = new Set(edgeCandidates(coding));
      for (const epsilon of ['0.0001', '0.1', '1000']) {
        const edges = dpQuantileEdges(
          recordingStep('approx-dp'),
          numericColumn('x', values),
          coding,
          parseRational(epsilon),
          rng,
        );
        expect(edges.length).toBe(coding.bins - 1);
        edges.forEach((e, j) => {
          expect(candidates.has(e)).toBe(true);
          if (j > 0) expect(e).toBeGreaterThan(edges[j - 1]!);
        });
        const [lo, hi] =
          coding.kind === 'real' ? [coding.lo, coding.hi] : [coding.first, coding.first + coding.count - 1];
        expect(edges[0]!).toBeGreaterThan(lo);
        expect(edges.at(-1)!).toBeLessThanOrEqual(hi);
      }
    }
    // Every integer of a column with few integers is a candidate: all bins then hold one integer each.
    const tight: IntegerBinCoding = {
      kind: 'integer',
      name: 'x',
      first: 3,
      count: 5,
      bins: 5,
      levels: 6,
      quantile: {},
    };
    expect(edgeCandidates(tight)).toEqual([4, 5, 6, 7]);
    expect(
      dpQuantileEdges(recordingStep('approx-dp'), numericColumn('x', [3, 3, 3]), tight, Rational.ONE, rng),
    ).toEqual([4, 5, 6, 7]);
  });

  it('at a large ε each edge leaves close to j/B of the counted values below it (point masses left out)', () => {
    const rng = new SeededRng('accuracy');
    // 2,000 distinct counted values 1 + (k·7919 mod 4000) (7919 is prime) among 18,000 zeros.
    const values = Array.from({ length: 20_000 }, (_, i) =>
      i % 10 < 9 ? 0 : 1 + ((((i - 9) / 10) * 7919) % 4000),
    );
    const coding: IntegerBinCoding = {
      kind: 'integer',
      name: 'x',
      first: 0,
      count: 4001,
      bins: 4,
      levels: 6,
      points: [0],
      quantile: {},
    };
    const edges = dpQuantileEdges(
      recordingStep('approx-dp'),
      numericColumn('x', values),
      coding,
      Rational.of(50),
      rng,
    );
    const counted = values.filter((v) => v !== 0);
    edges.forEach((e, j) => {
      const below = counted.filter((v) => v < e).length / counted.length;
      // Every integer is a candidate and each cell holds at most one value: at ε = 50 a cell 2 ranks off
      // the target has weight e^(−50) against the best (4,000 cells: P < 10⁻¹⁸), so each edge leaves
      // ⌈j·m/4⌉ ± 1 values below it: within 2 of the 2,000 values of j/4.
      expect(Math.abs(below - (j + 1) / 4)).toBeLessThanOrEqual(2 / 2000);
    });
  });
});

describe('quantile bin step: budget and meter', () => {
  it('plans D = Σ(bins − 1) draws at the largest 12-digit ε with D·ε²/8 <= share·ρ, and the run charges exactly that', () => {
    const codings = [
      { ...SMALL, bins: 3 },
      { kind: 'categorical' as const, name: 'c', categories: ['a'], levels: 2 },
      { kind: 'real' as const, name: 'r', lo: 0, hi: 1, bins: 5, levels: 6, quantile: {} },
    ];
    const rho = parseRational('0.02');
    const plan = planQuantileBinStep(rho, codings, parseRational('0.1'))!;
    expect(plan.draws).toBe(2 + 4);
    expect(plan.rho.compare(parseRational('0.002'))).toBeLessThanOrEqual(0);
    expect(plan.rho.compare(parseRational('0.0019999999'))).toBeGreaterThan(0);
    expect(plan.rho).toEqual(
      plan.epsilonPerEdge.mul(plan.epsilonPerEdge).mul(Rational.of(6)).div(Rational.of(8)),
    );
    expect(planQuantileBinStep(rho, [codings[1]!], parseRational('0.1'))).toBeUndefined();

    const meter = new PrivacyMeter('add-remove');
    const accountant = new ZcdpAccountant(rho, parseRational('1e-6'), meter);
    const step = reserveQuantileBinStep(accountant, plan, codings);
    const table = {
      nRows: 6,
      columns: [
        numericColumn('x', [0, 1, 2, 3, 3, null]),
        {
          kind: 'categorical' as const,
          name: 'c',
          codes: new Uint32Array(6),
          dictionary: ['a'],
          missing: new Uint8Array(6),
        },
        numericColumn('r', [0.1, 0.2, 0.3, 0.9, null, 0.5]),
      ],
    };
    const learned = learnQuantileEdges(table, codings, step, plan, new SeededRng(1));
    expect(learned[1]).toBe(codings[1]);
    expect((learned[2] as RealBinCoding).quantile!.edges!.length).toBe(4);
    expect([step.charges(), step.settled()]).toEqual([6, true]);
    expect(() => meter.settle()).not.toThrow();
  });
});

describe('candidate point masses found with a DP count', () => {
  const CANDIDATES: IntegerBinCoding = {
    kind: 'integer',
    name: 'x',
    first: 0,
    count: 4,
    bins: 2,
    levels: 5,
    points: [1],
    candidates: { values: [0, 3] },
    quantile: {},
  };

  it('the counts form a partition of the rows: L2² moves by at most 2 under replace-one and 1 under add/remove (brute force), as the query table says', () => {
    const coding = CANDIDATES;
    let replaceOne = 0;
    let addRemove = 0;
    const l2 = (a: Float64Array, b: Float64Array) => a.reduce((sum, x, i) => sum + (x - b[i]!) ** 2, 0);
    for (const [a, b] of neighbours('replace-one')) {
      replaceOne = Math.max(
        replaceOne,
        l2(candidateCounts(numericColumn('x', a), coding), candidateCounts(numericColumn('x', b), coding)),
      );
    }
    for (const [a, b] of neighbours('add-remove')) {
      addRemove = Math.max(
        addRemove,
        l2(candidateCounts(numericColumn('x', a), coding), candidateCounts(numericColumn('x', b), coding)),
      );
    }
    expect(replaceOne).toBe(2);
    expect(addRemove).toBe(1);
    expect(querySensitivity({ kind: 'partition-counts' }, 'replace-one').l2Squared).toEqual(Rational.of(2));
    expect(querySensitivity({ kind: 'partition-counts' }, 'add-remove').l2Squared).toEqual(Rational.ONE);
    expect(Array.from(candidateCounts(numericColumn('x', [0, 0, 1, 3, null, 2]), coding))).toEqual([2, 1, 3]);
  });

  it('accepts a value held by most rows and not one held by few; accepted levels decode exactly, a closed one decodes within its bin', () => {
    // 9,000 zeros, 10 threes, 991 others among 10,000 rows; σ² = 4: the noisy shares are 0.9 ± 0.0002 and 0.001 ± 0.0002.
    const values = Array.from({ length: 10_000 }, (_, i) => (i < 9000 ? 0 : i < 9010 ? 3 : 2));
    const step = recordingStep('zcdp');
    const accepted = detectPointMasses(
      step,
      numericColumn('x', values),
      CANDIDATES,
      Rational.of(4),
      0.1,
      new SeededRng(2),
    );
    expect(accepted).toEqual([true, false]);
    expect(step.charges).toEqual([{ notion: 'zcdp', rho: Rational.of(2).div(Rational.of(8)) }]);
    const decided: ShapedCoding = {
      ...CANDIDATES,
      candidates: { values: [0, 3], accepted },
      quantile: { edges: [2] },
    };
    const rng = new SeededRng(3);
    // Levels: bins 0 (0 … 1), 1 (2 … 3); declared 1 → 2; candidate 0 → 3 (accepted); candidate 3 → 4 (closed,
    // so 3 codes to its bin).
    expect([0, 1, 2, 3].map((v) => shapedNumericLevel(v, decided))).toEqual([3, 2, 1, 1]);
    for (let i = 0; i < 50; i++) {
      expect(shapedNumericValue(rng, 3, decided)).toBe(0);
      expect(shapedNumericValue(rng, 2, decided)).toBe(1);
      // Bin 1 holds 2 and 3 (3 is not a point mass, being closed); the closed level decodes as that bin.
      expect([2, 3]).toContain(shapedNumericValue(rng, 4, decided));
      // Bin 0 holds 0 and 1, both point masses: it draws among them.
      expect([0, 1]).toContain(shapedNumericValue(rng, 0, decided));
    }
  });

  it('plans a quarter of the share for detection and the rest for the edges, exactly, under either relation', () => {
    const rho = parseRational('0.04');
    for (const [relation, l2Squared] of [
      ['replace-one', 2],
      ['add-remove', 1],
    ] as const) {
      const plan = planQuantileBinStep(rho, [CANDIDATES], parseRational('0.1'), relation, 0.1)!;
      expect(plan.draws).toBe(1);
      expect(plan.detections).toBe(1);
      // σ² = detections·Δ₂²/(2·ρ_detect), ρ_detect = 0.004/4 = 0.001.
      expect(plan.detectionSigma2).toEqual(Rational.of(l2Squared).div(parseRational('0.002')));
      const edges = plan.epsilonPerEdge.mul(plan.epsilonPerEdge).div(Rational.of(8));
      expect(plan.rho).toEqual(edges.add(parseRational('0.001')));
      expect(plan.rho.compare(parseRational('0.004'))).toBeLessThanOrEqual(0);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { clusterStatistics, type ClusterGeometry } from './cluster-statistics';
import { encodeRows, MISSING_NUMERIC_MARK, ONE_HOT_SCALE, planEncoding, type EncodedRows } from './encoding';
import { FEATURE_GRID, RESIDUAL_GRID } from './plan';
import { accumulateMoments, drawRandomFrequencies, randomFeatures } from './random-features';
import { residualOnGrid } from './residual-grid';

const B = RESIDUAL_GRID;
/** Stated replace-one L2 sensitivities, squared (grid units). */
const COUNT_D2 = 2;
const SUM_D2 = 4 * B * B;
const SQUARE_D2 = 2 * B ** 4;

/**
 * Encoding of one numeric column (u, m) and one 3-level categorical (2 levels + missing): d = 5,
 * p = 2, so every two rows are at most √2 apart. Two public centroids, one class.
 */
const D = 5;
const CLIP = 0.3;
function geometry(): ClusterGeometry {
  return {
    centroids: Float64Array.from([0.2, 0, 0.5, 0.2, 0, 0.8, 0, 0.2, 0.5, 0]),
    clusters: 2,
    clustersPerClass: 2,
    dimension: D,
    clipRadius: CLIP,
    grid: B,
    numericCoordinates: [0],
  };
}

function oneRow(values: number[], cls = 0): EncodedRows {
  return { n: 1, dimension: D, values: Float64Array.from(values), classOfRow: Uint32Array.of(cls) };
}

/** Squared L2 distance between two statistics vectors. */
function distance2(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return sum;
}

/** The change of each released statistic when the one row x is replaced by x′ (other rows add the same to both). */
function change(x: number[], xPrime: number[]) {
  const g = geometry();
  const a = clusterStatistics(oneRow(x), g, true);
  const b = clusterStatistics(oneRow(xPrime), g, true);
  return {
    counts: distance2(a.counts, b.counts),
    sums: distance2(a.sums, b.sums),
    squares: distance2(a.squares!, b.squares!),
  };
}

describe('clustmix sensitivities under replace-one', () => {
  it('reaches Δ_S² = 4B² with opposite residuals of norm C in one cluster (counts and squares unchanged)', () => {
    // Centroid 0 is (0.2, 0, 0.5, 0.2, 0); rows 0.35 > C away along ±u (still nearest to it) are
    // clipped to residuals ±C·e_u = ±B grid steps.
    const result = change([0.2 + 0.35, 0, 0.5, 0.2, 0], [0.2 - 0.35, 0, 0.5, 0.2, 0]);
    expect(result.sums).toBe(SUM_D2);
    expect(result.counts).toBe(0);
    expect(result.squares).toBe(0);
  });

  it('reaches Δ_N² = 2 and Δ_Q² = 2B⁴ when a row of numeric residual norm C changes cluster', () => {
    // x is nearest centroid 0 at residual −0.9·e_u, x′ nearest centroid 1 at +0.9·e_u: both clipped to norm C.
    const result = change([0.2 - 0.9, 0, 0.5, 0.2, 0], [0.8 + 0.9, 0, 0.2, 0.5, 0]);
    expect(result.counts).toBe(COUNT_D2);
    expect(result.squares).toBe(SQUARE_D2);
    expect(result.sums).toBe(2 * B * B);
  });

  it('stays within the bounds for a missing flip and a one-hot flip', () => {
    const present = [0.9, 0, ONE_HOT_SCALE, 0, 0];
    const missing = [0.5, MISSING_NUMERIC_MARK, ONE_HOT_SCALE, 0, 0];
    const otherLevel = [0.9, 0, 0, ONE_HOT_SCALE, 0];
    for (const [x, y] of [
      [present, missing],
      [present, otherLevel],
      [missing, otherLevel],
    ] as const) {
      const result = change([...x], [...y]);
      expect(result.counts).toBeLessThanOrEqual(COUNT_D2);
      expect(result.sums).toBeLessThanOrEqual(SUM_D2);
      expect(result.squares).toBeLessThanOrEqual(SQUARE_D2);
    }
  });

  it('never exceeds the stated Δ² on 10⁵ random pairs, near and far from the centroids', () => {
    const rng = new SeededRng(1401);
    const point = (): number[] => {
      const scale = rng.nextFloat() < 0.5 ? 1 : 3; // half inside the box, half far outside
      return Array.from({ length: D }, () => (rng.nextFloat() - 0.5) * 2 * scale);
    };
    let worst = { counts: 0, sums: 0, squares: 0 };
    for (let i = 0; i < 100_000; i++) {
      const result = change(point(), point());
      worst = {
        counts: Math.max(worst.counts, result.counts),
        sums: Math.max(worst.sums, result.sums),
        squares: Math.max(worst.squares, result.squares),
      };
    }
    expect(worst.counts).toBeLessThanOrEqual(COUNT_D2);
    expect(worst.sums).toBeLessThanOrEqual(SUM_D2);
    expect(worst.squares).toBeLessThanOrEqual(SQUARE_D2);
    // The random pairs come near the bounds (they are not vacuous).
    expect(worst.sums).toBeGreaterThan(0.9 * SUM_D2);
  });

  it('keeps Σv² ≤ B² exactly on the grid, also for residuals of norm exactly C along diagonals', () => {
    const rng = new SeededRng(77);
    const zero = new Float64Array(64);
    const v = new Int32Array(64);
    let largest = 0;
    for (let i = 0; i < 100_000; i++) {
      const d = 1 + (i % 64);
      const r = Float64Array.from({ length: d }, () => rng.nextFloat() - 0.5);
      if (i % 2 === 0) {
        // scale to norm exactly C (up to rounding): the case rounding could push past B
        let norm = 0;
        for (let j = 0; j < d; j++) norm += r[j]! * r[j]!;
        norm = Math.sqrt(norm);
        for (let j = 0; j < d; j++) r[j] = (r[j]! / norm) * CLIP;
      } else if (i % 3 === 0) {
        r.fill(CLIP / Math.sqrt(d));
      }
      const squares = residualOnGrid(r, 0, zero, 0, d, CLIP, B, v);
      let check = 0;
      for (let j = 0; j < d; j++) check += v[j]! * v[j]!;
      if (check !== squares) throw new Error(`returned Σv² = ${squares}, recomputed ${check}, at draw ${i}`);
      largest = Math.max(largest, squares);
    }
    expect(largest).toBeLessThanOrEqual(B * B);
    expect(largest).toBeGreaterThan(0.999 * B * B);
  });
});

describe('the grid bound ‖v‖ ≤ B holds for any input', () => {
  it('counts a non-finite coordinate as 0 and still clips the others (NaN would skip the clipping)', () => {
    // Without the guard the NaN norm left the residual unclipped: v = (0, 2B/…) with Σv² far above B².
    const d = 3;
    const v = new Int32Array(d);
    const row = Float64Array.from([NaN, 1, 1]);
    const squares = residualOnGrid(row, 0, new Float64Array(d), 0, d, CLIP, B, v);
    let check = 0;
    for (let j = 0; j < d; j++) check += v[j]! * v[j]!;
    expect(squares).toBe(check);
    expect(squares).toBeLessThanOrEqual(B * B);
    expect(v[0]).toBe(0);
    for (const row2 of [Float64Array.from([Infinity, 1, 1]), Float64Array.from([0.5, -Infinity, NaN])]) {
      expect(residualOnGrid(row2, 0, new Float64Array(d), 0, d, CLIP, B, v)).toBeLessThanOrEqual(B * B);
    }
  });

  it('encodes values of bounds near ±Number.MAX_VALUE without overflow (x − lo = ∞ would give u = NaN)', () => {
    const { encoding } = planEncoding(
      {
        version: 1,
        missing: [],
        columns: [{ name: 'x', type: 'numeric', bounds: [-1e308, 1e308], source: 'declared' }],
      },
      '',
    );
    const values = Float64Array.from([1e308, -1e308, 0, 5e307]);
    const rows = encodeRows(
      { nRows: 4, columns: [{ kind: 'numeric', name: 'x', values, missing: new Uint8Array(4) }] },
      encoding!,
    );
    // u = (x − lo)/(hi − lo): 1, 0, ½, ¾ (exact: halving is exact in binary floating point).
    expect([0, 1, 2, 3].map((i) => rows.values[i * 2])).toEqual([1, 0, 0.5, 0.75]);
  });
});

describe('random-feature moment sensitivities', () => {
  const BP = FEATURE_GRID;
  const Dphi = 4;
  const classes = 2;
  function momentChange(v: number[], c: number, w: number[], c2: number) {
    const upper = (Dphi * (Dphi + 1)) / 2;
    const a = { gram: new Float64Array(upper), cross: new Float64Array(Dphi * classes) };
    const b = { gram: new Float64Array(upper), cross: new Float64Array(Dphi * classes) };
    accumulateMoments(Int32Array.from(v), c, classes, a.gram, a.cross);
    accumulateMoments(Int32Array.from(w), c2, classes, b.gram, b.cross);
    return { gram: distance2(a.gram, b.gram), cross: distance2(a.cross, b.cross) };
  }

  it('reaches Δ_A² = 2B_φ⁴ (orthogonal feature vectors of norm B_φ) and Δ_b² = 4B_φ² (opposite, same class)', () => {
    expect(momentChange([BP, 0, 0, 0], 0, [0, BP, 0, 0], 0).gram).toBe(2 * BP ** 4);
    expect(momentChange([BP, 0, 0, 0], 0, [-BP, 0, 0, 0], 0).cross).toBe(4 * BP * BP);
    expect(momentChange([BP, 0, 0, 0], 0, [BP, 0, 0, 0], 1).cross).toBe(2 * BP * BP);
  });

  it('never exceeds them for 10⁴ pairs of real rows’ grid features', () => {
    const rng = new SeededRng(5);
    const frequencies = drawRandomFrequencies(2, 3, 0.5, rng);
    const phi = new Float64Array(Dphi);
    const zeros = new Float64Array(Dphi);
    const grid = (): number[] => {
      const x = Float64Array.from({ length: 3 }, () => rng.nextFloat());
      randomFeatures(x, 0, frequencies, phi);
      const v = new Int32Array(Dphi);
      residualOnGrid(phi, 0, zeros, 0, Dphi, 1, BP, v);
      return Array.from(v);
    };
    let worstGram = 0;
    let worstCross = 0;
    for (let i = 0; i < 10_000; i++) {
      const result = momentChange(grid(), i % 2, grid(), (i >> 1) % 2);
      worstGram = Math.max(worstGram, result.gram);
      worstCross = Math.max(worstCross, result.cross);
    }
    expect(worstGram).toBeLessThanOrEqual(2 * BP ** 4);
    expect(worstCross).toBeLessThanOrEqual(4 * BP * BP);
  });
});

import { describe, expect, it } from 'vitest';
import { makeCartPmseEvaluator } from '../../metrics/pmse-cart-evaluator';
import { makeNormalSampler, SeededRng } from '../../rng';
import { uniformInt } from '../../rng/uniform-int';
import { makeQualityEvaluator } from './chain';
import { PMSE_TREE_MIN_BUCKET, PMSE_TREE_MIN_SPLIT, type PmseTreeSettings } from './pmse-params';

/** The mechanism's depth-1 quality function (every synthetic value a cut). */
const exhaustiveStump = (real: Float64Array[], nSynth: number) =>
  makeQualityEvaluator(real, nSynth, { kind: 'exhaustive-stump' });

/** n·|u(X) − u(X′)| for one numeric column: 1 means exactly the bound Δu = 1/n of Theorem 2. */
function scaledChange(
  real: Float64Array,
  neighbour: Float64Array,
  synth: Float64Array,
  tree: PmseTreeSettings | 'exhaustive stump',
): number {
  const evaluator = (columns: Float64Array[]) =>
    tree === 'exhaustive stump'
      ? exhaustiveStump(columns, synth.length)
      : makeCartPmseEvaluator(columns, synth.length, tree);
  const u = evaluator([real]).evaluate([synth]);
  const uNeighbour = evaluator([neighbour]).evaluate([synth]);
  return Math.abs(u - uNeighbour) * real.length;
}

/**
 * A chosen neighbouring pair against cp pruning. Synthetic values: n fixed draws from N(0, 1)
 * (what g(θ) gives for one θ and fixed noise). The real rows sit between the lowest n − (⌊cp·n⌋ + 1)
 * synthetic values, so the best split isolates the top ⌊cp·n⌋ + 1 synthetic rows and its risk
 * reduction is just above cp × root risk: the split is kept. The neighbour moves one real row into
 * that block, the reduction falls below the cp threshold, the split is pruned and u drops to 0.
 * The change is about (⌊cp·n⌋ + 1)/(8n): cp·n/8 times the bound.
 */
function cpThresholdPair(
  n: number,
  cp: number,
): { real: Float64Array; neighbour: Float64Array; synth: Float64Array } {
  const normal = makeNormalSampler(new SeededRng(7));
  const synth = Float64Array.from({ length: n }, () => normal(0, 1));
  const sorted = Float64Array.from(synth).sort();
  const below = n - (Math.floor(cp * n) + 1);
  const real = Float64Array.from({ length: n }, (_, i) => {
    const k = Math.min(below - 1, Math.floor((i * below) / n));
    return (sorted[k]! + sorted[k + 1]!) / 2;
  });
  const neighbour = Float64Array.from(real);
  neighbour[0] = sorted[n - 1]! + 1;
  return { real, neighbour, synth };
}

const paperTree = (maxDepth: number): PmseTreeSettings => ({
  maxDepth,
  minSplit: PMSE_TREE_MIN_SPLIT,
  minBucket: PMSE_TREE_MIN_BUCKET,
  cp: 0.01,
});

describe('sensitivity of u(X, θ) with the propensity tree settings', () => {
  const n = 5000;
  const pair = cpThresholdPair(n, 0.01);

  it('exceeds 1/n with the paper’s depth-1 rpart settings (cp 0.01, minbucket 7)', () => {
    // Expected ≈ (⌊cp·n⌋ + 1)/8 = 51/8 ≈ 6.4 times the bound; anything above 1 breaks Δu = 1/n.
    expect(scaledChange(pair.real, pair.neighbour, pair.synth, paperTree(1))).toBeGreaterThan(5);
  });

  it('exceeds 1/n with deep greedy trees and cp 0.01 as well (the claim says ε is not a proven bound)', () => {
    expect(scaledChange(pair.real, pair.neighbour, pair.synth, paperTree(30))).toBeGreaterThan(5);
  });

  it('stays within 1/(2n) on the same pair with the mechanism’s depth-1 quality (exhaustive stump)', () => {
    expect(scaledChange(pair.real, pair.neighbour, pair.synth, 'exhaustive stump')).toBeLessThanOrEqual(0.5);
  });

  it('stays within 1/(2n) for 3,000 random and extreme neighbours with the exhaustive stump', () => {
    // The README's proof bounds every fixed partition by 1/(2(n + 1)) and u is their maximum, so no pair
    // may exceed 1/(2n); 1e-9 allows for floating-point rounding only. Neighbours replace one row of a two-column table by a
    // random point, an outlier, or a copy of a synthetic row (the moves most able to change the best split).
    const size = 300;
    const rng = new SeededRng(11);
    const normal = makeNormalSampler(rng);
    let largest = 0;
    for (let trial = 0; trial < 30; trial++) {
      const shift = normal(0, 0.5);
      const real = [0, 1].map(() => Float64Array.from({ length: size }, () => normal(0, 1)));
      const synth = [0, 1].map(() => Float64Array.from({ length: size }, () => normal(shift, 1)));
      const u = exhaustiveStump(real, size).evaluate(synth);
      for (let move = 0; move < 100; move++) {
        const row = uniformInt(rng, size);
        const kind = move % 3;
        const source = uniformInt(rng, size);
        const neighbour = real.map((column, c) => {
          const copy = Float64Array.from(column);
          copy[row] = kind === 0 ? normal(0, 2) : kind === 1 ? 50 * (c + 1) : synth[c]![source]!;
          return copy;
        });
        const uNeighbour = exhaustiveStump(neighbour, size).evaluate(synth);
        largest = Math.max(largest, Math.abs(u - uNeighbour) * size);
      }
    }
    expect(largest).toBeGreaterThan(0.05);
    expect(largest).toBeLessThanOrEqual(0.5 + 1e-9);
  });
});

/**
 * The collapsed privacy test's counts. Generation (eq. 3) reads only the kept levels σ(1..m − ω) of
 * the seed, so Pr{y = M_ω(d′)} is the same for every seed d′ that agrees with the seed d on those
 * levels and 0 for the others: Privacy Test 2's γ-bands collapse to one, and the number of plausible
 * seeds is k′ = c(d, ω) = #{d′ ∈ D_S : d′ agrees with d on σ(1..m − ω)}.
 *
 * All c(d, ω) come from one lexicographic sort of the seeds by their levels in σ order: seeds agreeing
 * on a prefix of σ are contiguous, and c(d, ω) is the length of d's run of equal (m − ω)-prefixes.
 * Cost O(n_S·log n_S·m) for the sort and O(n_S·(ωmax − ωmin + 1)) for the counts.
 */

/** c(d, ω) for seed d and ω in [omegaMin, omegaMax], at counts[(ω − omegaMin)·seeds + d]. */
export interface SeedBands {
  counts: Uint32Array;
  seeds: number;
  omegaMin: number;
  omegaMax: number;
}

/**
 * Counts for seeds stored row-major in `seedLevels` (seeds × m levels), σ = `order`, ω in
 * [omegaMin, omegaMax] (1 <= omegaMin <= omegaMax <= m).
 */
export function seedBandCounts(
  seedLevels: Uint32Array,
  m: number,
  order: readonly number[],
  omegaMin: number,
  omegaMax: number,
): SeedBands {
  const seeds = m === 0 ? 0 : seedLevels.length / m;
  const sorted = Uint32Array.from({ length: seeds }, (_, i) => i);
  sorted.sort((a, b) => {
    for (let q = 0; q < m; q++) {
      const attribute = order[q]!;
      const diff = seedLevels[a * m + attribute]! - seedLevels[b * m + attribute]!;
      if (diff !== 0) return diff;
    }
    return a - b;
  });
  // common[i]: how many leading σ-attributes sorted[i] shares with sorted[i − 1].
  const common = new Uint32Array(seeds);
  for (let i = 1; i < seeds; i++) {
    let q = 0;
    const a = sorted[i - 1]! * m;
    const b = sorted[i]! * m;
    while (q < m && seedLevels[a + order[q]!] === seedLevels[b + order[q]!]) q++;
    common[i] = q;
  }
  const counts = new Uint32Array(seeds * (omegaMax - omegaMin + 1));
  for (let omega = omegaMin; omega <= omegaMax; omega++) {
    const prefix = m - omega;
    const base = (omega - omegaMin) * seeds;
    let start = 0;
    for (let i = 1; i <= seeds; i++) {
      if (i === seeds || common[i]! < prefix) {
        for (let j = start; j < i; j++) counts[base + sorted[j]!] = i - start;
        start = i;
      }
    }
  }
  return { counts, seeds, omegaMin, omegaMax };
}

/**
 * Privacy Test 2 as the paper states it, for checking the collapsed counts: k′ = the number of seeds
 * d′ whose probability of producing y lies in the band of y's seed d, i.e. with
 * γ^(−i−1) < Pr{y = M(d′)} <= γ^(−i) where γ^(−i−1) < Pr{y = M(d)} <= γ^(−i). `probability(d′)` is
 * Pr{y = M(d′)}. Cost O(n_S) per call (the SGF way; used by tests and the bench only).
 */
export function literalPlausibleSeeds(
  seeds: number,
  seed: number,
  gamma: number,
  probability: (candidate: number) => number,
): number {
  const own = probability(seed);
  if (!(own > 0)) return 0;
  const band = Math.floor(-Math.log(own) / Math.log(gamma));
  let count = 0;
  for (let d = 0; d < seeds; d++) {
    const p = probability(d);
    if (p > 0 && Math.floor(-Math.log(p) / Math.log(gamma)) === band) count++;
  }
  return count;
}

import { bernoulliExpNegBig } from './bernoulli-exp-neg';
import type { Rng } from './types';

/**
 * Exact binary digits of e^(−s/t) for integers s ≥ 0, t ≥ 1, computed with bigint arithmetic only.
 *
 * floor(e^(−x)·2^bits), x = s/t, from the Taylor series S_N = Σ_{k≤N} (−x)^k/k!: once N + 1 > x the
 * terms decrease in size and alternate in sign, so |e^(−x) − S_N| ≤ x^(N+1)/(N+1)! (Leibniz). N is
 * raised until that bound times 2^(bits + extra) is below 1 and the floors of both ends of the
 * bracket agree; e^(−x) is irrational for rational x > 0 (Lindemann), so they eventually do.
 * Example: s = 1, t = 2, bits = 32 → floor(0.60653066·2^32) = 2,605,029,347.
 */
export function floorExpNegScaled(s: bigint, t: bigint, bits: number): bigint {
  if (s < 0n || t < 1n) throw new RangeError(`floorExpNegScaled: need s ≥ 0 and t ≥ 1, got ${s}/${t}`);
  const scale = 1n << BigInt(bits);
  if (s === 0n) return scale;
  for (let extra = 8n; ; extra += 32n) {
    // Smallest N with N + 1 > x and x^(N+1)·2^(bits+extra) < t^(N+1)·(N+1)!.
    let n = 0n;
    let sPower = s; // s^(N+1)
    let tPowerFactorial = t; // t^(N+1)·(N+1)!
    const target = scale << extra;
    while (n + 1n <= s / t || sPower * target >= tPowerFactorial) {
      n += 1n;
      sPower *= s;
      tPowerFactorial *= t * (n + 1n);
    }
    // S_N·D with D = t^(N+1)·(N+1)!: term k contributes (−1)^k s^k t^(N+1−k) (N+1)!/k!.
    const denominator = tPowerFactorial;
    let sum = 0n;
    let term = denominator; // k = 0: t^(N+1)(N+1)!
    for (let k = 0n; k <= n; k++) {
      sum += k % 2n === 0n ? term : -term;
      term = (term * s) / (t * (k + 1n)); // exact: t·(k+1) divides t^(N+1−k)·(N+1)!/k!
    }
    const low = floorDiv((sum - sPower) * scale, denominator);
    const high = floorDiv((sum + sPower) * scale, denominator);
    if (low === high) return low;
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

const WORD = 2 ** 32;
const WORD_SAMPLER_LARGEST_GAMMA = 16n;

/**
 * A Bernoulli(e^−γ) sampler for a rational γ = s/t ≥ 0 that compares a uniform U in [0, 1), read 32
 * bits at a time, with the binary expansion of q = e^−γ: the first word that differs from q's word
 * at the same place decides U < q. One random word per draw except with probability 2^−32; the
 * words of q are exact (floorExpNegScaled) and computed once per sampler, the deeper ones only when
 * needed. Exact because q is irrational for γ > 0, so U = q has probability 0 and the comparison
 * ends. Written by hand: the generic Bernoulli(e^−γ) of Canonne, Kamath & Steinke needs several
 * random words per draw, and noisy counts on large domains make tens of millions of draws.
 */
export function makeBernoulliExpNegWordSampler(s: bigint, t: bigint): (rng: Rng) => boolean {
  if (s === 0n) return () => true;
  // Beyond γ = 16 the series needs hundreds of terms per word (thousands at γ = 10⁵, the scale of
  // near-noiseless runs) and q < 2^−23 is so small that one word rarely decides anyway: use the
  // generic exact sampler there.
  if (s > WORD_SAMPLER_LARGEST_GAMMA * t) return (rng) => bernoulliExpNegBig(rng, s, t);
  const words: number[] = [];
  const wordAt = (index: number): number => {
    while (words.length <= index) {
      const bits = 32 * (words.length + 1);
      words.push(Number(floorExpNegScaled(s, t, bits) % BigInt(WORD)));
    }
    return words[index]!;
  };
  const first = wordAt(0);
  return (rng) => {
    const word = rng.nextUint32();
    if (word !== first) return word < first;
    for (let index = 1; ; index++) {
      const next = rng.nextUint32();
      const digit = wordAt(index);
      if (next !== digit) return next < digit;
    }
  };
}

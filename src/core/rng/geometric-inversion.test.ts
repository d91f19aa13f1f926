import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GeometricByInversion } from './geometric-inversion';
import { expNegBracket, inverseOnePlusBracket, type RatioBracket } from './ratio-brackets';
import { SeededRng } from './seeded-rng';
import { fitDraws, powerAgainst, tabulatePmf } from './testing/distribution-fit';
import { scriptedRng } from './testing/scripted-rng';

// floor(r^k·2^128) as four 32-bit words, from tests/reference/rng/ratio_words.py (mpmath, 400 digits).
interface WordsRow {
  kind: 'expNeg' | 'inverseOnePlus';
  s: number;
  t: number;
  k: number;
  words: number[];
}
const rows = (
  JSON.parse(
    readFileSync(new URL('../../../tests/fixtures/rng/ratio-words.json', import.meta.url), 'utf8'),
  ) as {
    rows: WordsRow[];
  }
).rows;

function ratio(kind: WordsRow['kind'], s: number, t: number): RatioBracket {
  const q = expNegBracket(BigInt(s), BigInt(t));
  return kind === 'expNeg' ? q : inverseOnePlusBracket(q);
}

const DRAWS = 200_000;
const ALPHA = 1e-6;
const MAX_WORD = 0xffff_ffff;

/** P(G = g) ∝ r^g on 0 … hi, r given as a double (fine for the expected counts of a test). */
function geometricPmf(r: number, hi: number) {
  return tabulatePmf(0, hi, (g) => (1 - r) * r ** g);
}

describe('GeometricByInversion: the table', () => {
  for (const row of rows.filter((r) => r.k <= 4096)) {
    it(`holds floor(r^${row.k}·2^32) for ${row.kind}(${row.s}/${row.t}) (mpmath reference)`, () => {
      const sampler = new GeometricByInversion(ratio(row.kind, row.s, row.t));
      // Entries stop at the first zero word, so a k beyond the table has a zero first word.
      const entry =
        row.k <= sampler.tableSize ? (sampler as unknown as { words: Uint32Array }).words[row.k - 1] : 0;
      expect(entry).toBe(row.words[0]);
    });
  }
});

describe('GeometricByInversion: draws against the exact law (chi-square, α = 1e−6, N = 200,000)', () => {
  // Each case: the ratio r = 1/(1 + e^(−γ)) of the sparse noise's gaps, or e^(−γ). The wrong ratio
  // uses 1.1·γ (near γ = 0, where 1/(1 + e^(−γ)) barely moves, the other kind e^(−γ/2), as if the
  // gap used the wrong formula); powerAgainst() shows that alternative's X² lies 5 sd above the
  // critical value, and the wrong sampler is then run and must be rejected.
  type Case = { kind: WordsRow['kind']; s: number; t: number; reach: number };
  const cases: (Case & { wrong: Omit<Case, 'reach'> })[] = [
    { kind: 'inverseOnePlus', s: 1, t: 2, reach: 60, wrong: { kind: 'inverseOnePlus', s: 11, t: 20 } },
    { kind: 'inverseOnePlus', s: 1, t: 1000, reach: 60, wrong: { kind: 'expNeg', s: 1, t: 2000 } },
    { kind: 'inverseOnePlus', s: 5, t: 1, reach: 3000, wrong: { kind: 'inverseOnePlus', s: 11, t: 2 } },
    { kind: 'expNeg', s: 3, t: 4, reach: 40, wrong: { kind: 'expNeg', s: 33, t: 40 } },
  ];
  const ratioValue = ({ kind, s, t }: Omit<Case, 'reach'>) =>
    kind === 'expNeg' ? Math.exp(-s / t) : 1 / (1 + Math.exp(-s / t));
  for (const { kind, s, t, reach, wrong: wrongCase } of cases) {
    it(`fits ${kind}(${s}/${t}) and rejects ${wrongCase.kind}(${wrongCase.s}/${wrongCase.t})`, () => {
      const truth = geometricPmf(ratioValue({ kind, s, t }), reach);
      const rng = new SeededRng(`geometric inversion ${kind} ${s}/${t}`);
      const sampler = new GeometricByInversion(ratio(kind, s, t));
      const fit = fitDraws(() => sampler.draw(rng), DRAWS, truth);
      expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeGreaterThan(ALPHA);

      const alternative = geometricPmf(ratioValue(wrongCase), reach);
      const power = powerAgainst(truth, alternative, DRAWS, ALPHA);
      expect(power.fiveSigmaLowerStatistic, `λ = ${power.noncentrality}`).toBeGreaterThan(power.critical);
      const wrong = new GeometricByInversion(ratio(wrongCase.kind, wrongCase.s, wrongCase.t));
      const wrongFit = fitDraws(() => wrong.draw(rng), DRAWS, truth);
      expect(wrongFit.pValue, `X² = ${wrongFit.statistic}`).toBeLessThan(ALPHA);
    });
  }

  it('keeps the law across the memoryless restarts: r = 1/(1 + e^(−10)), mean ≈ 22,026, table 4,096', () => {
    // r^4096 ≈ 0.83, so most draws restart several times. G = 2048·H + L with H geometric of ratio
    // r^2048 and L on 0 … 2047 with P(L = l) ∝ r^l, independent; both laws are checked.
    const r = 1 / (1 + Math.exp(-10));
    const sampler = new GeometricByInversion(ratio('inverseOnePlus', 10, 1));
    expect(sampler.tableSize).toBe(4096);
    const rng = new SeededRng('geometric inversion restarts');
    const draws = Array.from({ length: DRAWS }, () => sampler.draw(rng));
    const block = 2048;
    const high = geometricPmf(r ** block, 200);
    let index = 0;
    const highFit = fitDraws(() => Math.floor(draws[index++]! / block), DRAWS, high);
    expect(highFit.pValue, `X² = ${highFit.statistic}`).toBeGreaterThan(ALPHA);
    const low = tabulatePmf(0, block - 1, (l) => r ** l);
    index = 0;
    const lowFit = fitDraws(() => draws[index++]! % block, DRAWS, low);
    expect(lowFit.pValue, `X² = ${lowFit.statistic}`).toBeGreaterThan(ALPHA);
    // Power of the first test against a sampler that dropped the restarts' T (ratio of H 20 % lower).
    const power = powerAgainst(high, geometricPmf(0.8 * r ** block, 200), DRAWS, ALPHA);
    expect(power.fiveSigmaLowerStatistic).toBeGreaterThan(power.critical);
  });
});

describe('GeometricByInversion: exact comparison when the first word ties', () => {
  const row = rows.find((r) => r.kind === 'inverseOnePlus' && r.s === 1 && r.t === 2 && r.k === 1)!;
  const [w1, w2, w3, w4] = row.words as [number, number, number, number];
  const sampler = () => new GeometricByInversion(ratio('inverseOnePlus', 1, 2));

  // U's first word equals w_1 = floor(r·2^32) (and w_2 < w_1), so G is 1 if U < r and 0 otherwise;
  // the reference words of r decide which.
  it('decides on the second word', () => {
    expect(sampler().draw(scriptedRng([w1, w2 - 1, 0, 0]))).toBe(1);
    expect(sampler().draw(scriptedRng([w1, w2 + 1, 0, 0]))).toBe(0);
  });

  it('decides past 128 bits when U agrees with r on four words', () => {
    expect(sampler().draw(scriptedRng([w1, w2, w3, w4, 0, 0, 0, 0]))).toBe(1);
    expect(sampler().draw(scriptedRng([w1, w2, w3, w4, MAX_WORD, MAX_WORD, MAX_WORD, MAX_WORD]))).toBe(0);
  });
});

describe('GeometricByInversion: ties over several entries, restarts and the table fallback', () => {
  it('resolves a tie that spans many equal table words with one uniform', () => {
    // r = 1/(1 + e^(−50)): every table word is 2^32 − 1. U = 1 − 100.5·q (q = e^(−50)), whose words
    // (mpmath) follow; r^k = (1 + q)^(−k) ≈ 1 − k·q, so U < r^k exactly for k ≤ 100: G = 100, decided
    // on the first four words of U, shared by all 100 comparisons.
    const sampler = new GeometricByInversion(ratio('inverseOnePlus', 50, 1));
    const rng = scriptedRng([MAX_WORD, MAX_WORD, 2759213666, 2754484900, 1724752431, 2749157183]);
    expect(sampler.draw(rng)).toBe(100);
    expect(rng.used).toBe(4);
  });

  it('adds exactly T at a restart', () => {
    // r = e^(−1/1000): the table is full (T = 4096, r^4096 ≈ 0.017 > 2^−32). U's first word 0 lies below
    // every entry (r^4096·2^32 ≫ 1), so G ≥ 4096: restart; the next U (word 2^32 − 1) gives 0 more.
    const sampler = new GeometricByInversion(ratio('expNeg', 1, 1000));
    expect(sampler.tableSize).toBe(4096);
    expect(sampler.draw(scriptedRng([0, MAX_WORD]))).toBe(4096);
  });

  for (const sign of [1n, -1n]) {
    it(`computes a table word exactly when the chained bracket straddles a word boundary (r² = 1/2 ${sign > 0n ? '+' : '−'} 2^−150)`, () => {
      // r = √(1/2 ± 2^−150): r² is within 2^−150 of 2^−1, so the 96-bit chain cannot decide whether
      // floor(r²·2^32) is 2^31 or 2^31 − 1; the exact fallback must.
      const isqrt = (value: bigint): bigint => {
        let x = 1n << BigInt((value.toString(2).length >> 1) + 1);
        for (;;) {
          const y = (x + value / x) >> 1n;
          if (y >= x) return x;
          x = y;
        }
      };
      const r: RatioBracket = (bits) => {
        const b = BigInt(Math.max(bits, 75));
        const lo = isqrt((1n << (2n * b - 1n)) + sign * (1n << (2n * b - 150n)));
        const scaled = bits >= 75 ? lo : lo >> (b - BigInt(bits));
        return [scaled, scaled + 1n];
      };
      const words = (new GeometricByInversion(r) as unknown as { words: Uint32Array }).words;
      expect(words[1]).toBe(sign > 0n ? 2 ** 31 : 2 ** 31 - 1);
    });
  }
});

describe('GeometricByInversion: cap', () => {
  it('stops at the cap after about cap/T words when the ratio is almost 1', () => {
    // r = 1/(1 + e^(−40)): P(G < 10^6) ≈ 10^6·e^(−40) ≈ 4·10^−12; every word below 2^32 − 1 is a
    // restart of T = 4096, so the draw reads ceil(10^6/4096) = 245 words.
    const sampler = new GeometricByInversion(ratio('inverseOnePlus', 40, 1));
    const rng = scriptedRng(Array.from({ length: 245 }, (_, i) => i));
    const drawn = sampler.draw(rng, 1_000_000);
    expect(drawn).toBeGreaterThanOrEqual(1_000_000);
    expect(rng.used).toBe(245);
  });
});

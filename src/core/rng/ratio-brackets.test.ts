import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expNegBracket, inverseOnePlusBracket, powerBracketAt, type RatioBracket } from './ratio-brackets';

// floor(r^k·2^128) as four 32-bit words, from tests/reference/rng/ratio_words.py (mpmath, 400 digits).
interface WordsRow {
  kind: 'expNeg' | 'inverseOnePlus';
  s: number;
  t: number;
  k: number;
  words: number[];
}
const fixture = JSON.parse(
  readFileSync(new URL('../../../tests/fixtures/rng/ratio-words.json', import.meta.url), 'utf8'),
) as { rows: WordsRow[] };

function ratioOfRow(row: Pick<WordsRow, 'kind' | 's' | 't'>): RatioBracket {
  const q = expNegBracket(BigInt(row.s), BigInt(row.t));
  return row.kind === 'expNeg' ? q : inverseOnePlusBracket(q);
}

function referenceAt128(row: WordsRow): bigint {
  return row.words.reduce((value, word) => (value << 32n) | BigInt(word), 0n);
}

describe('powerBracketAt', () => {
  for (const row of fixture.rows) {
    it(`encloses ${row.kind}(${row.s}/${row.t})^${row.k} at 128 bits, within a few units`, () => {
      // The true value v = r^k·2^128 lies in [X, X + 1) with X the reference floor, and is not an
      // integer (r^k is irrational): a valid bracket has lo ≤ X and hi ≥ X + 1.
      const [lo, hi] = powerBracketAt(ratioOfRow(row), row.k, 128);
      const floor = referenceAt128(row);
      expect(lo <= floor, `lo ${lo} vs floor ${floor}`).toBe(true);
      expect(hi >= floor + 1n, `hi ${hi} vs floor ${floor}`).toBe(true);
      // The guard bits keep the bracket tight: a wrong rounding direction or too few guard bits
      // would either break the enclosure or widen it far beyond this.
      expect(hi - lo <= 4n, `width ${hi - lo}`).toBe(true);
    });
  }

  it('gives 1 exactly for k = 0 and refuses negative or fractional k', () => {
    const r = expNegBracket(1n, 2n);
    expect(powerBracketAt(r, 0, 64)).toEqual([1n << 64n, 1n << 64n]);
    expect(() => powerBracketAt(r, -1, 64)).toThrow(
      new RangeError('powerBracketAt: k must be a whole number ≥ 0, got -1'),
    );
    expect(() => powerBracketAt(r, 1.5, 64)).toThrow('powerBracketAt: k must be a whole number ≥ 0, got 1.5');
    expect(() => powerBracketAt(r, 2 ** 53, 64)).toThrow(RangeError);
  });
});

describe('brackets at every precision', () => {
  // At 128 bits the guard bits of powerBracketAt hide a wrong rounding; here each bracket of r itself
  // must enclose r·2^b for every b = 1 … 128, the reference floor being the fixture's floor shifted.
  for (const row of fixture.rows.filter((r) => r.k === 1)) {
    it(`${row.kind}(${row.s}/${row.t}) at every bit count from 1 to 128`, () => {
      const r = ratioOfRow(row);
      const floor128 = referenceAt128(row);
      for (let bits = 1; bits <= 128; bits++) {
        const floor = floor128 >> BigInt(128 - bits);
        const [lo, hi] = r(bits);
        expect(lo <= floor && hi >= floor + 1n, `bits ${bits}: [${lo}, ${hi}] vs ${floor}`).toBe(true);
      }
    });
  }

  it('powerBracketAt without guard bits still encloses exact dyadic powers (every rounding direction)', () => {
    // r = a/2^20 with a odd is exact in fixed point, so r^k·2^64 = a^k/2^(20k − 64) is known exactly;
    // with no guard bits every product's floor (lower chain) and ceiling (upper chain) shows.
    let state = 12345n;
    const next = () => (state = (state * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n));
    for (let trial = 0; trial < 400; trial++) {
      const a = (next() >> 44n) | 1n;
      const k = Number(next() % 40n) + 1;
      const exact: RatioBracket = (b) =>
        b >= 20
          ? [a << BigInt(b - 20), a << BigInt(b - 20)]
          : [a >> BigInt(20 - b), (a >> BigInt(20 - b)) + 1n];
      const [lo, hi] = powerBracketAt(exact, k, 64, 0);
      const power = a ** BigInt(k);
      const shift = BigInt(20 * k - 64);
      const floor = shift >= 0n ? power >> shift : power << -shift;
      const ceil = shift >= 0n ? (power + (1n << shift) - 1n) >> shift : floor;
      expect(lo <= floor && hi >= ceil, `a = ${a}, k = ${k}: [${lo}, ${hi}] vs [${floor}, ${ceil}]`).toBe(
        true,
      );
    }
  });
});

describe('inverseOnePlusBracket', () => {
  it('brackets 1/(1 + e^(−1/2)) = 0.6224593312… at 32 bits', () => {
    // 1/(1 + e^(−0.5)) = 0.62245933120185456464 (logistic(0.5)); ·2^32 = 2673442470.3…
    const [lo, hi] = inverseOnePlusBracket(expNegBracket(1n, 2n))(32);
    expect(lo).toBe(2673442470n);
    expect(hi).toBe(2673442471n);
  });
});

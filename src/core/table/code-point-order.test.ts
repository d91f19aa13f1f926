import { describe, expect, it } from 'vitest';
import { compareByCodePoint, sortedByCodePoint } from './code-point-order';

describe('compareByCodePoint', () => {
  it('orders upper case before lower case, digits and symbols by code point (Python sorted order)', () => {
    // Python 3: sorted(["b", "B", "a", "A", "10", "9", "<NA>", "_"]) == ['10', '9', '<NA>', 'A', 'B', '_', 'a', 'b']
    expect(sortedByCodePoint(['b', 'B', 'a', 'A', '10', '9', '<NA>', '_'])).toEqual([
      '10',
      '9',
      '<NA>',
      'A',
      'B',
      '_',
      'a',
      'b',
    ]);
  });

  it('puts a prefix before the longer string', () => {
    expect(compareByCodePoint('ab', 'abc')).toBeLessThan(0);
    expect(compareByCodePoint('abc', 'ab')).toBeGreaterThan(0);
    expect(compareByCodePoint('same', 'same')).toBe(0);
  });

  it('sorts characters beyond U+FFFF after U+E000–U+FFFF, unlike UTF-16 code-unit order', () => {
    const emoji = '\u{1F600}'; // U+1F600, stored as the surrogates D83D DE00
    const privateUse = '\uE000';
    const replacement = '\uFFFD';
    // Code-unit order (plain sort) would put the emoji first; Python's sorted() puts it last.
    expect([emoji, privateUse, replacement].sort()).toEqual([emoji, privateUse, replacement]);
    expect(sortedByCodePoint([emoji, privateUse, replacement])).toEqual([privateUse, replacement, emoji]);
  });

  it('is not locale-aware: accented letters sort after z', () => {
    expect(sortedByCodePoint(['é', 'z', 'e'])).toEqual(['e', 'z', 'é']);
  });
});

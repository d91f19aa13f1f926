/**
 * Maps a UTF-16 code unit so that comparing mapped units orders strings by Unicode code point.
 * Surrogates (U+D800–U+DFFF) encode code points above U+FFFF, so they must sort after U+E000–U+FFFF;
 * plain `<` on JavaScript strings compares code units and gets this wrong.
 */
function codeUnitInCodePointOrder(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/**
 * Compares two strings by Unicode code point, as Python's `sorted` and R's `sort(method = "radix")` do
 * (reference/README.md §Common preprocessing 4). Not locale-aware on purpose: "B" < "a".
 * Returns a negative number, zero or a positive number. O(length of the common prefix).
 */
export function compareByCodePoint(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const unitA = a.charCodeAt(i);
    const unitB = b.charCodeAt(i);
    if (unitA !== unitB) return codeUnitInCodePointOrder(unitA) - codeUnitInCodePointOrder(unitB);
  }
  return a.length - b.length;
}

/** A new array with the strings sorted by Unicode code point (see compareByCodePoint). */
export function sortedByCodePoint(values: Iterable<string>): string[] {
  return Array.from(values).sort(compareByCodePoint);
}

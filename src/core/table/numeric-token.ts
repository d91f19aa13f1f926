/**
 * The normative numeric token: optional sign, digits with an optional fraction (or a bare fraction),
 * optional exponent. reference/README.md §Common preprocessing 3. "1e5", ".5", "+3" and "1." match;
 * "0x10", "inf", "NaN", " 1" (leading space) and "1,5" do not. `\d` means the ASCII digits 0–9 here;
 * Python's `re` would also accept other Unicode decimal digits ("١"), which this product reads as text.
 */
export const NUMERIC_TOKEN_PATTERN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when the token is a number in the normative syntax (NUMERIC_TOKEN_PATTERN). */
export function isNumericToken(token: string): boolean {
  return NUMERIC_TOKEN_PATTERN.test(token);
}

/**
 * Parses a token already known to match NUMERIC_TOKEN_PATTERN into the nearest IEEE double
 * (the same value as Python's float() and R's as.numeric()). Very large exponents give ±Infinity.
 */
export function parseNumericToken(token: string): number {
  return Number(token);
}

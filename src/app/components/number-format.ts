/**
 * Numbers as the studio shows them (English grouping: 12,345). The formatters are made once:
 * `toLocaleString('en')` builds a new ICU formatter on every call (tens of microseconds each, and
 * the first one in a page loads ICU's data, about 20 ms), which adds up in panels with many numbers.
 */
let countFormat: Intl.NumberFormat | null = null;
let decimalFormat: Intl.NumberFormat | null = null;

/** A count or any number with English grouping and up to 3 decimals (as toLocaleString('en')). */
export function formatCount(value: number): string {
  countFormat ??= new Intl.NumberFormat('en');
  return countFormat.format(value);
}

/** A number with English grouping and up to 6 decimals. */
export function formatDecimal(value: number): string {
  decimalFormat ??= new Intl.NumberFormat('en', { maximumFractionDigits: 6 });
  return decimalFormat.format(value);
}

/** Loads the formatter's locale data while the page is idle, before the first number is shown. */
export function warmNumberFormat(): void {
  const warm = () => formatCount(0);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 2000 });
  else setTimeout(warm, 0);
}

/**
 * How real and synthetic data look in every chart. Colour is never the only cue (WCAG 1.4.1):
 * synthetic bars are hatched and outlined, coefficient markers differ in shape, and every legend
 * names the series in words. Both colours keep at least 3:1 against the white card (WCAG 1.4.11),
 * tested in series-colours.test.ts.
 */
export const REAL_COLOUR = '#5b6b7f';
export const SYNTHETIC_COLOUR = '#c06a1b';
/** The outline of synthetic bars and of the pale release markers. */
export const SYNTHETIC_OUTLINE = '#6e3a0c';
/** Single releases when a combined estimate is drawn too: a paler synthetic orange, always outlined. */
export const RELEASE_COLOUR = '#efb77a';

/** WCAG 2.x contrast ratio of two #rrggbb colours: (L₁ + 0.05) / (L₂ + 0.05), L the relative luminance. */
export function contrastRatio(first: string, second: string): number {
  const [a, b] = [relativeLuminance(first), relativeLuminance(second)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** Relative luminance of sRGB #rrggbb (WCAG 2.x definition: linearised channels, 0.2126/0.7152/0.0722). */
export function relativeLuminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

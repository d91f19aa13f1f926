/** The ε slider spans 0.01 … 10 on a log scale (base 10), in SLIDER_STEPS steps. */
export const SLIDER_MIN_EPSILON = 0.01;
export const SLIDER_MAX_EPSILON = 10;
export const SLIDER_STEPS = 300;

const LOG_MIN = Math.log10(SLIDER_MIN_EPSILON);
const LOG_SPAN = Math.log10(SLIDER_MAX_EPSILON) - LOG_MIN;

/**
 * Slider position of ε: round(SLIDER_STEPS · (log10 ε − log10 0.01) / (log10 10 − log10 0.01)),
 * clamped to the track. Example: ε = 1 → 200 of 300.
 */
export function sliderPositionOfEpsilon(epsilon: number): number {
  if (!Number.isFinite(epsilon) || epsilon <= 0) return 0;
  const position = Math.round((SLIDER_STEPS * (Math.log10(epsilon) - LOG_MIN)) / LOG_SPAN);
  return Math.min(SLIDER_STEPS, Math.max(0, position));
}

/**
 * ε at a slider position, 10^(log10 0.01 + position/SLIDER_STEPS · span), rounded to two
 * significant digits and written as a plain decimal string (the budget is parsed exactly from it).
 * Example: 200 → "1"; 150 → "0.32".
 */
export function epsilonAtSliderPosition(position: number): string {
  const value = 10 ** (LOG_MIN + (position / SLIDER_STEPS) * LOG_SPAN);
  return roundToSignificantDecimal(value, 2);
}

/**
 * `value` rounded to `digits` significant digits, as the shortest decimal string of the result
 * (exponent form only for very small or large values, e.g. "1e-7", which the budget parser accepts).
 */
export function roundToSignificantDecimal(value: number, digits: number): string {
  return String(Number(value.toPrecision(digits)));
}

/**
 * `count` values from `min` to `max` evenly spaced in log ε, each rounded to 2 significant digits.
 * Example: logGrid(0.1, 10, 3) → [0.1, 1, 10].
 */
export function logGrid(min: number, max: number, count: number): number[] {
  if (count <= 1) return [min];
  const logMin = Math.log10(min);
  const step = (Math.log10(max) - logMin) / (count - 1);
  const values = Array.from({ length: count }, (_, i) =>
    Number(roundToSignificantDecimal(10 ** (logMin + i * step), 2)),
  );
  return [...new Set(values)];
}

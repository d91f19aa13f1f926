import { logGamma } from './log-gamma';

const HALF_LOG_TWO_PI = 0.9189385332046728;

/**
 * Stirling remainder δ(x) = log Γ(x) − [(x − ½) log x − x + ½ log 2π] for x ≥ 10, from the
 * asymptotic series 1/(12x) − 1/(360x³) + 1/(1260x⁵) − 1/(1680x⁷) + 1/(1188x⁹) − 691/(360360x¹¹)
 * (Abramowitz & Stegun 6.1.41); absolute error below 1e−15 at x = 10 and smaller beyond.
 */
export function stirlingRemainder(x: number): number {
  if (!(x >= 10)) throw new RangeError(`stirlingRemainder needs x ≥ 10, got ${x}`);
  const inverse = 1 / x;
  const inverse2 = inverse * inverse;
  return (
    inverse *
    (1 / 12 -
      inverse2 *
        (1 / 360 -
          inverse2 * (1 / 1260 - inverse2 * (1 / 1680 - inverse2 * (1 / 1188 - (691 / 360360) * inverse2)))))
  );
}

/**
 * log B(a, b) = log Γ(a) + log Γ(b) − log Γ(a + b) for a, b > 0, without the cancellation of the
 * direct formula when a or b is large. With p = min(a, b), q = max(a, b) and δ the Stirling remainder:
 * - p ≥ 10: −½ log q + ½ log 2π + δ(p) + δ(q) − δ(p + q) + (p − ½) log(p/(p + q)) + q log1p(−p/(p + q));
 * - q ≥ 10 > p: log Γ(p) + δ(q) − δ(p + q) + p − p log(p + q) + (q − ½) log1p(−p/(p + q));
 * - otherwise the direct formula. (The decomposition of R's `lbeta`, from Stirling's series.)
 * Relative error about 1e−15 for large arguments. Throws RangeError unless a, b > 0.
 * Example: logBeta(2, 3) = log(1/12) = −2.4849066497880004.
 */
export function logBeta(a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`logBeta needs a, b > 0, got ${a}, ${b}`);
  const p = Math.min(a, b);
  const q = Math.max(a, b);
  const share = p / (p + q);
  if (p >= 10) {
    const correction = stirlingRemainder(p) + stirlingRemainder(q) - stirlingRemainder(p + q);
    return (
      -0.5 * Math.log(q) + HALF_LOG_TWO_PI + correction + (p - 0.5) * Math.log(share) + q * Math.log1p(-share)
    );
  }
  if (q >= 10) {
    const correction = stirlingRemainder(q) - stirlingRemainder(p + q);
    return logGamma(p) + correction + p - p * Math.log(p + q) + (q - 0.5) * Math.log1p(-share);
  }
  return logGamma(p) + logGamma(q) - logGamma(p + q);
}

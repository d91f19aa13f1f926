/**
 * The standard normal distribution function Φ, its logarithm, density and Mills ratio, accurate to
 * a few units in the last place in both tails.
 *
 * Everything rests on the scaled complementary error function erfcx(y) = e^{y²}·erfc(y), evaluated
 * with the rational Chebyshev approximations of W. J. Cody, "Rational Chebyshev approximations for
 * the error function", Math. Comp. 23 (1969) 631–637, in the three ranges of his CALERF routine
 * (|y| ≤ 0.46875, 0.46875 < y ≤ 4, y > 4). The Gaussian factor e^{−x²/2} is then applied separately
 * with x split into a short head and a tail, so that the rounding of x² never reaches the result
 * (the same device Cody uses for e^{−y²}); Φ(x) for x = −37 keeps a relative error near 1e−15.
 */

// Coefficients: Cody's 18-digit values (as printed in CALERF), each written as the nearest double.

/** Cody (1969), erf on |y| ≤ 0.46875: erf(y) ≈ y·P(y²)/Q(y²). */
const ERF_NUMERATOR = [
  3.1611237438705655, 113.86415415105016, 377.485237685302, 3209.3775891384694, 0.18577770618460315,
] as const;
const ERF_DENOMINATOR = [
  23.601290952344122, 244.02463793444417, 1282.6165260773723, 2844.236833439171,
] as const;

/** Cody (1969), erfcx on 0.46875 < y ≤ 4: erfcx(y) ≈ P(y)/Q(y). */
const ERFCX_MIDDLE_NUMERATOR = [
  0.5641884969886701, 8.883149794388377, 66.11919063714163, 298.6351381974001, 881.952221241769,
  1712.0476126340707, 2051.0783778260716, 1230.3393547979972, 2.1531153547440383e-8,
] as const;
const ERFCX_MIDDLE_DENOMINATOR = [
  15.744926110709835, 117.6939508913125, 537.1811018620099, 1621.3895745666903, 3290.7992357334597,
  4362.619090143247, 3439.3676741437216, 1230.3393548037495,
] as const;

/** Cody (1969), erfcx on y > 4: erfcx(y) ≈ (1/√π − z·P(z)/Q(z))/y with z = 1/y². */
const ERFCX_TAIL_NUMERATOR = [
  0.30532663496123236, 0.36034489994980445, 0.12578172611122926, 0.016083785148742275, 0.0006587491615298378,
  0.016315387137302097,
] as const;
const ERFCX_TAIL_DENOMINATOR = [
  2.568520192289822, 1.8729528499234673, 0.5279051029514285, 0.06051834131244132, 0.0023352049762686918,
] as const;

const ONE_OVER_SQRT_PI = 0.5641895835477563;
const SQRT_HALF = Math.SQRT1_2;
const ONE_OVER_SQRT_TWO_PI = 0.3989422804014327;
const LOG_HALF = -Math.LN2;
/** Beyond this y, erfcx(y) = 1/(y√π) to double precision (Cody's XHUGE). */
const ERFCX_ASYMPTOTIC_FROM = 6.71e7;
/** Cody's split point between the series for erf and the rational forms for erfcx. */
const CODY_SMALL_ARGUMENT = 0.46875;
/** |x| below which Φ(x) = ½ + ½·erf(x/√2) is used: x/√2 ≤ 0.46875. */
const PHI_CENTRAL_LIMIT = CODY_SMALL_ARGUMENT * Math.SQRT2;

/** erf(y) for |y| ≤ 0.46875 (Cody 1969, first range). */
function erfNearZero(y: number): number {
  const z = y * y;
  let numerator = ERF_NUMERATOR[4] * z;
  let denominator = z;
  for (let i = 0; i < 3; i++) {
    numerator = (numerator + ERF_NUMERATOR[i]!) * z;
    denominator = (denominator + ERF_DENOMINATOR[i]!) * z;
  }
  return (y * (numerator + ERF_NUMERATOR[3])) / (denominator + ERF_DENOMINATOR[3]);
}

/**
 * The scaled complementary error function erfcx(y) = e^{y²}·erfc(y) for y ≥ 0, which decays like
 * 1/(y√π) instead of underflowing (Cody 1969, all three ranges). Cost O(1).
 */
function scaledErfc(y: number): number {
  if (y <= CODY_SMALL_ARGUMENT) return Math.exp(y * y) * (1 - erfNearZero(y));
  if (y <= 4) {
    let numerator = ERFCX_MIDDLE_NUMERATOR[8] * y;
    let denominator = y;
    for (let i = 0; i < 7; i++) {
      numerator = (numerator + ERFCX_MIDDLE_NUMERATOR[i]!) * y;
      denominator = (denominator + ERFCX_MIDDLE_DENOMINATOR[i]!) * y;
    }
    return (numerator + ERFCX_MIDDLE_NUMERATOR[7]) / (denominator + ERFCX_MIDDLE_DENOMINATOR[7]);
  }
  if (y >= ERFCX_ASYMPTOTIC_FROM) return ONE_OVER_SQRT_PI / y;
  const z = 1 / (y * y);
  let numerator = ERFCX_TAIL_NUMERATOR[5] * z;
  let denominator = z;
  for (let i = 0; i < 4; i++) {
    numerator = (numerator + ERFCX_TAIL_NUMERATOR[i]!) * z;
    denominator = (denominator + ERFCX_TAIL_DENOMINATOR[i]!) * z;
  }
  const correction = (z * (numerator + ERFCX_TAIL_NUMERATOR[4])) / (denominator + ERFCX_TAIL_DENOMINATOR[4]);
  return (ONE_OVER_SQRT_PI - correction) / y;
}

/**
 * e^{−x²/2} without the rounding error of x²: x = head + tail with head = trunc(16x)/16, so head² is
 * exact and x² = head² + (x − head)(x + head) with a tiny second term (Cody 1969, §3).
 */
function gaussianKernel(x: number): number {
  const head = Math.trunc(x * 16) / 16;
  const rest = (x - head) * (x + head);
  return Math.exp(-0.5 * head * head) * Math.exp(-0.5 * rest);
}

/**
 * Standard normal density φ(x) = e^{−x²/2}/√(2π), with the exponent split as in Cody (1969) so the
 * relative error stays near machine precision even where φ(x) is as small as 1e−300.
 * Example: normalDensity(0) = 0.3989422804014327.
 */
export function normalDensity(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (!Number.isFinite(x)) return 0;
  return ONE_OVER_SQRT_TWO_PI * gaussianKernel(x);
}

/**
 * Standard normal distribution function Φ(x) = ½·erfc(−x/√2).
 * - |x| ≤ 0.663: ½ + ½·erf(x/√2) (Cody 1969, first range);
 * - x < −0.663: ½·erfcx(|x|/√2)·e^{−x²/2}, the exponential applied with a split exponent;
 * - x > 0.663: 1 − Φ(−x).
 * Relative error about 1e−15 wherever Φ(x) is a normal double (x > −37.5); Φ(x) underflows to 0
 * below x ≈ −38.5 (use {@link normalLogCdf} there). Cost O(1).
 * Example: normalCdf(−10) = 7.619853024160527e−24.
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (Math.abs(x) <= PHI_CENTRAL_LIMIT) return 0.5 + 0.5 * erfNearZero(x * SQRT_HALF);
  if (x < 0) {
    if (x === -Infinity) return 0;
    return 0.5 * scaledErfc(-x * SQRT_HALF) * gaussianKernel(x);
  }
  return 1 - normalCdf(-x);
}

/**
 * log Φ(x), finite for every finite x: for x < −0.663 it is log ½ + log erfcx(|x|/√2) − x²/2, which
 * neither underflows nor loses digits (log Φ(−1000) = −500006.9...); for x > 0 it is log1p(−Φ(−x)).
 * Cost O(1). Example: normalLogCdf(−40) = −804.608442013754.
 */
export function normalLogCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < -PHI_CENTRAL_LIMIT) {
    if (x === -Infinity) return -Infinity;
    return LOG_HALF + Math.log(scaledErfc(-x * SQRT_HALF)) - 0.5 * x * x;
  }
  if (x > 0) return Math.log1p(-normalCdf(-x));
  return Math.log(normalCdf(x));
}

/**
 * Mills ratio of the standard normal, R(t) = (1 − Φ(t))/φ(t) = Φ(−t)/φ(t), for t ≥ 0:
 * R(t) = √(π/2)·erfcx(t/√2). It decreases from R(0) = √(π/2) like 1/t and never underflows, which
 * lets ratios of tiny tail probabilities be formed without computing them (used for the
 * Gaussian-DP trade-off in ../privacy/gdp.ts). Throws RangeError for negative or NaN t.
 * Example: normalMillsRatio(0) = 1.2533141373155001.
 */
export function normalMillsRatio(t: number): number {
  if (!(t >= 0)) throw new RangeError(`normalMillsRatio needs t >= 0; got ${t}`);
  if (t === Infinity) return 0;
  return Math.sqrt(Math.PI / 2) * scaledErfc(t * SQRT_HALF);
}

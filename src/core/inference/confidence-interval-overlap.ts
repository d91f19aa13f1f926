/**
 * Confidence-interval overlap of Karr, Kohnen, Oganian, Reiter & Sanil (2006), "A framework for
 * evaluating the utility of data altered to protect confidentiality", The American Statistician
 * 60(3), §3: with L = max(lower_o, lower_s) and U = min(upper_o, upper_s),
 *
 *   J = ½ [ (U − L) / (upper_o − lower_o) + (U − L) / (upper_s − lower_s) ].
 *
 * J = 1 for identical intervals, 0 when they just touch, and negative (a scaled gap) when they are
 * disjoint, as in the original measure. Returns null when either interval has zero or non-finite
 * width. Cost O(1). Example: [0, 2] and [1, 3] → ½ (1/2 + 1/2) = 0.5.
 */
export function confidenceIntervalOverlap(
  lowerObserved: number,
  upperObserved: number,
  lowerSynthetic: number,
  upperSynthetic: number,
): number | null {
  const widthObserved = upperObserved - lowerObserved;
  const widthSynthetic = upperSynthetic - lowerSynthetic;
  if (!(widthObserved > 0 && widthSynthetic > 0 && Number.isFinite(widthObserved + widthSynthetic)))
    return null;
  const overlap = Math.min(upperObserved, upperSynthetic) - Math.max(lowerObserved, lowerSynthetic);
  return 0.5 * (overlap / widthObserved + overlap / widthSynthetic);
}

/**
 * The public candidate grid for DP bounds: readable numbers, log-spaced. Per decade the mantissas
 * 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 and 8 (steps of at most 25 %), for magnitudes 10⁻⁶ … 10¹¹, their
 * negatives, 0, and ±10¹²: 363 candidates by default. A bound chosen from it is already a readable
 * number, and a chosen lower bound at or below every value it keeps is "rounded outward" by
 * construction. Nothing here looks at data.
 */
export const DEFAULT_SEARCH_RANGE: readonly [number, number] = [-1e12, 1e12];

const MANTISSAS = ['1', '1.2', '1.5', '2', '2.5', '3', '4', '5', '6', '8'];
const SMALLEST_EXPONENT = -6;
const LARGEST_EXPONENT = 12;

/** The readable positive magnitudes, ascending: 1e-6, 1.2e-6, …, 8e11, 1e12. */
function positiveMagnitudes(): number[] {
  const values: number[] = [];
  for (let e = SMALLEST_EXPONENT; e < LARGEST_EXPONENT; e++) {
    // Parsed from the decimal text, so each is the double nearest the readable number.
    for (const m of MANTISSAS) values.push(Number(`${m}e${e}`));
  }
  values.push(Number(`1e${LARGEST_EXPONENT}`));
  return values;
}

/**
 * The candidates within [lower, upper], ascending: the grid points inside, plus both ends of the
 * range themselves (a user's range need not fall on the grid). Throws RangeError unless
 * lower < upper, both finite.
 */
export function searchGrid(range: readonly [number, number] = DEFAULT_SEARCH_RANGE): number[] {
  const [lower, upper] = range;
  if (!(Number.isFinite(lower) && Number.isFinite(upper) && lower < upper)) {
    throw new RangeError(`a search range needs finite ends with lower < upper; got [${lower}, ${upper}]`);
  }
  const magnitudes = positiveMagnitudes();
  const all = [...magnitudes.map((m) => -m).reverse(), 0, ...magnitudes];
  const inside = all.filter((g) => g > lower && g < upper);
  return [lower, ...inside, upper];
}

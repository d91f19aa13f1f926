// The schema of private-pgm's domain files (census-shape, pgm-sampling and plausible-deniability benches).

/**
 * The schema of the domain file: every column categorical with the declared levels "0" … "k−1".
 * The domain file lists every value a column takes and the preprocessed table has no missing cell (a
 * public fact of the codebook, not read from the rows), so every column is declared complete
 * (`"canBeMissing": false`, source `declared`): no missing level, the domain private-pgm models.
 * `missingLevel: true` writes the schema of the earlier measurements instead (no `canBeMissing`, so a
 * missing level per column that no row has).
 */
export function schemaFromDomain(
  domain: Record<string, number>,
  options: { missingLevel?: boolean } = {},
): string {
  const columns = Object.entries(domain).map(([name, k]) => ({
    name,
    type: 'categorical',
    categories: Array.from({ length: k }, (_, level) => String(level)),
    ...(options.missingLevel ? {} : { canBeMissing: false }),
    source: 'declared',
  }));
  return JSON.stringify({ version: 1, missing: [''], columns }, null, 1);
}

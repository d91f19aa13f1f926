// The schema of private-pgm's domain files (census-shape and pgm-sampling benches).

/** The schema of the domain file: every column categorical with the declared levels "0" … "k−1". */
export function schemaFromDomain(domain: Record<string, number>): string {
  const columns = Object.entries(domain).map(([name, k]) => ({
    name,
    type: 'categorical',
    categories: Array.from({ length: k }, (_, level) => String(level)),
    source: 'declared',
  }));
  return JSON.stringify({ version: 1, missing: [''], columns }, null, 1);
}

/**
 * Mean 1-way total variation distance between two CSV tables, written here from the normative
 * definition (reference/README.md "TVD", tvd_ref.py) and independent of the studio's code, so a
 * browser test can check the number the page shows against the files it downloads.
 *
 * Numeric column: B equal-width bins over the pooled range [lo, hi] of real ∪ synthetic values,
 * bin = min(B − 1, floor((x − lo)/(hi − lo)·B)), bin 0 when hi = lo; a missing value is its own
 * cell. Categorical column: the token is the cell. TVD of a column = ½ Σ_cells |p_real − p_synth|;
 * the result is the mean over columns.
 */
export function meanOneWayTvd(
  real: Record<string, string>[],
  synth: Record<string, string>[],
  columns: { name: string; numeric: boolean; missing: readonly string[] }[],
  bins = 10,
): number {
  let total = 0;
  for (const { name, numeric, missing } of columns) {
    const isMissing = (v: string) => missing.includes(v);
    const values = [...real, ...synth].map((row) => row[name] ?? '').filter((v) => !isMissing(v));
    const numbers = values.map(Number);
    const lo = Math.min(...numbers);
    const hi = Math.max(...numbers);
    const cellOf = (v: string): string => {
      if (isMissing(v)) return 'missing';
      if (!numeric) return v;
      const x = Number(v);
      return hi === lo ? '0' : String(Math.min(bins - 1, Math.floor(((x - lo) / (hi - lo)) * bins)));
    };
    const shares = (rows: Record<string, string>[]) => {
      const counts = new Map<string, number>();
      for (const row of rows) {
        const cell = cellOf(row[name] ?? '');
        counts.set(cell, (counts.get(cell) ?? 0) + 1);
      }
      return new Map([...counts].map(([cell, count]) => [cell, count / rows.length]));
    };
    const p = shares(real);
    const q = shares(synth);
    let sum = 0;
    for (const cell of new Set([...p.keys(), ...q.keys()]))
      sum += Math.abs((p.get(cell) ?? 0) - (q.get(cell) ?? 0));
    total += sum / 2;
  }
  return total / columns.length;
}

/** Undoes the export's spreadsheet escaping: a leading apostrophe before = + − @ is removed. */
export function unescapeSpreadsheetCell(value: string): string {
  return /^'[=+\-@]/.test(value) ? value.slice(1) : value;
}

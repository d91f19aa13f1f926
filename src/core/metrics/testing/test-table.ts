import type { Column, Table } from '../../table/types';

/**
 * Builds a small Table from literal column arrays for metric tests: an array of numbers (null =
 * missing) becomes a numeric column, an array of strings (null = missing) a categorical column
 * whose dictionary lists tokens in first-seen order.
 */
export function testTable(columns: Record<string, (number | null)[] | (string | null)[]>): Table {
  const built: Column[] = [];
  let nRows = -1;
  for (const [name, values] of Object.entries(columns)) {
    if (nRows === -1) nRows = values.length;
    if (values.length !== nRows)
      throw new Error(`Column ${name} has ${values.length} rows, expected ${nRows}.`);
    const missing = new Uint8Array(values.map((v) => (v === null ? 1 : 0)));
    const isNumeric = values.every((v) => v === null || typeof v === 'number');
    if (isNumeric) {
      const numeric = new Float64Array(values.map((v) => (v === null ? NaN : (v as number))));
      built.push({ kind: 'numeric', name, values: numeric, missing });
      continue;
    }
    const dictionary: string[] = [];
    const index = new Map<string, number>();
    const codes = new Uint32Array(values.length);
    values.forEach((v, i) => {
      if (v === null) return;
      const token = String(v);
      let code = index.get(token);
      if (code === undefined) {
        code = dictionary.length;
        index.set(token, code);
        dictionary.push(token);
      }
      codes[i] = code;
    });
    built.push({ kind: 'categorical', name, codes, dictionary, missing });
  }
  return { nRows: Math.max(nRows, 0), columns: built };
}

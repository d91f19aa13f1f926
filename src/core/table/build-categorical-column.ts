import type { CategoricalColumn, CategoricalColumnSchema } from './types';
import type { StoredColumn } from './stored-column';
import type { ColumnValidation } from './validation-report';
import { compareByCodePoint } from './code-point-order';
import { PAGE_SIZE } from './paged-array';
import { tokenAt } from './stored-column';

function emptyValidation(name: string): ColumnValidation {
  return {
    name,
    missing: 0,
    clampedBelow: 0,
    clampedAbove: 0,
    nonNumeric: 0,
    undeclared: [],
    roundedToInteger: 0,
  };
}

/** The column's distinct tokens with their counts and a code per row into them. */
interface Distinct {
  tokens: string[];
  counts: number[];
  codeAt: (i: number) => number;
  /** Calls each(offset, codesOfPage, rows) page by page. */
  pages: (each: (offset: number, codes: ArrayLike<number>, rows: number) => void) => void;
}

/**
 * A dictionary column as it is; a `numbers` column's tokens (numbers as JavaScript writes them)
 * gathered into a dictionary first: re-typing a many-valued numeric column as categorical.
 */
function distinctOf(stored: StoredColumn): Distinct {
  if (stored.mode === 'dictionary') {
    return {
      tokens: stored.tokens,
      counts: stored.counts,
      codeAt: (i) => stored.codes.get(i),
      pages: (each) =>
        stored.codes.pages.forEach((page, p) =>
          each(p * PAGE_SIZE, page, Math.min(PAGE_SIZE, stored.length - p * PAGE_SIZE)),
        ),
    };
  }
  const index = new Map<string, number>();
  const tokens: string[] = [];
  const counts: number[] = [];
  const codes = new Uint32Array(stored.length);
  for (let i = 0; i < stored.length; i++) {
    const token = tokenAt(stored, i);
    let code = index.get(token);
    if (code === undefined) {
      code = tokens.length;
      index.set(token, code);
      tokens.push(token);
      counts.push(0);
    }
    counts[code]!++;
    codes[i] = code;
  }
  return {
    tokens,
    counts,
    codeAt: (i) => codes[i]!,
    pages: (each) => {
      for (let offset = 0; offset < stored.length; offset += PAGE_SIZE) {
        each(offset, codes.subarray(offset), Math.min(PAGE_SIZE, stored.length - offset));
      }
    },
  };
}

/**
 * Types one categorical column. With declared categories the dictionary is that list in that order and
 * a token outside it is rejected (counted in `undeclared`, stored as missing, row kept), or becomes
 * the `other` level when the schema names one (a fixed rule, so sensitivities hold); otherwise the
 * dictionary is the sorted distinct non-missing tokens. Missing tokens stay missing. Each distinct
 * token is typed once, then rows are copied code by code. O(rows).
 */
export function buildCategoricalColumn(
  stored: StoredColumn,
  schema: CategoricalColumnSchema,
  missingTokens: ReadonlySet<string>,
  checkpoint: (rowsDone: number) => void,
): { column: CategoricalColumn; validation: ColumnValidation } {
  const distinct = distinctOf(stored);
  const nRows = stored.length;
  const validation = emptyValidation(schema.name);
  // entryCode[k]: the table code of distinct token k, or -1 for missing.
  const entryCode = new Int32Array(distinct.tokens.length);
  let dictionary: string[];
  if (schema.categories !== undefined) {
    dictionary = [...schema.categories];
    const codeOf = new Map(dictionary.map((category, code) => [category, code]));
    const otherCode = schema.other === undefined ? undefined : codeOf.get(schema.other);
    if (otherCode !== undefined) validation.otherLevel = schema.other;
    const undeclared: { value: string; count: number }[] = [];
    distinct.tokens.forEach((token, k) => {
      const code = codeOf.get(token);
      if (code !== undefined) {
        entryCode[k] = code;
      } else if (missingTokens.has(token)) {
        entryCode[k] = -1;
        validation.missing += distinct.counts[k]!;
      } else {
        undeclared.push({ value: token, count: distinct.counts[k]! });
        entryCode[k] = otherCode ?? -1;
      }
    });
    validation.undeclared = undeclared.sort(
      (a, b) => b.count - a.count || compareByCodePoint(a.value, b.value),
    );
  } else {
    const present: number[] = [];
    distinct.tokens.forEach((token, k) => {
      if (missingTokens.has(token)) {
        entryCode[k] = -1;
        validation.missing += distinct.counts[k]!;
      } else {
        present.push(k);
      }
    });
    present.sort((a, b) => compareByCodePoint(distinct.tokens[a]!, distinct.tokens[b]!));
    dictionary = present.map((k) => distinct.tokens[k]!);
    present.forEach((k, code) => (entryCode[k] = code));
  }
  const codes = new Uint32Array(nRows);
  const missing = new Uint8Array(nRows);
  distinct.pages((offset, pageCodes, rows) => {
    checkpoint(offset);
    for (let k = 0; k < rows; k++) {
      const code = entryCode[pageCodes[k]!]!;
      if (code < 0) missing[offset + k] = 1;
      else codes[offset + k] = code;
    }
  });
  return { column: { kind: 'categorical', name: schema.name, codes, dictionary, missing }, validation };
}

import type { CategoricalColumn, CategoricalColumnSchema } from './types';
import type { ColumnValidation } from './validation-report';
import { compareByCodePoint } from './code-point-order';
import { ROWS_PER_CHECKPOINT } from './row-checkpoints';

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

/**
 * Declared categories: codes follow the declared order; other tokens are counted and stored as
 * missing, or as the `other` level when the schema names one.
 */
function buildWithDeclaredCategories(
  tokens: string[],
  schema: CategoricalColumnSchema & { categories: string[] },
  missingTokens: ReadonlySet<string>,
  checkpoint: (rowsDone: number) => void,
): { column: CategoricalColumn; validation: ColumnValidation } {
  const nRows = tokens.length;
  const codes = new Uint32Array(nRows);
  const missing = new Uint8Array(nRows);
  const codeOf = new Map(schema.categories.map((category, code) => [category, code]));
  const undeclaredCounts = new Map<string, number>();
  const validation = emptyValidation(schema.name);
  // A learned list's `other` level takes the values outside it (a fixed rule, so sensitivities hold).
  const otherCode = schema.other === undefined ? undefined : codeOf.get(schema.other);
  if (otherCode !== undefined) validation.otherLevel = schema.other;
  for (let start = 0; start < nRows; start += ROWS_PER_CHECKPOINT) {
    checkpoint(start);
    const end = Math.min(nRows, start + ROWS_PER_CHECKPOINT);
    for (let i = start; i < end; i++) {
      const token = tokens[i]!;
      const code = codeOf.get(token);
      if (code !== undefined) {
        codes[i] = code;
        continue;
      }
      if (missingTokens.has(token)) {
        missing[i] = 1;
        validation.missing++;
        continue;
      }
      undeclaredCounts.set(token, (undeclaredCounts.get(token) ?? 0) + 1);
      if (otherCode === undefined) missing[i] = 1;
      else codes[i] = otherCode;
    }
  }
  validation.undeclared = Array.from(undeclaredCounts, ([value, count]) => ({ value, count })).sort(
    (a, b) => b.count - a.count || compareByCodePoint(a.value, b.value),
  );
  const dictionary = [...schema.categories];
  return { column: { kind: 'categorical', name: schema.name, codes, dictionary, missing }, validation };
}

/** No declared categories: the dictionary is the column's distinct tokens sorted by code point. */
function buildWithObservedCategories(
  tokens: string[],
  schema: CategoricalColumnSchema,
  missingTokens: ReadonlySet<string>,
  checkpoint: (rowsDone: number) => void,
): { column: CategoricalColumn; validation: ColumnValidation } {
  const nRows = tokens.length;
  const codes = new Uint32Array(nRows);
  const missing = new Uint8Array(nRows);
  const firstSeenCode = new Map<string, number>();
  const validation = emptyValidation(schema.name);
  for (let start = 0; start < nRows; start += ROWS_PER_CHECKPOINT) {
    checkpoint(start);
    const end = Math.min(nRows, start + ROWS_PER_CHECKPOINT);
    for (let i = start; i < end; i++) {
      const token = tokens[i]!;
      if (missingTokens.has(token)) {
        missing[i] = 1;
        validation.missing++;
        continue;
      }
      let code = firstSeenCode.get(token);
      if (code === undefined) {
        code = firstSeenCode.size;
        firstSeenCode.set(token, code);
      }
      codes[i] = code;
    }
  }
  // Renumber from first-seen order to code-point order in one more pass.
  const dictionary = Array.from(firstSeenCode.keys()).sort(compareByCodePoint);
  const sortedCode = new Uint32Array(dictionary.length);
  dictionary.forEach((token, code) => (sortedCode[firstSeenCode.get(token)!] = code));
  for (let i = 0; i < nRows; i++) if (missing[i] === 0) codes[i] = sortedCode[codes[i]!]!;
  return { column: { kind: 'categorical', name: schema.name, codes, dictionary, missing }, validation };
}

/**
 * Types one categorical column. With declared categories the dictionary is that list in that order and
 * a token outside it is rejected (counted in `undeclared`, stored as missing, row kept); otherwise the
 * dictionary is the sorted distinct tokens. Missing tokens stay missing. O(rows).
 */
export function buildCategoricalColumn(
  tokens: string[],
  schema: CategoricalColumnSchema,
  missingTokens: ReadonlySet<string>,
  checkpoint: (rowsDone: number) => void,
): { column: CategoricalColumn; validation: ColumnValidation } {
  const categories = schema.categories;
  return categories === undefined
    ? buildWithObservedCategories(tokens, schema, missingTokens, checkpoint)
    : buildWithDeclaredCategories(tokens, { ...schema, categories }, missingTokens, checkpoint);
}

import type { Column, Table } from '../table/types';

/** One column present in both tables, matched by name; real and synthetic have the same kind. */
export interface AlignedColumnPair {
  name: string;
  kind: 'numeric' | 'categorical';
  real: Column;
  synth: Column;
}

/**
 * Pairs the columns of a real and a synthetic table by name, in the real table's column order
 * (reference/README.md "Common preprocessing" step 2: the synthetic columns are reordered to
 * the real file's order).
 *
 * Throws when the column sets differ or a column is numeric in one table and categorical in
 * the other: such tables cannot be compared. O(m).
 */
export function alignColumnsByName(real: Table, synth: Table): AlignedColumnPair[] {
  const synthByName = new Map<string, Column>();
  for (const column of synth.columns) synthByName.set(column.name, column);
  if (synthByName.size !== synth.columns.length) {
    throw new Error('The synthetic table has duplicate column names.');
  }
  const realOnly: string[] = [];
  const pairs: AlignedColumnPair[] = [];
  for (const realColumn of real.columns) {
    const synthColumn = synthByName.get(realColumn.name);
    if (synthColumn === undefined) {
      realOnly.push(realColumn.name);
      continue;
    }
    if (synthColumn.kind !== realColumn.kind) {
      throw new Error(
        `Column "${realColumn.name}" is ${realColumn.kind} in the real table but ${synthColumn.kind} in the synthetic table.`,
      );
    }
    pairs.push({ name: realColumn.name, kind: realColumn.kind, real: realColumn, synth: synthColumn });
  }
  const realNames = new Set(real.columns.map((column) => column.name));
  const synthOnly = synth.columns.map((column) => column.name).filter((name) => !realNames.has(name));
  if (realOnly.length > 0 || synthOnly.length > 0) {
    throw new Error(
      `Real and synthetic tables have different columns: only in real [${realOnly.join(', ')}], only in synthetic [${synthOnly.join(', ')}].`,
    );
  }
  return pairs;
}

/**
 * Maps both tables' categorical codes onto one shared list of tokens, matching categories by their
 * token string (the two dictionaries may differ in order and content). Missing values get the code
 * `tokens.length`. Tokens are listed in first-seen order: real dictionary, then synthetic-only tokens.
 * O(n_r + n_s + dictionary sizes).
 */
export function alignCategoricalCodes(
  real: Column & { kind: 'categorical' },
  synth: Column & { kind: 'categorical' },
): { tokens: string[]; realCodes: Uint32Array; synthCodes: Uint32Array; missingCode: number } {
  const tokenIndex = new Map<string, number>();
  const tokens: string[] = [];
  const remap = (dictionary: string[]): Uint32Array => {
    const mapping = new Uint32Array(dictionary.length);
    for (let i = 0; i < dictionary.length; i++) {
      const token = dictionary[i]!;
      let index = tokenIndex.get(token);
      if (index === undefined) {
        index = tokens.length;
        tokenIndex.set(token, index);
        tokens.push(token);
      }
      mapping[i] = index;
    }
    return mapping;
  };
  const realMapping = remap(real.dictionary);
  const synthMapping = remap(synth.dictionary);
  const missingCode = tokens.length;
  const translate = (column: Column & { kind: 'categorical' }, mapping: Uint32Array): Uint32Array => {
    const out = new Uint32Array(column.codes.length);
    for (let i = 0; i < out.length; i++) {
      out[i] = column.missing[i] === 1 ? missingCode : mapping[column.codes[i]!]!;
    }
    return out;
  };
  return {
    tokens,
    realCodes: translate(real, realMapping),
    synthCodes: translate(synth, synthMapping),
    missingCode,
  };
}

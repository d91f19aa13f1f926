import type { ColumnSchema, FactSources, FieldSource, SchemaFact, SchemaPart } from './types';

/** The facts a column of each type can state, in display order. */
export const FACTS_OF_TYPE: Record<ColumnSchema['type'], readonly SchemaFact[]> = {
  numeric: ['type', 'bounds', 'integer', 'canBeMissing'],
  categorical: ['type', 'categories', 'canBeMissing'],
};

/** The values that make up each fact: bounds are two ends, each with its own source. */
export const PARTS_OF_FACT: Record<SchemaFact, readonly SchemaPart[]> = {
  type: ['type'],
  bounds: ['lower', 'upper'],
  integer: ['integer'],
  categories: ['categories'],
  canBeMissing: ['canBeMissing'],
};

/**
 * How much a source can be trusted as public, lowest first: a column's `source` is the lowest of its
 * parts' (so a reader that looks only at `source` never takes a value read from the data as public).
 */
const TRUST: Record<FieldSource, number> = { inferred: 0, dp: 1, declared: 2 };

/**
 * The facts `column` states: its type, plus bounds / integer flag / categories / whether it can be
 * missing when present.
 */
export function columnFacts(column: ColumnSchema): SchemaFact[] {
  const missing = column.canBeMissing !== undefined;
  if (column.type === 'numeric') {
    return FACTS_OF_TYPE.numeric.filter(
      (fact) =>
        fact === 'type' ||
        (fact === 'bounds' && column.bounds !== undefined) ||
        (fact === 'integer' && column.integer !== undefined) ||
        (fact === 'canBeMissing' && missing),
    );
  }
  return FACTS_OF_TYPE.categorical.filter(
    (fact) =>
      fact === 'type' ||
      (fact === 'categories' && column.categories !== undefined) ||
      (fact === 'canBeMissing' && missing),
  );
}

/** The parts `column` states: bounds count as two, the lower and the upper end. */
export function columnParts(column: ColumnSchema): SchemaPart[] {
  return columnFacts(column).flatMap((fact) => PARTS_OF_FACT[fact]);
}

/** Where one part of a column came from: its entry in `sources`, else the column's `source`. */
export function partSource(column: ColumnSchema, part: SchemaPart): FieldSource {
  const sources = column.sources;
  if (sources !== undefined) {
    if (part === 'lower' && sources.bounds) return sources.bounds[0];
    if (part === 'upper' && sources.bounds) return sources.bounds[1];
    if (part !== 'lower' && part !== 'upper' && sources[part] !== undefined) return sources[part]!;
  }
  return column.source;
}

/** The least trusted of some sources (`declared` when there are none). */
function lowest(sources: FieldSource[]): FieldSource {
  return sources.reduce<FieldSource>((low, s) => (TRUST[s] < TRUST[low] ? s : low), 'declared');
}

/**
 * Where one fact of a column came from: the least trusted of its parts, so bounds are declared only
 * when both ends are.
 */
export function factSource(column: ColumnSchema, fact: SchemaFact): FieldSource {
  return lowest(PARTS_OF_FACT[fact].map((part) => partSource(column, part)));
}

/** The parts of `column` that were read from the data rather than declared. */
export function inferredPartsOf(column: ColumnSchema): SchemaPart[] {
  return columnParts(column).filter((part) => partSource(column, part) === 'inferred');
}

/** The parts of `column` learned with DP (paid for in the schema's `domainBudget`). */
export function dpPartsOf(column: ColumnSchema): SchemaPart[] {
  return columnParts(column).filter((part) => partSource(column, part) === 'dp');
}

/** True when a fact may be used as public: declared, or learned with DP (the claim adds its cost). */
export function isPublicSource(source: FieldSource): boolean {
  return source !== 'inferred';
}

/**
 * `column` with the given parts marked `source`, in normal form: `source` is the least trusted
 * source of the parts it states, and `sources` lists only the parts whose source differs from it
 * (the bounds as a pair when either end differs), omitted when none do.
 */
export function withPartSources(
  column: ColumnSchema,
  parts: readonly SchemaPart[],
  source: FieldSource,
): ColumnSchema {
  const present = columnParts(column);
  const of = new Map(present.map((part) => [part, partSource(column, part)]));
  for (const part of parts) if (of.has(part)) of.set(part, source);
  return normalised(column, of);
}

/** withPartSources for whole facts: `bounds` marks both ends. */
export function withFactSources(
  column: ColumnSchema,
  facts: readonly SchemaFact[],
  source: FieldSource,
): ColumnSchema {
  return withPartSources(
    column,
    facts.flatMap((fact) => PARTS_OF_FACT[fact]),
    source,
  );
}

function normalised(column: ColumnSchema, of: Map<SchemaPart, FieldSource>): ColumnSchema {
  const columnSource = lowest([...of.values()]);
  const sources: FactSources = {};
  const lower = of.get('lower');
  const upper = of.get('upper');
  if (lower !== undefined && upper !== undefined && (lower !== columnSource || upper !== columnSource)) {
    sources.bounds = [lower, upper];
  }
  for (const part of ['type', 'integer', 'categories', 'canBeMissing'] as const) {
    const s = of.get(part);
    if (s !== undefined && s !== columnSource) sources[part] = s;
  }
  const { sources: _previous, ...rest } = column;
  return Object.keys(sources).length === 0
    ? { ...rest, source: columnSource }
    : { ...rest, source: columnSource, sources };
}

import type { ColumnSchema, DomainBudget, FactSources, FieldSource, Schema, SchemaFact } from './types';
import { columnFacts, dpPartsOf, withFactSources, withPartSources } from './schema-facts';
import { parseRational, Rational } from '../rng/rational';
import { InputError, inputErrorAt } from './errors';
import { DEFAULT_MISSING_TOKENS } from './infer';

const TOP_LEVEL_KEYS = ['version', 'columns', 'missing', 'domainBudget'];
const NUMERIC_KEYS = [
  'name',
  'type',
  'bounds',
  'integer',
  'pointMasses',
  'canBeMissing',
  'source',
  'sources',
  'declaredFields',
];
const CATEGORICAL_KEYS = [
  'name',
  'type',
  'categories',
  'other',
  'canBeMissing',
  'source',
  'sources',
  'declaredFields',
];
const SOURCES: readonly FieldSource[] = ['declared', 'dp', 'inferred'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quoteList(names: string[]): string {
  return names.map((name) => `"${name}"`).join(', ');
}

/** '"a" or "b"', '"a", "b" or "c"'. */
function orList(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)!}`;
}

/** Reads the fields of one column object; `where` is the message prefix, e.g. "s.json: column 3 (age): ". */
class ColumnReader {
  constructor(
    private readonly fileName: string,
    private readonly where: string,
    private readonly name: string | undefined,
  ) {}

  fail(problem: string): never {
    throw new InputError(this.where + problem, {
      file: this.fileName,
      ...(this.name === undefined ? {} : { column: this.name }),
    });
  }

  rejectUnknownKeys(object: Record<string, unknown>, allowed: string[], typeName: string): void {
    const unknown = Object.keys(object).filter((key) => !allowed.includes(key));
    if (unknown.length > 0) {
      this.fail(
        `unknown field ${quoteList(unknown)} for a ${typeName} column; allowed fields are ${quoteList(allowed)}.`,
      );
    }
  }

  source(value: unknown): FieldSource {
    if (value === undefined) return 'declared';
    if (SOURCES.includes(value as FieldSource)) return value as FieldSource;
    return this.fail(`"source" must be ${orList(SOURCES)}.`);
  }

  /**
   * Per-fact `sources` (FactSources): an object whose keys are facts this column states, each a
   * source, the bounds a source or a pair [lower end, upper end]. The result is in normal form
   * (withPartSources), so `{"source": "inferred", "sources": {"bounds": "declared"}}` and the same
   * with ["declared", "declared"] read alike.
   */
  withSources(column: ColumnSchema, value: unknown): ColumnSchema {
    if (value === undefined) return column;
    const present = columnFacts(column);
    const expected =
      `"sources" must be an object whose keys are facts this column states (${quoteList(present)}), each ` +
      `${orList(SOURCES)}; "bounds" may also be a pair [lower end, upper end].`;
    if (!isPlainObject(value)) this.fail(expected);
    const sources = value as Record<string, unknown>;
    let result = column;
    for (const [key, given] of Object.entries(sources)) {
      if (!present.includes(key as SchemaFact)) this.fail(expected);
      const fact = key as SchemaFact;
      if (fact === 'bounds' && Array.isArray(given)) {
        if (given.length !== 2 || !given.every((s) => SOURCES.includes(s as FieldSource)))
          this.fail(expected);
        const [lower, upper] = given as [FieldSource, FieldSource];
        result = withPartSources(withPartSources(result, ['lower'], lower), ['upper'], upper);
      } else if (SOURCES.includes(given as FieldSource)) {
        result = withFactSources(result, [fact], given as FieldSource);
      } else {
        this.fail(expected);
      }
    }
    return result;
  }

  /**
   * `declaredFields`, the older form of per-fact sources, still read: with source "inferred", a list
   * of the facts the user declared. Not together with `sources`.
   */
  withDeclaredFields(column: ColumnSchema, value: unknown, sources: unknown): ColumnSchema {
    if (value === undefined) return column;
    if (sources !== undefined) {
      this.fail(
        'give per-fact sources once: "sources" replaces the older "declaredFields"; keep only "sources".',
      );
    }
    if (column.source !== 'inferred') {
      this.fail(
        '"declaredFields" lists the declared facts of an inferred column; remove it when "source" is "declared".',
      );
    }
    const present = columnFacts(column);
    const valid =
      Array.isArray(value) &&
      value.every((fact) => typeof fact === 'string' && present.includes(fact as SchemaFact)) &&
      new Set(value).size === value.length;
    if (!valid) {
      this.fail(`"declaredFields" must list distinct facts this column states: ${quoteList(present)}.`);
    }
    return withFactSources(column, value as SchemaFact[], 'declared');
  }

  bounds(value: unknown): [number, number] | undefined {
    if (value === undefined) return undefined;
    const valid =
      Array.isArray(value) &&
      value.length === 2 &&
      value.every((end) => typeof end === 'number' && Number.isFinite(end)) &&
      (value[0] as number) < (value[1] as number);
    if (!valid) this.fail('bounds must be [lower, upper] with lower < upper (two finite numbers).');
    return [value[0] as number, value[1] as number];
  }

  /**
   * `pointMasses`: distinct finite numbers, each inside the bounds (the column needs bounds) and
   * whole in an integer column; written back ascending. Absent in older files: none.
   */
  pointMasses(
    value: unknown,
    bounds: [number, number] | undefined,
    integer: boolean | undefined,
  ): { pointMasses?: number[] } {
    if (value === undefined) return {};
    const numbers =
      Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isFinite(v))
        ? (value as number[])
        : this.fail('"pointMasses" must be a list of numbers, e.g. [0].');
    if (new Set(numbers).size !== numbers.length)
      this.fail('"pointMasses" lists a value twice; list each once.');
    if (bounds === undefined)
      this.fail('"pointMasses" needs the column\'s "bounds": each point mass lies inside them.');
    const outside = numbers.find((v) => v < bounds[0] || v > bounds[1]);
    if (outside !== undefined) {
      this.fail(
        `point mass ${outside} lies outside the bounds [${bounds[0]}, ${bounds[1]}]; move it inside or drop it.`,
      );
    }
    const fractional = integer === true ? numbers.find((v) => !Number.isInteger(v)) : undefined;
    if (fractional !== undefined) {
      this.fail(
        `point mass ${fractional} is not a whole number, but the column holds whole numbers ("integer": true).`,
      );
    }
    return { pointMasses: [...numbers].sort((a, b) => a - b) };
  }

  integer(value: unknown): boolean | undefined {
    if (value === undefined || typeof value === 'boolean') return value;
    return this.fail('"integer" must be true or false.');
  }

  /** `canBeMissing`: absent in older files, which keep a missing level for every column. */
  canBeMissing(value: unknown): { canBeMissing?: boolean } {
    if (value === undefined) return {};
    if (typeof value === 'boolean') return { canBeMissing: value };
    return this.fail(
      '"canBeMissing" must be true (the column may hold missing values) or false (it never does).',
    );
  }

  categories(value: unknown, missingTokens: ReadonlySet<string>): string[] | undefined {
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((category) => typeof category === 'string')) {
      return this.fail('"categories" must be a list of strings.');
    }
    const seen = new Set<string>();
    for (const category of value as string[]) {
      if (seen.has(category)) this.fail(`category "${category}" is listed twice; list each category once.`);
      if (missingTokens.has(category)) {
        this.fail(
          `category "${category}" is also a missing-value token; remove it from "categories" or from "missing".`,
        );
      }
      seen.add(category);
    }
    return [...(value as string[])];
  }

  /** `other`: one of the column's categories, the level that takes values outside the list. */
  other(value: unknown, categories: string[] | undefined): string | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || categories === undefined || !categories.includes(value)) {
      this.fail(
        '"other" must be one of the column\'s "categories": the level that takes every value outside the list.',
      );
    }
    return value;
  }
}

function readMissingTokens(value: unknown, fileName: string): string[] {
  if (value === undefined) return [...DEFAULT_MISSING_TOKENS];
  if (!Array.isArray(value) || !value.every((token) => typeof token === 'string')) {
    throw inputErrorAt(
      { file: fileName },
      '"missing" must be a list of strings (the tokens read as missing).',
    );
  }
  return [...(value as string[])];
}

function readColumn(
  value: unknown,
  index: number,
  fileName: string,
  missingTokens: ReadonlySet<string>,
): ColumnSchema {
  const prefix = `${fileName}: column ${index + 1}`;
  if (!isPlainObject(value)) {
    throw inputErrorAt({ file: fileName }, `column ${index + 1} must be an object with "name" and "type".`);
  }
  if (typeof value.name !== 'string' || value.name === '') {
    throw inputErrorAt({ file: fileName }, `column ${index + 1} needs a non-empty "name".`);
  }
  const name = value.name;
  const reader = new ColumnReader(fileName, `${prefix} (${name}): `, name);
  if (value.type === 'numeric') {
    reader.rejectUnknownKeys(value, NUMERIC_KEYS, 'numeric');
    const bounds = reader.bounds(value.bounds);
    const integer = reader.integer(value.integer);
    const column: ColumnSchema = {
      name,
      type: 'numeric',
      ...(bounds === undefined ? {} : { bounds }),
      ...(integer === undefined ? {} : { integer }),
      ...reader.pointMasses(value.pointMasses, bounds, integer),
      ...reader.canBeMissing(value.canBeMissing),
      source: reader.source(value.source),
    };
    return reader.withSources(
      reader.withDeclaredFields(column, value.declaredFields, value.sources),
      value.sources,
    );
  }
  if (value.type === 'categorical') {
    reader.rejectUnknownKeys(value, CATEGORICAL_KEYS, 'categorical');
    const categories = reader.categories(value.categories, missingTokens);
    const other = reader.other(value.other, categories);
    const column: ColumnSchema = {
      name,
      type: 'categorical',
      ...(categories === undefined ? {} : { categories }),
      ...(other === undefined ? {} : { other }),
      ...reader.canBeMissing(value.canBeMissing),
      source: reader.source(value.source),
    };
    return reader.withSources(
      reader.withDeclaredFields(column, value.declaredFields, value.sources),
      value.sources,
    );
  }
  return reader.fail('"type" must be "numeric" or "categorical".');
}

const DOMAIN_BUDGET_SHAPE =
  '"domainBudget" must be an object with "epsilon" and "delta" (decimal strings), "learnedAt" (a time) ' +
  'and "steps", a list of objects with "fact" ("column.part"), "what", "epsilon" and "delta"; ' +
  'dpsynth writes it when it learns facts with DP: restore it rather than edit it.';

function readPrivacyValue(value: unknown, fileName: string): Rational {
  if (typeof value !== 'string') throw inputErrorAt({ file: fileName }, DOMAIN_BUDGET_SHAPE);
  let parsed: Rational;
  try {
    parsed = parseRational(value);
  } catch {
    throw inputErrorAt({ file: fileName }, DOMAIN_BUDGET_SHAPE);
  }
  if (parsed.isNegative()) {
    throw inputErrorAt({ file: fileName }, DOMAIN_BUDGET_SHAPE);
  }
  return parsed;
}

/**
 * `domainBudget`: the DP steps that learned the schema's `dp` facts and their sums, which must
 * equal the sums of the steps exactly (a budget that does not add up is refused, never trusted).
 */
function readDomainBudget(value: unknown, fileName: string): DomainBudget | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value) || !Array.isArray(value.steps) || typeof value.learnedAt !== 'string') {
    throw inputErrorAt({ file: fileName }, DOMAIN_BUDGET_SHAPE);
  }
  const unknown = Object.keys(value).filter(
    (key) => !['epsilon', 'delta', 'learnedAt', 'seeded', 'steps'].includes(key),
  );
  if (unknown.length > 0 || (value.seeded !== undefined && value.seeded !== true)) {
    throw inputErrorAt({ file: fileName }, DOMAIN_BUDGET_SHAPE);
  }
  let epsilonSum = Rational.ZERO;
  let deltaSum = Rational.ZERO;
  const steps = value.steps.map((step: unknown) => {
    if (
      !isPlainObject(step) ||
      typeof step.fact !== 'string' ||
      typeof step.what !== 'string' ||
      Object.keys(step).some((key) => !['fact', 'what', 'epsilon', 'delta'].includes(key))
    ) {
      throw inputErrorAt({ file: fileName }, DOMAIN_BUDGET_SHAPE);
    }
    epsilonSum = epsilonSum.add(readPrivacyValue(step.epsilon, fileName));
    deltaSum = deltaSum.add(readPrivacyValue(step.delta, fileName));
    return { fact: step.fact, what: step.what, epsilon: step.epsilon as string, delta: step.delta as string };
  });
  const epsilon = readPrivacyValue(value.epsilon, fileName);
  const delta = readPrivacyValue(value.delta, fileName);
  if (epsilon.compare(epsilonSum) !== 0 || delta.compare(deltaSum) !== 0) {
    throw inputErrorAt(
      { file: fileName },
      '"domainBudget": "epsilon" and "delta" must be the sums of the steps\' ε and δ; restore the file ' +
        'as dpsynth wrote it rather than edit it.',
    );
  }
  return {
    epsilon: value.epsilon as string,
    delta: value.delta as string,
    learnedAt: value.learnedAt,
    ...(value.seeded === true ? { seeded: true as const } : {}),
    steps,
  };
}

/** Every `dp` fact needs a step of the domain budget that produced it. */
function checkDpFactsHaveSteps(columns: ColumnSchema[], budget: DomainBudget | undefined, fileName: string) {
  const facts = new Set(budget?.steps.map((step) => step.fact) ?? []);
  for (const column of columns) {
    for (const part of dpPartsOf(column)) {
      const path = `${column.name}.${part}`;
      if (!facts.has(path)) {
        throw new InputError(
          `${fileName}: column \`${column.name}\`: its ${part} is marked "dp" but "domainBudget" has no step ` +
            `for "${path}"; a DP fact needs the record of what learning it spent (declare it instead if it ` +
            'is public knowledge).',
          { file: fileName, column: column.name },
        );
      }
    }
  }
}

/**
 * Parses and validates schema JSON exactly as DESIGN.md §2 lays it out: `version` must be 1; `columns`
 * a non-empty list of objects with a unique non-empty `name` and `type` numeric|categorical; numeric
 * columns may have `bounds` [lower, upper] with lower < upper and `integer`; categorical columns may
 * have `categories` (unique strings, none of them a missing token); any column may have
 * `canBeMissing` (false: complete, no missing level; absent: a missing level as before); unknown fields are rejected so a
 * misspelt field cannot be silently ignored. `source` defaults to "declared" when absent (a schema
 * written by hand states public knowledge); `sources` gives per-fact sources where they differ (the
 * bounds per end, e.g. {"bounds": ["declared", "inferred"]}); the older `declaredFields` (the facts
 * an "inferred" column declares) is still read; `missing` defaults to DEFAULT_MISSING_TOKENS.
 * Throws InputError with the file and the column ("s.json: column 3 (age): bounds must be …").
 */
export function parseSchemaJson(text: string, fileName = 'schema'): Schema {
  let document: unknown;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    document = JSON.parse(body);
  } catch (error) {
    throw jsonSyntaxError(fileName, body, (error as Error).message);
  }
  if (!isPlainObject(document)) {
    throw inputErrorAt(
      { file: fileName },
      'a schema must be a JSON object with "version", "columns" and "missing".',
    );
  }
  const unknown = Object.keys(document).filter((key) => !TOP_LEVEL_KEYS.includes(key));
  if (unknown.length > 0) {
    throw inputErrorAt(
      { file: fileName },
      `unknown field ${quoteList(unknown)}; a schema has only ${quoteList(TOP_LEVEL_KEYS)}.`,
    );
  }
  if (document.version !== 1) {
    throw inputErrorAt(
      { file: fileName },
      '"version" must be 1 (the only schema version this dpsynth reads).',
    );
  }
  if (!Array.isArray(document.columns) || document.columns.length === 0) {
    throw inputErrorAt({ file: fileName }, '"columns" must be a non-empty list of column objects.');
  }
  const missing = readMissingTokens(document.missing, fileName);
  const missingSet = new Set(missing);
  const columns = document.columns.map((column, index) => readColumn(column, index, fileName, missingSet));
  const firstIndexByName = new Map<string, number>();
  columns.forEach((column, index) => {
    const earlier = firstIndexByName.get(column.name);
    if (earlier !== undefined) {
      throw new InputError(
        `${fileName}: columns ${earlier + 1} and ${index + 1} are both named \`${column.name}\`; names must be unique.`,
        { file: fileName, column: column.name },
      );
    }
    firstIndexByName.set(column.name, index);
  });
  const domainBudget = readDomainBudget(document.domainBudget, fileName);
  checkDpFactsHaveSteps(columns, domainBudget, fileName);
  return domainBudget === undefined
    ? { version: 1, columns, missing }
    : { version: 1, columns, missing, domainBudget };
}

/** One column as a single JSON line with keys in a fixed order. */
function columnToJsonLine(column: ColumnSchema): string {
  const ordered: Record<string, unknown> = { name: column.name, type: column.type };
  if (column.type === 'numeric') {
    if (column.bounds !== undefined) ordered.bounds = column.bounds;
    if (column.integer !== undefined) ordered.integer = column.integer;
    if (column.pointMasses !== undefined) ordered.pointMasses = column.pointMasses;
  } else if (column.categories !== undefined) {
    ordered.categories = column.categories;
    if (column.other !== undefined) ordered.other = column.other;
  }
  if (column.canBeMissing !== undefined) ordered.canBeMissing = column.canBeMissing;
  ordered.source = column.source;
  if (column.sources !== undefined) ordered.sources = sourcesInOrder(column.sources);
  const fields = Object.entries(ordered).map(
    ([key, value]) => `${JSON.stringify(key)}: ${compactJson(value)}`,
  );
  return `{ ${fields.join(', ')} }`;
}

function sourcesInOrder(sources: FactSources): FactSources {
  const ordered: FactSources = {};
  if (sources.type !== undefined) ordered.type = sources.type;
  if (sources.bounds !== undefined) ordered.bounds = sources.bounds;
  if (sources.integer !== undefined) ordered.integer = sources.integer;
  if (sources.categories !== undefined) ordered.categories = sources.categories;
  if (sources.canBeMissing !== undefined) ordered.canBeMissing = sources.canBeMissing;
  return ordered;
}

function compactJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
  if (isPlainObject(value)) {
    const fields = Object.entries(value).map(
      ([key, inner]) => `${JSON.stringify(key)}: ${compactJson(inner)}`,
    );
    return `{ ${fields.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/**
 * Writes a schema as the JSON of DESIGN.md §2: keys in a stable order (version, columns, missing; per
 * column name, type, bounds, integer, categories, canBeMissing, source, sources), one line per column so diffs
 * stay readable.
 * parseSchemaJson(schemaToJson(s)) equals s for every valid schema.
 */
export function schemaToJson(schema: Schema): string {
  const columnLines = schema.columns.map((column) => `    ${columnToJsonLine(column)}`);
  const budget = schema.domainBudget;
  const budgetLines =
    budget === undefined
      ? []
      : [
          '  "domainBudget": {',
          `    "epsilon": ${JSON.stringify(budget.epsilon)}, "delta": ${JSON.stringify(budget.delta)}, ` +
            `"learnedAt": ${JSON.stringify(budget.learnedAt)},${budget.seeded ? ' "seeded": true,' : ''}`,
          '    "steps": [',
          budget.steps
            .map(
              (step) =>
                `      { "fact": ${JSON.stringify(step.fact)}, "what": ${JSON.stringify(step.what)}, ` +
                `"epsilon": ${JSON.stringify(step.epsilon)}, "delta": ${JSON.stringify(step.delta)} }`,
            )
            .join(',\n'),
          '    ]',
          '  }',
        ];
  return [
    '{',
    `  "version": ${schema.version},`,
    '  "columns": [',
    columnLines.join(',\n'),
    '  ],',
    `  "missing": ${compactJson(schema.missing)}${budget === undefined ? '' : ','}`,
    ...budgetLines,
    '}',
    '',
  ].join('\n');
}

/**
 * Throws InputError unless the CSV header holds exactly the schema's columns (in any order): names the
 * schema declares but the file lacks, and columns of the file the schema does not declare.
 */
export function checkSchemaMatchesHeader(schema: Schema, header: string[], fileName: string): void {
  const headerNames = new Set(header);
  const schemaNames = new Set(schema.columns.map((column) => column.name));
  const lacking = schema.columns.map((column) => column.name).filter((name) => !headerNames.has(name));
  const extra = header.filter((name) => !schemaNames.has(name));
  if (lacking.length === 0 && extra.length === 0) return;
  const sentences: string[] = [];
  if (lacking.length > 0) {
    const names = lacking.map((name) => `\`${name}\``).join(', ');
    sentences.push(
      `The schema declares ${lacking.length === 1 ? 'column' : 'columns'} ${names}, which ${fileName} lacks.`,
    );
  }
  if (extra.length > 0) {
    const names = extra.map((name) => `\`${name}\``).join(', ');
    sentences.push(
      `${fileName} has ${extra.length === 1 ? 'column' : 'columns'} ${names}, which the schema does not declare.`,
    );
  }
  sentences.push('Make the schema and the file name the same columns.');
  throw new InputError(sentences.join(' '), { file: fileName, column: lacking[0] ?? extra[0]! });
}

/**
 * The JSON parser's message with its character position turned into a line and column, so the
 * message points where an editor does: "s.json, line 3, column 3: is not valid JSON (Expected …)".
 */
function jsonSyntaxError(fileName: string, body: string, message: string): InputError {
  const position = /at position (\d+)/.exec(message);
  if (position === null) return inputErrorAt({ file: fileName }, `is not valid JSON (${message}).`);
  const offset = Math.min(Number(position[1]), body.length);
  const before = body.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const reason = message
    .replace(/\s*in JSON at position \d+.*$/, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '');
  return new InputError(`${fileName}, line ${line}, column ${column}: is not valid JSON (${reason}).`, {
    file: fileName,
    line,
  });
}

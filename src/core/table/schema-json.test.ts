import { describe, expect, it } from 'vitest';
import { InputError } from './errors';
import { DEFAULT_MISSING_TOKENS } from './infer';
import { checkSchemaMatchesHeader, parseSchemaJson, schemaToJson } from './schema-json';
import type { Schema } from './types';

const designExample = `{ "version": 1,
  "columns": [
    { "name": "age", "type": "numeric", "bounds": [17, 90], "integer": true, "source": "declared" },
    { "name": "sex", "type": "categorical", "categories": ["F", "M"], "source": "inferred" } ],
  "missing": ["", "NA", "NaN", "null"] }`;

function schemaWithColumns(columns: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ version: 1, columns, ...extra });
}

describe('parseSchemaJson', () => {
  it('reads the example of DESIGN.md §2', () => {
    expect(parseSchemaJson(designExample, 's.json')).toEqual({
      version: 1,
      columns: [
        { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'declared' },
        { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'inferred' },
      ],
      missing: ['', 'NA', 'NaN', 'null'],
    });
  });

  it('defaults source to "declared" and missing to the default tokens', () => {
    const schema = parseSchemaJson(schemaWithColumns([{ name: 'g', type: 'categorical' }]));
    expect(schema).toEqual({
      version: 1,
      columns: [{ name: 'g', type: 'categorical', source: 'declared' }],
      missing: [...DEFAULT_MISSING_TOKENS],
    });
  });

  it.each<[string, string]>([
    ['{', 's.json, line 1, column 2: is not valid JSON'],
    // The parser names the "x": line 3, column 3, as an editor counts them.
    [
      '{\n "version": 1,\n  x}',
      's.json, line 3, column 3: is not valid JSON (Expected double-quoted property name)',
    ],
    ['[]', 's.json: a schema must be a JSON object'],
    [
      JSON.stringify({ version: 2, columns: [{ name: 'a', type: 'numeric' }] }),
      's.json: "version" must be 1',
    ],
    [JSON.stringify({ version: 1, columns: [] }), 's.json: "columns" must be a non-empty list'],
    [
      schemaWithColumns([{ name: 'a', type: 'numeric' }], { extra: 1 }),
      's.json: unknown field "extra"; a schema has only',
    ],
    [
      schemaWithColumns([{ name: 'a', type: 'numeric' }], { missing: 'NA' }),
      's.json: "missing" must be a list of strings',
    ],
    [schemaWithColumns([{ type: 'numeric' }]), 's.json: column 1 needs a non-empty "name".'],
    [
      schemaWithColumns([{ name: 'a', type: 'text' }]),
      's.json: column 1 (a): "type" must be "numeric" or "categorical".',
    ],
    [
      schemaWithColumns([
        { name: 'x', type: 'numeric' },
        { name: 'y', type: 'numeric' },
        { name: 'age', type: 'numeric', bounds: [90, 17] },
      ]),
      's.json: column 3 (age): bounds must be [lower, upper] with lower < upper (two finite numbers).',
    ],
    [
      schemaWithColumns([{ name: 'age', type: 'numeric', bounds: [5, 5] }]),
      's.json: column 1 (age): bounds must be',
    ],
    [
      schemaWithColumns([{ name: 'age', type: 'numeric', bounds: [0] }]),
      's.json: column 1 (age): bounds must be',
    ],
    [
      schemaWithColumns([{ name: 'age', type: 'numeric', bounds: ['0', 9] }]),
      's.json: column 1 (age): bounds must be',
    ],
    [
      schemaWithColumns([{ name: 'age', type: 'numeric', integer: 'yes' }]),
      's.json: column 1 (age): "integer" must be true or false.',
    ],
    [
      schemaWithColumns([{ name: 'a', type: 'numeric', source: 'guessed' }]),
      's.json: column 1 (a): "source" must be "declared", "dp" or "inferred".',
    ],
    [
      schemaWithColumns([{ name: 'a', type: 'numeric', categories: ['x'] }]),
      's.json: column 1 (a): unknown field "categories" for a numeric column; allowed fields are "name", "type", "bounds", "integer", "pointMasses", "canBeMissing", "source", "sources", "declaredFields".',
    ],
    [
      schemaWithColumns([{ name: 'a', type: 'numeric', bounds: [0, 1], declaredFields: ['bounds'] }]),
      's.json: column 1 (a): "declaredFields" lists the declared facts of an inferred column; remove it when "source" is "declared".',
    ],
    [
      schemaWithColumns([{ name: 'a', type: 'numeric', source: 'inferred', declaredFields: ['bounds'] }]),
      's.json: column 1 (a): "declaredFields" must list distinct facts this column states: "type".',
    ],
    [
      schemaWithColumns([
        { name: 'a', type: 'numeric', source: 'inferred', sources: { bounds: 'declared' } },
      ]),
      's.json: column 1 (a): "sources" must be an object whose keys are facts this column states ("type"), each "declared", "dp" or "inferred"; "bounds" may also be a pair [lower end, upper end].',
    ],
    [
      schemaWithColumns([
        { name: 'a', type: 'numeric', bounds: [0, 1], source: 'inferred', sources: { bounds: ['declared'] } },
      ]),
      's.json: column 1 (a): "sources" must be an object',
    ],
    [
      schemaWithColumns([
        { name: 'a', type: 'numeric', bounds: [0, 1], source: 'inferred', sources: { integer: 'guessed' } },
      ]),
      's.json: column 1 (a): "sources" must be an object',
    ],
    [
      schemaWithColumns([
        {
          name: 'a',
          type: 'numeric',
          bounds: [0, 1],
          source: 'inferred',
          declaredFields: ['bounds'],
          sources: { bounds: 'declared' },
        },
      ]),
      's.json: column 1 (a): give per-fact sources once',
    ],
    [
      schemaWithColumns([{ name: 'g', type: 'categorical', bounds: [0, 1] }]),
      's.json: column 1 (g): unknown field "bounds"',
    ],
    [
      schemaWithColumns([{ name: 'g', type: 'categorical', categories: ['a', 1] }]),
      's.json: column 1 (g): "categories" must be a list of strings.',
    ],
    [
      schemaWithColumns([{ name: 'g', type: 'categorical', categories: ['a', 'a'] }]),
      's.json: column 1 (g): category "a" is listed twice; list each category once.',
    ],
    [
      schemaWithColumns([{ name: 'g', type: 'categorical', categories: ['a', 'NA'] }]),
      's.json: column 1 (g): category "NA" is also a missing-value token; remove it from "categories" or from "missing".',
    ],
    [
      schemaWithColumns([
        { name: 'a', type: 'numeric' },
        { name: 'a', type: 'categorical' },
      ]),
      's.json: columns 1 and 2 are both named `a`; names must be unique.',
    ],
    [
      schemaWithColumns([{ name: 'g', type: 'categorical', categories: ['a'], other: 'b' }]),
      's.json: column 1 (g): "other" must be one of the column\'s "categories"',
    ],
    [
      schemaWithColumns([{ name: 'a', type: 'numeric', bounds: [0, 1], source: 'dp' }]),
      's.json: column `a`: its type is marked "dp" but "domainBudget" has no step for "a.type"',
    ],
    [
      JSON.stringify({
        version: 1,
        columns: [{ name: 'a', type: 'numeric', source: 'dp' }],
        domainBudget: {
          epsilon: '0.1',
          delta: '0',
          learnedAt: 't',
          steps: [{ fact: 'a.type', what: 'type', epsilon: '0.05', delta: '0' }],
        },
      }),
      's.json: "domainBudget": "epsilon" and "delta" must be the sums of the steps',
    ],
    [
      JSON.stringify({ version: 1, columns: [{ name: 'a', type: 'numeric' }], domainBudget: { epsilon: 1 } }),
      's.json: "domainBudget" must be an object with "epsilon" and "delta"',
    ],
  ])('rejects %s', (text, messageStart) => {
    let caught: unknown;
    try {
      parseSchemaJson(text, 's.json');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect((caught as InputError).message.startsWith(messageStart), (caught as InputError).message).toBe(
      true,
    );
    expect((caught as InputError).file).toBe('s.json');
  });

  it('reads a schema learned with DP: "dp" facts, the other level and the domain budget, and writes it back', () => {
    const text = JSON.stringify({
      version: 1,
      columns: [
        {
          name: 'age',
          type: 'numeric',
          bounds: [15, 100],
          integer: true,
          source: 'dp',
          sources: { bounds: ['declared', 'dp'] },
        },
        { name: 'g', type: 'categorical', categories: ['a', '(other)'], other: '(other)', source: 'dp' },
      ],
      domainBudget: {
        epsilon: '0.3',
        delta: '0.000001',
        learnedAt: '2026-01-01T00:00:00Z',
        seeded: true,
        steps: ['age.type', 'age.upper', 'age.integer', 'g.type', 'g.categories'].map((fact, i) => ({
          fact,
          what: fact,
          epsilon: i === 4 ? '0.1' : '0.05',
          delta: i === 3 ? '0.000001' : '0',
        })),
      },
    });
    const schema = parseSchemaJson(text, 's.json');
    expect(schema.columns[0]).toMatchObject({ source: 'dp', sources: { bounds: ['declared', 'dp'] } });
    expect(schema.columns[1]).toMatchObject({ other: '(other)', source: 'dp' });
    expect(schema.domainBudget).toMatchObject({ epsilon: '0.3', delta: '0.000001', seeded: true });
    expect(parseSchemaJson(schemaToJson(schema), 's.json')).toEqual(schema);
  });

  it('reads a partly declared column, and an inferred column with every fact listed as declared', () => {
    const parsed = parseSchemaJson(
      schemaWithColumns([
        {
          name: 'a',
          type: 'numeric',
          bounds: [0, 1],
          integer: false,
          source: 'inferred',
          declaredFields: ['bounds'],
        },
        {
          name: 'g',
          type: 'categorical',
          categories: ['x'],
          source: 'inferred',
          declaredFields: ['categories', 'type'],
        },
      ]),
      's.json',
    );
    // Files written before per-fact sources still load, into the same meaning.
    expect(parsed.columns[0]).toEqual({
      name: 'a',
      type: 'numeric',
      bounds: [0, 1],
      integer: false,
      source: 'inferred',
      sources: { bounds: ['declared', 'declared'] },
    });
    expect(parsed.columns[1]).toEqual({
      name: 'g',
      type: 'categorical',
      categories: ['x'],
      source: 'declared',
    });
    expect(parseSchemaJson(schemaToJson(parsed), 's.json')).toEqual(parsed);
  });

  it('reads and writes per-end sources of the bounds and keeps them through a round trip', () => {
    const parsed = parseSchemaJson(
      schemaWithColumns([
        {
          name: 'income',
          type: 'numeric',
          bounds: [0, 250000],
          source: 'inferred',
          sources: { type: 'declared', bounds: ['declared', 'inferred'] },
        },
        // Sources that all agree collapse into the column's source.
        {
          name: 'b',
          type: 'numeric',
          bounds: [1, 2],
          source: 'inferred',
          sources: { type: 'declared', bounds: 'declared' },
        },
      ]),
      's.json',
    );
    expect(parsed.columns[0]).toEqual({
      name: 'income',
      type: 'numeric',
      bounds: [0, 250000],
      source: 'inferred',
      sources: { type: 'declared', bounds: ['declared', 'inferred'] },
    });
    expect(parsed.columns[1]).toEqual({ name: 'b', type: 'numeric', bounds: [1, 2], source: 'declared' });
    const written = schemaToJson(parsed);
    expect(written).toContain(
      '{ "name": "income", "type": "numeric", "bounds": [0, 250000], "source": "inferred", "sources": { "type": "declared", "bounds": ["declared", "inferred"] } }',
    );
    expect(parseSchemaJson(written, 's.json')).toEqual(parsed);
  });

  it('names the column in the error for the studio to highlight it', () => {
    try {
      parseSchemaJson(schemaWithColumns([{ name: 'age', type: 'numeric', bounds: [3, 1] }]), 's.json');
      expect.unreachable();
    } catch (error) {
      expect((error as InputError).column).toBe('age');
    }
  });

  it('accepts a category that is a missing token once the token is removed from "missing"', () => {
    const text = schemaWithColumns([{ name: 'g', type: 'categorical', categories: ['NA', 'b'] }], {
      missing: [''],
    });
    expect(parseSchemaJson(text).columns[0]).toMatchObject({ categories: ['NA', 'b'] });
  });
});

describe('schemaToJson', () => {
  const schema: Schema = {
    version: 1,
    columns: [
      { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'declared' },
      { name: 'w', type: 'numeric', source: 'inferred' },
      { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'inferred' },
      { name: 'g "q"', type: 'categorical', source: 'declared' },
    ],
    missing: ['', 'NA'],
  };

  it('writes one line per column with keys in a stable order', () => {
    expect(schemaToJson(schema)).toBe(
      [
        '{',
        '  "version": 1,',
        '  "columns": [',
        '    { "name": "age", "type": "numeric", "bounds": [17, 90], "integer": true, "source": "declared" },',
        '    { "name": "w", "type": "numeric", "source": "inferred" },',
        '    { "name": "sex", "type": "categorical", "categories": ["F", "M"], "source": "inferred" },',
        '    { "name": "g \\"q\\"", "type": "categorical", "source": "declared" }',
        '  ],',
        '  "missing": ["", "NA"]',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('round-trips through parseSchemaJson, key order included', () => {
    const again = parseSchemaJson(schemaToJson(schema));
    expect(again).toEqual(schema);
    expect(JSON.stringify(again)).toBe(JSON.stringify(schema));
  });
});

describe('checkSchemaMatchesHeader', () => {
  const schema = parseSchemaJson(
    schemaWithColumns([
      { name: 'age', type: 'numeric' },
      { name: 'income', type: 'numeric' },
    ]),
  );

  it('accepts the same names in any order', () => {
    expect(() => checkSchemaMatchesHeader(schema, ['income', 'age'], 'data.csv')).not.toThrow();
  });

  it('names a declared column the file lacks', () => {
    expect(() => checkSchemaMatchesHeader(schema, ['age'], 'data.csv')).toThrow(
      'The schema declares column `income`, which data.csv lacks. Make the schema and the file name the same columns.',
    );
  });

  it('names file columns the schema does not declare', () => {
    expect(() => checkSchemaMatchesHeader(schema, ['age', 'income', 'zip', 'id'], 'data.csv')).toThrow(
      'data.csv has columns `zip`, `id`, which the schema does not declare.',
    );
  });
});

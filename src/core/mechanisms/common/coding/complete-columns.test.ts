import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../../rng/seeded-rng';
import { learnDomain } from '../../../domain/learn-domain';
import { parseCsv } from '../../../table/csv-read';
import { InputError } from '../../../table/errors';
import { inferSchema } from '../../../table/infer';
import { parseSchemaJson, schemaToJson } from '../../../table/schema-json';
import type { Schema } from '../../../table/types';
import { getMechanism } from '../../registry';
import { binningChoiceFromParams } from './binning-params';
import { missingLevelOf, planColumnCodings, valueLevelsOf } from './column-coding';
import { syntheticColumnFromLevels } from './decode-rows';
import { levelsOfColumn } from './encode-rows';
import { categoricalColumn, numericColumn } from '../testing/fixtures';

const SCHEMA: Schema = {
  version: 1,
  missing: [''],
  columns: [
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], canBeMissing: false, source: 'declared' },
    { name: 'age', type: 'numeric', bounds: [0, 9], integer: true, canBeMissing: false, source: 'declared' },
    { name: 'pay', type: 'numeric', bounds: [0, 1], source: 'declared' },
  ],
};

const codings = () => planColumnCodings(SCHEMA, binningChoiceFromParams({ bins: 4 }), 100).codings;

describe('columns that cannot be missing', () => {
  it('get no missing level; a column without the fact keeps one', () => {
    const [sex, age, pay] = codings();
    expect(sex).toMatchObject({ levels: 2, complete: true });
    expect(missingLevelOf(sex!)).toBeUndefined();
    expect(valueLevelsOf(age!)).toBe(age!.levels);
    expect(pay!.complete).toBeUndefined();
    expect(missingLevelOf(pay!)).toBe(pay!.levels - 1);
  });

  it('round-trip levels: every level decodes to a present value that encodes back to it', () => {
    const rng = new SeededRng('complete-round-trip');
    for (const coding of codings()) {
      const levels = Uint32Array.from({ length: valueLevelsOf(coding) }, (_, level) => level);
      const column = syntheticColumnFromLevels(rng, levels, coding);
      expect(Array.from(column.missing)).toEqual(new Array(levels.length).fill(0));
      expect(Array.from(levelsOfColumn(column, coding))).toEqual(Array.from(levels));
    }
  });

  it('never yield a missing value, whatever the levels drawn', () => {
    const rng = new SeededRng('complete-never-missing');
    const [sex, age] = codings();
    for (const coding of [sex!, age!]) {
      const levels = Uint32Array.from({ length: 500 }, (_, i) => i % coding.levels);
      const column = syntheticColumnFromLevels(rng, levels, coding);
      expect(column.missing.every((flag) => flag === 0)).toBe(true);
    }
  });

  it('refuse a missing value at encoding with an error naming the column', () => {
    const [sex, age] = codings();
    expect(() => levelsOfColumn(categoricalColumn('sex', ['F', null]), sex!)).toThrow(InputError);
    expect(() => levelsOfColumn(numericColumn('age', [3, null]), age!)).toThrow(/column `age` has missing/);
    expect(Array.from(levelsOfColumn(numericColumn('age', [3, 9]), age!))).toEqual([1, 3]);
  });

  it('make a run refuse the table before any draw, naming the column and the way out', async () => {
    const mechanism = getMechanism('laplace-histogram')!;
    const table = {
      nRows: 3,
      columns: [
        categoricalColumn('sex', ['F', 'M', 'F']),
        numericColumn('age', [1, null, 4]),
        numericColumn('pay', [0.5, 0.2, null]),
      ],
    };
    const ctx = {
      n: 3,
      schema: SCHEMA,
      epsilon: 1,
      delta: 0,
      releases: 1,
      seeded: true,
      rng: new SeededRng('complete-run'),
      progress: () => {},
    };
    const run = mechanism.run(table, SCHEMA, {}, ctx as never);
    await expect(run).rejects.toThrow(InputError);
    await expect(mechanism.run(table, SCHEMA, {}, ctx as never)).rejects.toThrow(
      /column `age` \(1 row\) cannot be missing.*"canBeMissing": true/,
    );
  });

  it('read and write `canBeMissing`; older files without it keep a missing level for every column', () => {
    const written = schemaToJson(SCHEMA);
    expect(written).toContain('"canBeMissing": false');
    expect(parseSchemaJson(written)).toEqual(SCHEMA);
    const older = parseSchemaJson(
      '{"version":1,"columns":[{"name":"a","type":"categorical","categories":["x"]}]}',
    );
    expect(older.columns[0]!.canBeMissing).toBeUndefined();
    expect(planColumnCodings(older, binningChoiceFromParams({}), 10).codings[0]!.levels).toBe(2);
    expect(() =>
      parseSchemaJson(
        '{"version":1,"columns":[{"name":"a","type":"numeric","canBeMissing":"no"}]}',
        's.json',
      ),
    ).toThrow('"canBeMissing" must be true');
  });

  it('are not learned with DP: an inferred flag is dropped by the learning, a declared one kept', () => {
    const raw = parseCsv(
      'a,b\n' + Array.from({ length: 200 }, (_, i) => `${i % 7},${i % 2 === 0 ? 'x' : 'y'}`).join('\n'),
    );
    const inferred = inferSchema(raw);
    expect(inferred.columns.map((column) => column.canBeMissing)).toEqual([false, false]);
    const declared = {
      ...inferred,
      columns: [
        inferred.columns[0]!,
        { ...inferred.columns[1]!, sources: { canBeMissing: 'declared' as const } },
      ],
    };
    const { schema } = learnDomain(
      raw,
      declared,
      { epsilon: '4', delta: '1e-6', learnedAt: '2026-01-01T00:00:00Z', force: true },
      new SeededRng('learn-complete'),
    );
    expect(schema.columns[0]!.canBeMissing).toBeUndefined();
    expect(schema.columns[0]!.source).toBe('dp');
    expect(schema.columns[1]).toMatchObject({ canBeMissing: false, sources: { canBeMissing: 'declared' } });
  });
});

import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv-read';
import { InputError } from './errors';
import { DEFAULT_MISSING_TOKENS, inferSchema } from './infer';

describe('inferSchema', () => {
  it('types numeric, integer and categorical columns with bounds from the data', () => {
    const raw = parseCsv('age,income,sex\n30,1.5,F\n41,,M\n17,2e3,F\n');
    expect(inferSchema(raw)).toEqual({
      version: 1,
      columns: [
        {
          name: 'age',
          type: 'numeric',
          bounds: [17, 41],
          integer: true,
          canBeMissing: false,
          source: 'inferred',
        },
        {
          name: 'income',
          type: 'numeric',
          bounds: [1.5, 2000],
          integer: false,
          canBeMissing: true,
          source: 'inferred',
        },
        { name: 'sex', type: 'categorical', categories: ['F', 'M'], canBeMissing: false, source: 'inferred' },
      ],
      missing: [...DEFAULT_MISSING_TOKENS],
    });
  });

  it('applies the normative numeric pattern: "1e5", ".5", "+3", "1." numeric; "0x10", "inf" categorical', () => {
    const raw = parseCsv('e,f,p,d,hex,inf\n1e5,.5,+3,1.,0x10,inf\n2,1,4,2,16,1\n');
    const types = inferSchema(raw).columns.map((column) => column.type);
    expect(types).toEqual(['numeric', 'numeric', 'numeric', 'numeric', 'categorical', 'categorical']);
    const [e, f, , d] = inferSchema(raw).columns;
    expect(e).toMatchObject({ integer: true, bounds: [2, 100000] });
    expect(f).toMatchObject({ integer: false, bounds: [0.5, 1] });
    expect(d).toMatchObject({ integer: true, bounds: [1, 2] });
  });

  it('keeps integer codes with few levels numeric (no guessing)', () => {
    const raw = parseCsv('race\n1\n2\n1\n3\n');
    expect(inferSchema(raw).columns[0]).toMatchObject({ type: 'numeric', integer: true, bounds: [1, 3] });
  });

  it('sorts categories by code point, not by locale', () => {
    const raw = parseCsv('g\nb\nB\na\nA\n_\n');
    expect(inferSchema(raw).columns[0]).toMatchObject({ categories: ['A', 'B', '_', 'a', 'b'] });
  });

  it('treats missing tokens as absent: all-missing → categorical with no categories', () => {
    const raw = parseCsv('x,y\nNA,1\nnull,2\nNaN,NA\n');
    const [x, y] = inferSchema(raw).columns;
    expect(x).toEqual({
      name: 'x',
      type: 'categorical',
      categories: [],
      canBeMissing: true,
      source: 'inferred',
    });
    expect(y).toMatchObject({ type: 'numeric', bounds: [1, 2], canBeMissing: true });
  });

  it('uses the given missing tokens instead of the defaults', () => {
    const raw = parseCsv('x\n1\nNaN\n.\n3\n');
    // With the reference's tokens ("" and NA only), "NaN" and "." are text: the column is categorical.
    expect(inferSchema(raw, { missing: ['', 'NA'] }).columns[0]).toMatchObject({
      type: 'categorical',
      categories: ['.', '1', '3', 'NaN'],
    });
    expect(inferSchema(raw, { missing: ['', 'NaN', '.'] }).columns[0]).toMatchObject({ type: 'numeric' });
  });

  it('pools several files: one non-numeric token anywhere makes the column categorical', () => {
    const real = parseCsv('a,b\n1,x\n2,y\n', { fileName: 'real.csv' });
    const synth = parseCsv('b,a\nz,3\nx,oops\n', { fileName: 'synth.csv' });
    const schema = inferSchema([real, synth]);
    expect(schema.columns).toEqual([
      {
        name: 'a',
        type: 'categorical',
        categories: ['1', '2', '3', 'oops'],
        canBeMissing: false,
        source: 'inferred',
      },
      {
        name: 'b',
        type: 'categorical',
        categories: ['x', 'y', 'z'],
        canBeMissing: false,
        source: 'inferred',
      },
    ]);
    const numericPool = inferSchema([real, parseCsv('a,b\n-4,x\n', { fileName: 's.csv' })]);
    expect(numericPool.columns[0]).toMatchObject({ type: 'numeric', bounds: [-4, 2] });
  });

  it('rejects pooled files whose columns differ, naming the differences', () => {
    const real = parseCsv('a,b\n1,2\n', { fileName: 'real.csv' });
    const synth = parseCsv('a,c\n1,2\n', { fileName: 'synth.csv' });
    expect(() => inferSchema([real, synth])).toThrow(InputError);
    expect(() => inferSchema([real, synth])).toThrow(
      'synth.csv: its columns differ from real.csv: it lacks `b` and has extra `c`. Both files need the same column names.',
    );
  });

  it('omits bounds of a constant numeric column (bounds need lower < upper)', () => {
    const raw = parseCsv('k,n\n5,1\n5,2\n');
    expect(inferSchema(raw).columns[0]).toEqual({
      name: 'k',
      type: 'numeric',
      integer: true,
      canBeMissing: false,
      source: 'inferred',
    });
  });

  it('says a column can be missing exactly when some file has a missing token there', () => {
    const real = parseCsv('a,b,c\n1,x,2\n2,y,3\n', { fileName: 'real.csv' });
    const synth = parseCsv('a,b,c\n3,z,NA\n4,,-99\n', { fileName: 'synth.csv' });
    const flags = (files: ReturnType<typeof parseCsv>[], missing?: string[]) =>
      inferSchema(files, missing ? { missing } : {}).columns.map((column) => column.canBeMissing);
    expect(flags([real])).toEqual([false, false, false]);
    expect(flags([real, synth])).toEqual([false, true, true]);
    // A numeric missing token matches the numbers equal to it.
    expect(flags([real, synth], ['-99'])).toEqual([false, false, true]);
  });

  it('leaves out the category list beyond maxCategories', () => {
    const raw = parseCsv('id\nu1\nu2\nu3\n');
    expect(inferSchema(raw, { maxCategories: 2 }).columns[0]).toEqual({
      name: 'id',
      type: 'categorical',
      canBeMissing: false,
      source: 'inferred',
    });
    expect(inferSchema(raw, { maxCategories: 3 }).columns[0]).toMatchObject({
      categories: ['u1', 'u2', 'u3'],
    });
  });
});

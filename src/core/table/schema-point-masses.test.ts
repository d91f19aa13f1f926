import { describe, expect, it } from 'vitest';
import { InputError } from './errors';
import { parseSchemaJson, schemaToJson } from './schema-json';

const column = (extra: Record<string, unknown>) =>
  JSON.stringify({
    version: 1,
    columns: [
      { name: 'gain', type: 'numeric', bounds: [0, 99999], integer: true, source: 'declared', ...extra },
    ],
  });

describe('schema JSON: point masses of a numeric column', () => {
  it('reads "pointMasses", writes it back ascending, and reads its own output to the same schema', () => {
    const schema = parseSchemaJson(column({ pointMasses: [99999, 0] }), 's.json');
    expect(schema.columns[0]).toMatchObject({ pointMasses: [0, 99999] });
    const text = schemaToJson(schema);
    expect(text).toContain('"pointMasses": [0, 99999]');
    expect(parseSchemaJson(text, 's.json')).toEqual(schema);
  });

  it('older files without the field load as before, with no point masses', () => {
    const schema = parseSchemaJson(column({}), 's.json');
    expect('pointMasses' in schema.columns[0]!).toBe(false);
    expect(schemaToJson(schema)).not.toContain('pointMasses');
  });

  it('refuses point masses outside the bounds, fractional in an integer column, repeated, or without bounds, naming the file and column', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { pointMasses: [-1] },
        /s\.json: column 1 \(gain\): point mass -1 lies outside the bounds \[0, 99999\]/,
      ],
      [{ pointMasses: [0.5] }, /point mass 0\.5 is not a whole number/],
      [{ pointMasses: [0, 0] }, /lists a value twice/],
      [{ pointMasses: ['0'] }, /must be a list of numbers/],
      [{ pointMasses: [0], bounds: undefined }, /needs the column's "bounds"/],
    ];
    for (const [extra, message] of cases) {
      expect(() => parseSchemaJson(column(extra), 's.json')).toThrow(InputError);
      expect(() => parseSchemaJson(column(extra), 's.json')).toThrow(message);
    }
  });
});

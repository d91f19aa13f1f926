import { describe, expect, it } from 'vitest';
import { dropIncompleteRows } from './drop-incomplete-rows';
import type { Table } from './types';

describe('dropIncompleteRows', () => {
  it('keeps the complete rows in order and says which input rows they were', () => {
    // Row 1 misses x, row 3 misses g: rows 0, 2 and 4 are complete.
    const table: Table = {
      nRows: 5,
      columns: [
        {
          kind: 'numeric',
          name: 'x',
          values: Float64Array.from([1, NaN, 3, 4, 5]),
          missing: Uint8Array.from([0, 1, 0, 0, 0]),
        },
        {
          kind: 'categorical',
          name: 'g',
          codes: Uint32Array.from([0, 1, 1, 0, 1]),
          dictionary: ['a', 'b'],
          missing: Uint8Array.from([0, 0, 0, 1, 0]),
        },
      ],
    };
    const result = dropIncompleteRows(table);
    expect(result.dropped).toBe(2);
    expect(Array.from(result.keptRows)).toEqual([0, 2, 4]);
    expect(result.table.nRows).toBe(3);
    const x = result.table.columns[0]!;
    expect(x.kind === 'numeric' && Array.from(x.values)).toEqual([1, 3, 5]);
  });
});

import { describe, expect, it } from 'vitest';
import { tableFromColumns } from '../core/table';
import { throttleProgress } from './progress-throttle';
import { copyTable, tableBuffers } from './table-transfer';

describe('throttleProgress', () => {
  it('passes the first report, message changes and completion, and at most one report per interval', () => {
    let now = 0;
    const seen: [number, string][] = [];
    const progress = throttleProgress(
      (fraction, message) => seen.push([fraction, message]),
      50,
      () => now,
    );
    progress(0, 'parsing');
    now = 10;
    progress(0.1, 'parsing');
    now = 60;
    progress(0.2, 'parsing');
    now = 61;
    progress(0.3, 'building');
    now = 62;
    progress(1.2, 'building');
    expect(seen).toEqual([
      [0, 'parsing'],
      [0.2, 'parsing'],
      [0.3, 'building'],
      [1, 'building'],
    ]);
  });
});

describe('table transfer', () => {
  it('copies into fresh buffers and lists each buffer once', () => {
    const table = tableFromColumns([
      { name: 'x', kind: 'numeric', values: [1, null, 3] },
      { name: 'g', kind: 'categorical', values: ['a', 'b', null] },
    ]);
    const copy = copyTable(table);
    expect(copy).toEqual(table);
    const buffers = tableBuffers(copy);
    expect(buffers).toHaveLength(4);
    for (const buffer of tableBuffers(table)) expect(buffers).not.toContain(buffer);
    // Transferring the copy's buffers must leave the original intact.
    structuredClone(copy, { transfer: buffers });
    expect(copy.columns[0]!.kind === 'numeric' && copy.columns[0]!.values.length).toBe(0);
    expect(table.columns[0]!.kind === 'numeric' && table.columns[0]!.values[2]).toBe(3);
  });
});

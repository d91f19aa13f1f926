import type { Schema } from '../../core/table/types';

/** 200 rows of a noisy line on [0, 10]², for the staged-run tests of the worker and the page. */
export const NOISY_LINE_CSV = [
  'x,y',
  ...Array.from({ length: 200 }, (_, i) => `${(i % 20) / 2},${((i * 7) % 13) / 3 + (i % 20) / 4}`),
].join('\n');

/** Its schema: both columns numeric, bounds declared. */
export const NOISY_LINE_SCHEMA: Schema = {
  version: 1,
  columns: [
    { name: 'x', type: 'numeric', bounds: [0, 10], source: 'declared' },
    { name: 'y', type: 'numeric', bounds: [0, 10], source: 'declared' },
  ],
  missing: [''],
};

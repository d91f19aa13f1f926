import type { Rng } from '../../../rng/types';
import type { Column, Table } from '../../../table/types';
import { columnRows, syntheticRows } from '../../release-blocks';
import type { Release, SyntheticRows } from '../../types';
import type { ColumnCoding } from '../coding/column-coding';
import { columnScratch, levelsFromCells, syntheticColumnFromLevels } from '../coding/decode-rows';

/**
 * How a run hands out its datasets: whole tables (`run`) or row blocks (`runInBlocks`). A mechanism
 * that draws each synthetic row's cell or levels from its fitted model and then decodes them to values
 * (syntheticColumnFromLevels) writes its run once over a DatasetForm and gets both.
 *
 * The decoding draws, per column in schema order and per row in row order, one uniform value inside
 * the row's bin (numeric columns; categorical ones draw nothing). Whole: decoded at once, as before.
 * In blocks, with a generator that has `copy` (seeded): at the same point of the run the generator is
 * copied at the first row of every block and then advanced over the column's draws exactly as the
 * whole decoding would advance it (the values are made and dropped), so the run goes on from the same
 * state; reading block b later decodes it from its copy, giving the whole decoding's values, each draw
 * used once. With a secure generator (no copy): each block's values are drawn from the run's generator
 * when the block is read, fresh draws from the same distribution.
 */
export interface DatasetForm<D> {
  /** A synthetic column whose rows [start, end) have the levels levelsOf(start, end). */
  column(rng: Rng, nRows: number, coding: ColumnCoding, levelsOf: LevelsOfRows): DrawnColumn;
  /** A synthetic column from the level of every row (kept in the smallest array that holds them). */
  columnOfLevels(rng: Rng, coding: ColumnCoding, levels: Uint32Array): DrawnColumn;
  /** The dataset of these columns, in schema order. */
  dataset(nRows: number, columns: DrawnColumn[]): D;
}

/**
 * The levels of rows [start, end) of one synthetic column, possibly written into `scratch` (at least
 * end − start long), which the caller reads before its next call.
 */
export type LevelsOfRows = (start: number, end: number, scratch?: Uint32Array) => LevelArray;
export type LevelArray = Uint8Array | Uint16Array | Uint32Array;

/** A synthetic column as drawn: rows [start, end) of block b, decoded when asked. */
export interface DrawnColumn {
  block(b: number, start: number, end: number): Column;
  /** The decoded column, in the whole form. */
  readonly whole?: Column;
}

/** A release whose datasets take the form D (Table: `Release`; SyntheticRows: `ReleaseInBlocks`). */
export type ReleaseOf<D, Diagnostics extends object = Record<string, unknown>> = Omit<
  Release<Diagnostics>,
  'datasets'
> & { datasets: D[] };

function wholeColumn(column: Column): DrawnColumn {
  return { whole: column, block: (_, start, end) => columnRows(column, start, end) };
}

/** Datasets as whole tables, decoded at once (`run`). */
export const WHOLE_TABLES: DatasetForm<Table> = {
  column: (rng, nRows, coding, levelsOf) =>
    wholeColumn(syntheticColumnFromLevels(rng, levelsOf(0, nRows), coding)),
  columnOfLevels: (rng, coding, levels) => wholeColumn(syntheticColumnFromLevels(rng, levels, coding)),
  dataset: (nRows, columns) => ({ nRows, columns: columns.map((column) => column.whole!) }),
};

/** Datasets in blocks of `blockRows` rows, decoded block by block when read (`runInBlocks`). */
export function rowBlocks(blockRows: number): DatasetForm<SyntheticRows> {
  // Levels are read one block at a time and decoded at once, so one array serves every column.
  const levelScratch = new Uint32Array(blockRows);
  const levelsOfBlock = (levelsOf: LevelsOfRows, start: number, end: number) =>
    levelsOf(start, end, levelScratch);
  const column = (rng: Rng, nRows: number, coding: ColumnCoding, levelsOf: LevelsOfRows): DrawnColumn => {
    // Categorical levels decode without drawing; with no copy the values are drawn when read.
    if (coding.kind === 'categorical' || rng.copy === undefined) {
      return {
        block: (_, start, end) => syntheticColumnFromLevels(rng, levelsOfBlock(levelsOf, start, end), coding),
      };
    }
    const starts: (Rng | undefined)[] = [];
    // The values made while advancing are dropped: written into one scratch column, not allocated per block.
    const dropped = columnScratch(coding, blockRows);
    for (let start = 0; start < nRows || start === 0; start += blockRows) {
      starts.push(rng.copy());
      const end = Math.min(nRows, start + blockRows);
      syntheticColumnFromLevels(rng, levelsOfBlock(levelsOf, start, end), coding, dropped);
    }
    return {
      block(b, start, end) {
        const from = starts[b];
        if (from === undefined) throw new Error(`block ${b} of ${coding.name} was read already.`);
        starts[b] = undefined;
        return syntheticColumnFromLevels(from, levelsOfBlock(levelsOf, start, end), coding);
      },
    };
  };
  return {
    column,
    columnOfLevels(rng, coding, levels) {
      const kept = compactLevels(levels, coding.levels);
      return column(rng, levels.length, coding, (start, end) => kept.subarray(start, end));
    },
    dataset: (nRows, columns) =>
      syntheticRows(nRows, blockRows, (b, start, end) => ({
        nRows: end - start,
        columns: columns.map((drawn) => drawn.block(b, start, end)),
      })),
  };
}

/** The levels in a Uint8Array (≤ 256 levels) or Uint16Array (≤ 65,536); else the array itself. */
function compactLevels(levels: Uint32Array, count: number): LevelArray {
  if (count <= 256) return Uint8Array.from(levels);
  if (count <= 65_536) return Uint16Array.from(levels);
  return levels;
}

/**
 * The dataset whose row i lies in cell cells[i] of the mixed-radix domain of `codings`: column j's
 * levels read off the cells, decoded in schema order (tableFromCells in the whole form).
 */
export function datasetFromCells<D>(
  form: DatasetForm<D>,
  rng: Rng,
  cells: Uint32Array,
  codings: readonly ColumnCoding[],
): D {
  const nRows = cells.length;
  return form.dataset(
    nRows,
    codings.map((coding, j) =>
      form.column(rng, nRows, coding, (start, end) =>
        levelsFromCells(cells.subarray(start, end), codings, j),
      ),
    ),
  );
}

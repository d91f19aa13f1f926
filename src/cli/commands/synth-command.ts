import { blockRowsOf } from '../../core/mechanisms/release-blocks';
import type { CliIo } from '../io';
import type { CliInternals, ParsedArgs } from '../args';
import { UsageError } from '../errors';
import { neighbouringOption, SYNTH_OPTIONS, usesCountSource } from '../synth-options';

/**
 * `dpsynth synth`: one DP run to synthetic files and a release report, on a table in memory
 * (synth.ts) or on the counts of a count source: DuckDB, a ClickHouse cluster or files of query
 * results (synth-counts.ts). Each way is loaded only when it runs.
 */
export const synthCommand = {
  options: SYNTH_OPTIONS,
  async run(args: ParsedArgs, io: CliIo, internals: CliInternals = {}) {
    const v = args.values;
    // Checked before anything is read or reserved: a size that is not a whole number ≥ 1 would write
    // no rows (NaN) or never finish (0).
    const blockRows = blockRowsOf({ blockRows: internals.releaseBlockRows });
    const neighbouring = neighbouringOption(v.neighbouring);
    if (usesCountSource(v)) {
      if (neighbouring === 'add-remove') {
        throw new UsageError(
          '--neighbouring add-remove runs on a table in memory only for now: leave out --engine, --source and --counts, or use replace-one.',
        );
      }
      return (await import('./synth-counts')).synthFromCountSource(args, io, internals);
    }
    return (await import('./synth')).synthFromTable(args, io, { blockRows, neighbouring });
  },
};

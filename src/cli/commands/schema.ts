import { decodeCsvBytes, parseCsv } from '../../core/table/csv-read';
import { inferSchema, DEFAULT_MISSING_TOKENS } from '../../core/table/infer';
import { schemaToJson } from '../../core/table/schema-json';
import { readUserFile, type CliIo } from '../io';
import type { ParsedArgs } from '../run-cli';
import { UsageError } from '../errors';

/** `dpsynth schema data.csv`: prints the schema inferred from the data (every field marked "inferred"). */
export const schemaCommand = {
  options: { missing: { type: 'string' } } as const,
  run(args: ParsedArgs, io: CliIo) {
    const [path, extra] = args.positionals;
    if (!path || extra) throw new UsageError('dpsynth schema takes exactly one CSV file.');
    const raw = parseCsv(decodeCsvBytes(readUserFile(path, 'CSV'), path), { fileName: path });
    const missing =
      args.values.missing === undefined
        ? [...DEFAULT_MISSING_TOKENS]
        : parseTokenList(String(args.values.missing));
    io.out(`${schemaToJson(inferSchema(raw, { missing }))}\n`);
    io.err(
      `dpsynth: every field above was read from ${path}, so it is marked "inferred". Replace bounds and categories ` +
        `with public knowledge and mark them "declared" before synthesizing.\n`,
    );
  },
};

/** Splits a comma-separated token list; `""` stands for the empty token. */
export function parseTokenList(text: string): string[] {
  return text.split(',').map((t) => (t === '""' ? '' : t));
}

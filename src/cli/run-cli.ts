import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliIo } from './io';
import { USAGE } from './usage';
import { UsageError, isUserError } from './errors';
import { mechanismsCommand } from './commands/mechanisms';
import { schemaCommand } from './commands/schema';
import { synthCommand } from './commands/synth';
import { metricsCommand } from './commands/metrics';

type Options = NonNullable<ParseArgsConfig['options']>;
export type ParsedArgs = {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
};

interface Command {
  options: Options;
  run(args: ParsedArgs, io: CliIo): Promise<void> | void;
}

const COMMANDS: Record<string, Command> = {
  mechanisms: mechanismsCommand,
  schema: schemaCommand,
  synth: synthCommand,
  metrics: metricsCommand,
};

/** Runs one dpsynth command and returns its exit code (0 ok, 2 bad input or usage, 1 internal error). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`dpsynth: unknown command '${name}'. Commands: ${Object.keys(COMMANDS).join(', ')}.\n\n${USAGE}`);
    return 2;
  }
  try {
    let parsed: ParsedArgs;
    try {
      parsed = parseArgs({
        args: rest,
        options: command.options,
        allowPositionals: true,
        strict: true,
      }) as ParsedArgs;
    } catch (error) {
      throw new UsageError(`dpsynth ${name}: ${(error as Error).message}`);
    }
    await command.run(parsed, io);
    return 0;
  } catch (error) {
    if (isUserError(error)) {
      io.err(`dpsynth: ${(error as Error).message}\n`);
      if (error instanceof UsageError) io.err(`\n${USAGE}`);
      return 2;
    }
    io.err(`dpsynth: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
}

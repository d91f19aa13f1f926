import { parseArgs, type ParseArgsConfig } from 'node:util';
import { csvReading, type CliIo } from './io';
import { parseEncodingChoice } from '../core/table/text-encoding';
import { USAGE, commandUsage, type CommandName } from './usage';
import { UsageError, isUserError } from './errors';
import type { CliInternals, ParsedArgs } from './args';

export type { CliInternals, ParsedArgs } from './args';

type Options = NonNullable<ParseArgsConfig['options']>;

interface Command {
  options: Options;
  run(args: ParsedArgs, io: CliIo, internals: CliInternals): Promise<void> | void;
}

/**
 * Each command's module, loaded when that command runs: a command loads only the code it uses
 * (`metrics` loads no mechanism and none of their packages, a quarter of a second of start-up).
 */
const COMMANDS: Record<CommandName, () => Promise<Command>> = {
  mechanisms: async () => (await import('./commands/mechanisms')).mechanismsCommand,
  schema: async () => (await import('./commands/schema')).schemaCommand,
  synth: async () => (await import('./commands/synth-command')).synthCommand,
  metrics: async () => (await import('./commands/metrics')).metricsCommand,
  infer: async () => (await import('./commands/infer')).inferCommand,
  counts: async () => (await import('./commands/counts')).countsCommand,
  recommend: async () => (await import('./commands/recommend')).recommendCommand,
};

/** Runs one dpsynth command and returns its exit code (0 ok, 2 bad input or usage, 1 internal error). */
export async function runCli(argv: string[], givenIo: CliIo, internals: CliInternals = {}): Promise<number> {
  // --progress and --no-progress go with any command: progress of reading, running and writing on
  // stderr, by default when stderr is a terminal. The last one given wins.
  const progressFlags = argv.filter((arg) => arg === '--progress' || arg === '--no-progress');
  const showProgress =
    progressFlags.length > 0 ? progressFlags.at(-1) === '--progress' : givenIo.progressByDefault === true;
  const io: CliIo = showProgress ? givenIo : { out: givenIo.out, err: givenIo.err };
  const [name, ...rest] = argv.filter((arg) => arg !== '--progress' && arg !== '--no-progress');
  // --encoding goes with any command that reads CSV files (io.ts); the last one given wins.
  csvReading.encoding = 'auto';
  csvReading.warn = (text) => io.err(text);
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg !== '--encoding' && !arg.startsWith('--encoding=')) continue;
    const value = arg === '--encoding' ? rest[i + 1] : arg.slice('--encoding='.length);
    const choice = value === undefined ? undefined : parseEncodingChoice(value);
    if (choice === undefined) {
      io.err(
        `dpsynth: --encoding ${value ?? ''} is not an encoding dpsynth reads; use auto, utf-8 or windows-1252.\n`,
      );
      return 2;
    }
    csvReading.encoding = choice;
    rest.splice(i, arg === '--encoding' ? 2 : 1);
    i--;
  }
  if (name === undefined) {
    io.out(USAGE);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = rest[0];
    if (topic === undefined) {
      io.out(USAGE);
      return 0;
    }
    if (!isCommandName(topic)) return unknownCommand(topic, io);
    io.out(commandUsage(topic));
    return 0;
  }
  if (!isCommandName(name)) return unknownCommand(name, io);
  const command = await COMMANDS[name]();
  // `--help` anywhere but as the value of an option that takes one (e.g. --out --help) asks for help.
  if (rest.some((arg, i) => (arg === '--help' || arg === '-h') && !takesValue(command, rest[i - 1]))) {
    io.out(commandUsage(name));
    return 0;
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
    await command.run(parsed, io, internals);
    return 0;
  } catch (error) {
    if (isUserError(error)) {
      io.err(`dpsynth: ${(error as Error).message}\n`);
      if (error instanceof UsageError) io.err(`\n${commandUsage(name)}`);
      return 2;
    }
    io.err(`dpsynth: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
}

function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

function unknownCommand(name: string, io: CliIo): number {
  io.err(`dpsynth: unknown command '${name}'. Commands: ${Object.keys(COMMANDS).join(', ')}.\n\n${USAGE}`);
  return 2;
}

/** True when `arg` is an option of `command` that takes a value (so the next argument is that value). */
function takesValue(command: Command, arg: string | undefined): boolean {
  if (arg === undefined || !arg.startsWith('--') || arg.includes('=')) return false;
  return command.options[arg.slice(2)]?.type === 'string';
}

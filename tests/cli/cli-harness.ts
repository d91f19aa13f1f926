import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliInternals } from '../../src/cli/run-cli';
import type { CliIo } from '../../src/cli/io';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output; files are written for real, as the command does. */
export async function cli(...argv: string[]): Promise<CliResult> {
  return cliWith({}, ...argv);
}

/**
 * Runs the CLI as `cli` does with settings no flag sets (CliInternals), and records the messages of
 * the progress it reports (shown with --progress).
 */
export async function cliWith(
  internals: CliInternals,
  ...argv: string[]
): Promise<CliResult & { progress: string[] }> {
  let stdout = '';
  let stderr = '';
  const progress: string[] = [];
  const io: CliIo = {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    progress: (_fraction, message) => progress.push(message ?? ''),
  };
  const code = await runCli(argv, io, internals);
  return { code, stdout, stderr, progress };
}

/** A fresh temporary directory with the given files. */
export function tempFiles(files: Record<string, string | Uint8Array>): (name: string) => string {
  const dir = mkdtempSync(join(tmpdir(), 'dpsynth-cli-'));
  for (const [name, contents] of Object.entries(files)) writeFileSync(join(dir, name), contents);
  return (name) => join(dir, name);
}

export { mixedCsv, MIXED_SCHEMA } from './mixed-data';

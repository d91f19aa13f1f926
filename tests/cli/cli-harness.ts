import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run-cli';
import type { CliIo } from '../../src/cli/io';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output; files are written for real, as the command does. */
export async function cli(...argv: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

/** A fresh temporary directory with the given files. */
export function tempFiles(files: Record<string, string | Uint8Array>): (name: string) => string {
  const dir = mkdtempSync(join(tmpdir(), 'dpsynth-cli-'));
  for (const [name, contents] of Object.entries(files)) writeFileSync(join(dir, name), contents);
  return (name) => join(dir, name);
}

export { mixedCsv, MIXED_SCHEMA } from './mixed-data';

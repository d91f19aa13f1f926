import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root and the CLI entry, as `npm run dpsynth` runs it (tsx on src/cli/main.ts). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `dpsynth <argv>` as a separate Node process (node --import tsx src/cli/main.ts, what the
 * `dpsynth` npm script runs without npm's own output) and resolves with its exit code and output.
 * `preload` adds a module loaded before the CLI (e.g. one that makes writes fail).
 */
export function spawnCli(argv: string[], preload?: string): Promise<ProcessResult> {
  const imports = ['--import', 'tsx', ...(preload ? ['--import', preload] : [])];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...imports, ENTRY, ...argv],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** The preload module whose .csv writes fail (an internal error for the CLI). */
export const FAILING_CSV_WRITES = new URL('./failing-csv-writes.mjs', import.meta.url).href;

/**
 * `npm run dpsynth` runs scripts/dpsynth.mjs: it builds dist-cli when it is missing or older than the
 * files it was built from, then runs the built command with the same arguments and exit codes.
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module without types
import { isFresh } from '../../../scripts/dpsynth.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function launch(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [`${ROOT}scripts/dpsynth.mjs`, ...argv],
      { cwd: ROOT },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

describe('the dpsynth launcher', { timeout: 120_000 }, () => {
  it('runs the built command, fresh against the sources it was built from, with its exit codes', async () => {
    const listed = await launch(['mechanisms', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((m) => m.id)).toContain('laplace-histogram');
    const stamp = JSON.parse(readFileSync(`${ROOT}dist-cli/build-inputs.json`, 'utf8')) as {
      startedAt: number;
      inputs: string[];
    };
    // The build read the command's own entry and the core it uses.
    expect(stamp.inputs).toContain('src/cli/main.ts');
    expect(stamp.inputs.some((file) => file.startsWith('src/core/'))).toBe(true);
    expect(stamp.inputs.some((file) => file.startsWith('node_modules/'))).toBe(false);
    // Fresh, unless a file it was built from changed since (another edit while this runs).
    const changedSince = [...stamp.inputs, 'package.json', 'package-lock.json', 'scripts/build-cli.mjs'].some(
      (file) =>
        (statSync(`${ROOT}${file}`, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) >= stamp.startedAt,
    );
    expect(isFresh()).toBe(!changedSince);
    const missing = await launch(['metrics', `${ROOT}no-such-file.csv`, `${ROOT}no-such-file.csv`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no-such-file.csv');
  });
});

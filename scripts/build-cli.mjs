// Builds the command-line tool into plain JavaScript (`npm run build:cli` → dist-cli/main.js).
// `npm run dpsynth` runs the built files through scripts/dpsynth.mjs, which rebuilds them when a
// source changed; compiling the TypeScript at every start (tsx) costs about a second of processor
// time, again in each worker thread. Packages stay in
// node_modules (not bundled). The worker thread of `dpsynth metrics` is its own entry, next to
// main.js, where src/cli/pmse-null-threads.ts looks for it.
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Writes the CLI's entries (main.js, pmse-null-worker.js) and their shared chunks to `outdir`;
 * with `metafile`, returns esbuild's list of the files read (scripts/dpsynth.mjs keeps it to know
 * when to rebuild).
 */
export async function buildCli(outdir = join(ROOT, 'dist-cli'), { metafile = false } = {}) {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli/main.ts', 'src/cli/pmse-null-worker.ts'],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
    metafile,
  });
  chmodSync(join(outdir, 'main.js'), 0o755);
  return { main: join(outdir, 'main.js'), metafile: result.metafile };
}

// `node scripts/build-cli.mjs [outdir]`; the folder must lie inside the project (packages resolve from there).
if (process.argv[1] === fileURLToPath(import.meta.url))
  await buildCli(process.argv[2] && join(process.cwd(), process.argv[2]));

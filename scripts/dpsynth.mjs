#!/usr/bin/env node
// `npm run dpsynth -- …`: runs the built command (dist-cli/main.js), building it first when it is
// missing or older than its sources. The build records the files it read (esbuild's metafile) and
// the time it started; the command is rebuilt when any of them, package.json, package-lock.json or
// the build script changed since, or is gone. Checking takes a few milliseconds; a build about a
// second. Two starts at once each build into their own folder and the first to finish is kept.
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist-cli');
const STAMP = 'build-inputs.json';
const ALWAYS = ['package.json', 'package-lock.json', 'scripts/build-cli.mjs'];

/** True when `outdir` holds a build newer than every file it was built from. */
export function isFresh(outdir = OUT) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(outdir, STAMP), 'utf8'));
  } catch {
    return false;
  }
  if (typeof stamp.startedAt !== 'number' || !Array.isArray(stamp.inputs)) return false;
  if (!existsSync(join(outdir, 'main.js'))) return false;
  for (const file of [...ALWAYS, ...stamp.inputs]) {
    let modified;
    try {
      modified = statSync(join(ROOT, file)).mtimeMs;
    } catch {
      return false;
    }
    if (modified >= stamp.startedAt) return false;
  }
  return true;
}

/** Builds into a fresh folder beside dist-cli, then puts it in place. */
async function rebuild() {
  const { buildCli } = await import('./build-cli.mjs');
  const startedAt = Date.now();
  const fresh = `${OUT}.build-${process.pid}`;
  let metafile;
  try {
    ({ metafile } = await buildCli(fresh, { metafile: true }));
  } catch (error) {
    rmSync(fresh, { recursive: true, force: true });
    throw error;
  }
  const inputs = Object.keys(metafile.inputs).filter((file) => !file.startsWith('node_modules/'));
  writeFileSync(join(fresh, STAMP), JSON.stringify({ startedAt, inputs }));
  const old = `${OUT}.old-${process.pid}`;
  try {
    if (existsSync(OUT)) renameSync(OUT, old);
    renameSync(fresh, OUT);
  } catch {
    // Another start put its build in place first: use that one.
    rmSync(fresh, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!isFresh()) {
    process.stderr.write('dpsynth: building the command from its sources (once after each change)…\n');
    try {
      await rebuild();
    } catch (error) {
      // esbuild has printed what it could not compile; an older build is not run in its place.
      process.stderr.write(
        `dpsynth: internal error: the command could not be built from its sources: ${error.message}\n`,
      );
      process.exit(1);
    }
  }
  // main.js reads process.argv.slice(2): the same arguments as `node dist-cli/main.js …`.
  await import(pathToFileURL(join(OUT, 'main.js')).href);
}

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { transformWithOxc, type Plugin } from 'vite';
import { SECURITY_HEADERS, SERVICE_WORKER_FILE } from '../csp.config';

/** Files of the build the service worker does not keep: itself and the host's header file. */
const NOT_PRECACHED = new Set([SERVICE_WORKER_FILE, '_headers']);

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. */
export function listBuildFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return files.sort();
}

/** The files the service worker precaches: the whole build but itself, `_headers` and source maps. */
export function precacheList(files: readonly string[]): string[] {
  return files.filter((file) => !NOT_PRECACHED.has(file) && !file.endsWith('.map'));
}

/**
 * The cache version: SHA-256 over each precached file's path and bytes (and the headers the
 * service worker stamps), so a build that changes any of them opens a new cache.
 */
export function precacheVersion(dir: string, urls: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(SECURITY_HEADERS));
  for (const url of urls) {
    hash.update(`${url}\0`);
    hash.update(readFileSync(join(dir, url)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The service worker script: the precache declaration, then the handwritten worker without its types. */
export async function serviceWorkerScript(root: string, dir: string): Promise<string> {
  const urls = precacheList(listBuildFiles(dir));
  const precache = { version: precacheVersion(dir, urls), urls, headers: SECURITY_HEADERS };
  const source = readFileSync(resolve(root, 'src/service-worker/service-worker.ts'), 'utf8');
  const { code } = await transformWithOxc(source, 'service-worker.ts', { lang: 'ts' });
  return `const DPSYNTH_PRECACHE = ${JSON.stringify(precache, null, 2)};\n\n${code}`;
}

/** Writes `sw.js` beside index.html once the build (and the public files) are on disk. */
export function serviceWorker(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'dpsynth-service-worker',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      writeFileSync(join(outDir, SERVICE_WORKER_FILE), await serviceWorkerScript(root, outDir));
    },
  };
}

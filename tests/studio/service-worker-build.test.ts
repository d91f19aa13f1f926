import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  SECURITY_HEADERS,
  SERVICE_WORKER_POLICY,
  securityHeadersFor,
  staticHostHeadersFile,
} from '../../csp.config';
import {
  listBuildFiles,
  precacheList,
  precacheVersion,
  serviceWorkerScript,
} from '../../scripts/vite-service-worker';

const made: string[] = [];
function fakeBuild(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'dpsynth-build-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the service worker of the build', () => {
  const files = {
    'index.html': '<html></html>',
    'assets/index-1.js': 'main',
    'assets/data-worker-entry-2.js': 'worker',
    'assets/index-1.js.map': '{}',
    'demo/penguins.csv': 'a,b\n1,2\n',
    'sw.js': 'old',
    _headers: '/*',
  };

  it('precaches every file of the build but itself, the host header file and source maps', () => {
    const dir = fakeBuild(files);
    expect(precacheList(listBuildFiles(dir))).toEqual([
      'assets/data-worker-entry-2.js',
      'assets/index-1.js',
      'demo/penguins.csv',
      'index.html',
    ]);
  });

  it('opens a new cache when any precached byte changes, and only then', () => {
    const dir = fakeBuild(files);
    const urls = precacheList(listBuildFiles(dir));
    const first = precacheVersion(dir, urls);
    expect(precacheVersion(dir, urls)).toBe(first);
    writeFileSync(join(dir, 'sw.js'), 'not precached');
    expect(precacheVersion(dir, urls)).toBe(first);
    writeFileSync(join(dir, 'demo/penguins.csv'), 'a,b\n1,3\n');
    expect(precacheVersion(dir, urls)).not.toBe(first);
  });

  it('writes a classic script: the precache list, then the worker without types', async () => {
    const dir = fakeBuild(files);
    const script = await serviceWorkerScript(process.cwd(), dir);
    expect(script.startsWith('const DPSYNTH_PRECACHE = {')).toBe(true);
    expect(script).toContain('"assets/data-worker-entry-2.js"');
    expect(script).toContain(JSON.stringify(CONTENT_SECURITY_POLICY));
    expect(script).not.toMatch(/^\s*(import|export)\s/m);
    expect(script).not.toMatch(/declare const|: ServiceWorkerGlobalScope/);
    // It parses as a script (a module-only or TypeScript construct would throw here).
    expect(() => new Function(script)).not.toThrow();
  });

  it('gives the service worker script alone its own policy, with its own origin to download from', () => {
    expect(SERVICE_WORKER_POLICY).toContain("connect-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'none'");
    expect(securityHeadersFor('/sw.js')['Content-Security-Policy']).toBe(SERVICE_WORKER_POLICY);
    expect(securityHeadersFor('/studio/sw.js?v=2')['Content-Security-Policy']).toBe(SERVICE_WORKER_POLICY);
    for (const path of ['/', '/index.html', '/assets/data-worker-entry-2.js', '/assets/sw.js.map'])
      expect(securityHeadersFor(path)).toBe(SECURITY_HEADERS);
    const lines = staticHostHeadersFile().split('\n');
    const swRule = lines.indexOf('/sw.js');
    expect(swRule).toBeGreaterThan(0);
    expect(lines.slice(swRule + 1, swRule + 3)).toEqual([
      '  ! Content-Security-Policy',
      `  Content-Security-Policy: ${SERVICE_WORKER_POLICY}`,
    ]);
  });
});

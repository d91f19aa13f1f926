/**
 * The studio's service worker: it keeps every file of one build in a cache and serves them from
 * there first, so that after one visit the studio opens and runs with no network.
 *
 * Written by hand rather than generated with Workbox (vite-plugin-pwa): all it needs is a precache
 * list, cache-first answers and one versioned cache, about sixty lines that a data steward can read
 * in full, whereas the generator brings Babel, Rollup plugins and Terser into every install and
 * ships a runtime loaded with importScripts. This file is a classic script (no imports): the build
 * (scripts/vite-service-worker.ts) strips its types and puts `DPSYNTH_PRECACHE` above it.
 *
 * It never receives data: it answers GET requests for the build's own files only and lets every
 * other request pass untouched (the page's policy, connect-src 'none', still refuses those).
 * Its own policy is SERVICE_WORKER_POLICY in csp.config.ts.
 */

declare const DPSYNTH_PRECACHE: {
  /** A hash of every precached file: a new build has a new version, hence a new cache. */
  version: string;
  /** The build's files, relative to the service worker's scope. */
  urls: string[];
  /** The headers every file of the studio is served with (SECURITY_HEADERS). */
  headers: Record<string, string>;
};

const worker = self as unknown as ServiceWorkerGlobalScope;
const CACHE_PREFIX = 'dpsynth-';
const cacheName = `${CACHE_PREFIX}${DPSYNTH_PRECACHE.version}`;
const scope = worker.registration.scope;
const precached = new Set(DPSYNTH_PRECACHE.urls.map((path) => new URL(path, scope).href));
const indexHtml = new URL('index.html', scope).href;

/**
 * A copy of a downloaded file carrying the studio's security headers, whatever the host sent:
 * a worker script takes its policy from its response, so the workers keep connect-src 'none'
 * when served from the cache even on a host that sends no headers.
 */
async function withStudioHeaders(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(DPSYNTH_PRECACHE.headers)) headers.set(name, value);
  return new Response(await response.blob(), { status: 200, statusText: 'OK', headers });
}

async function precacheBuild(): Promise<void> {
  const cache = await caches.open(cacheName);
  await Promise.all(
    Array.from(precached, async (href) => {
      // 'no-cache' asks the server again, so a file is never taken from an older build in the HTTP cache.
      const response = await fetch(href, { cache: 'no-cache', credentials: 'same-origin' });
      if (!response.ok) throw new Error(`could not precache ${href}: HTTP ${response.status}`);
      await cache.put(href, await withStudioHeaders(response));
    }),
  );
}

/** The cache key a request is answered from, or null when it is not one of the build's files. */
function precacheKey(request: Request): string | null {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  url.search = '';
  url.hash = '';
  if (request.mode === 'navigate' && url.href === scope) return indexHtml;
  return precached.has(url.href) ? url.href : null;
}

worker.addEventListener('install', (event) => {
  event.waitUntil(precacheBuild());
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith(CACHE_PREFIX) && name !== cacheName)
          .map((name) => caches.delete(name)),
      );
      // The first visit is served by the network; claiming it lets that tab work offline at once.
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener('fetch', (event) => {
  const key = precacheKey(event.request);
  if (key === null) return;
  event.respondWith((async () => (await caches.match(key, { cacheName })) ?? fetch(event.request))());
});

// A new build waits until the page's "Reload to update" asks it to take over.
worker.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'skip-waiting') void worker.skipWaiting();
});

/**
 * The one Content-Security-Policy of the studio (DESIGN.md, privacy rule 8).
 * It is written into index.html as a meta tag at build time and sent as a response
 * header by the dev and preview servers, because a worker loaded from a URL takes its
 * policy from its own response, not from the page.
 *
 * connect-src 'none' forbids fetch/XHR/WebSocket/EventSource/beacons from the page and
 * its workers; demo datasets are therefore bundled as JavaScript modules, not fetched.
 * style-src needs 'unsafe-inline' for the style attributes that the chart library sets.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "connect-src 'none'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "manifest-src 'self'",
].join('; ');

/**
 * The policy of the one-file build (dist-single/dpsynth.html), opened from disk: there is no origin
 * to call 'self', so its one inline script is allowed by its hash, its workers start from blob: URLs
 * (a blob: worker inherits this policy, connect-src 'none' included), and its stylesheet and icon
 * are inside the file. Nothing else may load.
 */
export function singleFilePolicy(scriptHashSource: string): string {
  return [
    "default-src 'none'",
    `script-src ${scriptHashSource}`,
    'worker-src blob:',
    "connect-src 'none'",
    'img-src data: blob:',
    "style-src 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
  ].join('; ');
}

/** The response headers every server of the studio sends with every file (page and worker scripts). */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The policy of the service worker script (`sw.js`) alone. The service worker keeps the studio's own
 * files in a cache so that the studio opens without a network; to fill that cache it must download
 * those files, and a download from a worker is a fetch, which `connect-src` governs: so it gets
 * `connect-src 'self'` (its own origin only) where the page and the data workers keep `'none'`.
 * It never receives data: it answers only GET requests for the build's own files (a loaded table
 * travels as a File and in worker messages, never as a request), and it loads no script, image or
 * frame, hence `default-src 'none'`.
 */
export const SERVICE_WORKER_POLICY = ["default-src 'none'", "connect-src 'self'"].join('; ');

/** The path of the service worker script, beside index.html. */
export const SERVICE_WORKER_FILE = 'sw.js';

/** The headers one file of the build is served with: the service worker gets its own policy. */
export function securityHeadersFor(path: string): Record<string, string> {
  const pathname = path.split(/[?#]/)[0]!;
  if (pathname.endsWith(`/${SERVICE_WORKER_FILE}`) || pathname === SERVICE_WORKER_FILE)
    return { ...SECURITY_HEADERS, 'Content-Security-Policy': SERVICE_WORKER_POLICY };
  return SECURITY_HEADERS;
}

/**
 * The build's `_headers` file: the headers for every path, in the format static hosts such as
 * Netlify and Cloudflare Pages read. A worker script cannot carry its own policy (a meta tag applies
 * to documents only), so on a static host the workers are protected only by a header like this.
 * The service worker's rule comes second and first detaches the policy of `/*` (`! Name`, Cloudflare
 * Pages' syntax), because Cloudflare Pages joins two values of one header with a comma, which a
 * browser enforces as both policies at once (`connect-src 'none'` would then stop the service
 * worker's downloads). On another host, check that sw.js gets SERVICE_WORKER_POLICY alone.
 */
export function staticHostHeadersFile(): string {
  const lines = Object.entries(SECURITY_HEADERS).map(([name, value]) => `  ${name}: ${value}`);
  return [
    '/*',
    ...lines,
    `/${SERVICE_WORKER_FILE}`,
    '  ! Content-Security-Policy',
    `  Content-Security-Policy: ${SERVICE_WORKER_POLICY}`,
    '',
  ].join('\n');
}

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

/** The response headers every server of the studio sends with every file (page and worker scripts). */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The build's `_headers` file: the headers for every path, in the format static hosts such as
 * Netlify and Cloudflare Pages read. A worker script cannot carry its own policy (a meta tag applies
 * to documents only), so on a static host the workers are protected only by a header like this.
 */
export function staticHostHeadersFile(): string {
  const lines = Object.entries(SECURITY_HEADERS).map(([name, value]) => `  ${name}: ${value}`);
  return ['/*', ...lines, ''].join('\n');
}

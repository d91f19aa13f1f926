import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { CONTENT_SECURITY_POLICY } from '../../csp.config';

// The dev server must send the same policy as the preview server (DESIGN.md privacy rule 8): a
// worker loaded from a URL takes its policy from its own response, so the header matters for the
// worker script as much as for the page. The browser tests cover the preview server.
describe('vite dev server', () => {
  let server: ViteDevServer;
  let origin: string;

  beforeAll(async () => {
    server = await createServer({ configFile: 'vite.config.ts', logLevel: 'silent', server: { port: 0 } });
    await server.listen();
    const address = server.httpServer!.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    origin = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each(['/', '/src/worker/data-worker-entry.ts', '/src/worker/pool-worker-entry.ts'])(
    'sends the Content-Security-Policy header with %s',
    async (path) => {
      const response = await fetch(origin + path);
      expect(response.status).toBe(200);
      const header = response.headers.get('content-security-policy') ?? '';
      expect(header).toBe(CONTENT_SECURITY_POLICY);
      // What the served policy must say, read from the header itself (DESIGN.md privacy rule 8).
      const directives = new Map(
        header
          .split(';')
          .map((part) => part.trim().split(/\s+/))
          .filter((words) => words[0])
          .map(([name, ...sources]) => [name!, sources]),
      );
      expect(directives.get('connect-src')).toEqual(["'none'"]);
      expect(header).not.toMatch(/https?:|wss?:|\*/);
    },
  );

  it('puts the same policy in the page as a meta tag', async () => {
    const html = await (await fetch(origin + '/')).text();
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}"`);
  });
});

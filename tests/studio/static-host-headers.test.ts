import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, staticHostHeadersFile } from '../../csp.config';
import { staticHostHeaders } from '../../vite.config';

// Workers loaded from a URL take their policy from their own response headers (DESIGN.md privacy
// rule 8). On a static host only a header file or the host's settings can give it to them, so the
// build's `_headers` and the README's deployment section must stay the policy of csp.config.ts.
describe('headers for static hosts', () => {
  it('the build emits _headers with every security header for every path', () => {
    const emitted: { fileName?: string; source?: unknown }[] = [];
    const plugin = staticHostHeaders() as Plugin & { generateBundle: (this: unknown) => void };
    plugin.generateBundle.call({
      emitFile: (file: { fileName: string; source: unknown }) => emitted.push(file),
    });
    expect(emitted).toEqual([{ type: 'asset', fileName: '_headers', source: staticHostHeadersFile() }]);
    const lines = staticHostHeadersFile().split('\n');
    expect(lines[0]).toBe('/*');
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(lines).toContain(`  ${name}: ${value}`);
    expect(SECURITY_HEADERS['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'none'");
  });

  it('the README quotes the same headers in its deployment section', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(
      readme.indexOf('## Deploying the studio'),
      readme.indexOf('## Adding a mechanism'),
    );
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(section).toContain(`${name}: ${value}`);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { singleFilePolicy } from '../../csp.config';
import { escapeInlineScript, inlineIntoHtml, scriptHashSource } from '../../scripts/vite-single-file';

const HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta http-equiv="Content-Security-Policy" content="default-src 'self'; connect-src 'none'" />
    <link rel="icon" href="./icon.svg" type="image/svg+xml" />
    <link rel="manifest" href="./manifest.webmanifest" />
    <link rel="apple-touch-icon" href="./icons/apple-touch-icon-180.png" />
    <script type="module" crossorigin src="./assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="./assets/index-def.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('the one-file build', () => {
  it('escapes what would end or confuse an inline script, keeping its meaning in strings', () => {
    const code = 'const a = "</script><!-- x"; const b = /<\\/script/;';
    const escaped = escapeInlineScript(code);
    expect(escaped).not.toMatch(/<\/script|<!--/i);
    // The strings mean the same after escaping.
    const run = (source: string) => new Function(`${source}; return a;`)() as string;
    expect(run(escaped)).toBe(run(code));
  });

  it('inlines the script and stylesheet, allows that script by its hash, and drops server-only links', () => {
    const script = 'console.log("studio </script>")';
    const page = inlineIntoHtml(HTML, script, '.a{color:red}', '<svg/>');
    const inline = page.match(/<script type="module">([\s\S]*)<\/script>/)![1]!;
    expect(inline).toBe(escapeInlineScript(script));
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
    expect(scriptHashSource(inline)).toBe(hash);
    expect(page).toContain(`content="${singleFilePolicy(hash)}"`);
    expect(singleFilePolicy(hash)).toContain("connect-src 'none'");
    expect(singleFilePolicy(hash)).toContain('worker-src blob:');
    expect(page).toContain('<style>\n.a{color:red}\n</style>');
    expect(page).toContain(`href="data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}"`);
    expect(page).not.toMatch(/manifest|apple-touch-icon|assets\/|src=/);
    expect(page.match(/<script/g)).toHaveLength(1);
  });
});

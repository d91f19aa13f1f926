import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OutputAsset, OutputChunk } from 'rolldown';
import type { Plugin, UserConfig } from 'vite';
import { singleFilePolicy } from '../csp.config';

/** The one-file studio: its name inside dist-single/. */
export const SINGLE_FILE_NAME = 'dpsynth.html';

/**
 * Script text made safe inside an HTML <script> element: "</script" would end the element and
 * "<!--" would change how the parser reads the rest. Both can only stand in strings, regular
 * expressions or comments of the bundle, where `\x3C` means the same "<".
 */
export function escapeInlineScript(code: string): string {
  return code.replace(/<\/script/gi, '\\x3C/script').replace(/<!--/g, '\\x3C!--');
}

/** `'sha256-…'` of a script's text, as a Content-Security-Policy source for that one inline script. */
export function scriptHashSource(code: string): string {
  return `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`;
}

/**
 * Puts the page's one script and one stylesheet inside index.html, with a policy that allows that
 * script by its hash, and drops the links that need a server (manifest, icons, service worker).
 */
export function inlineIntoHtml(html: string, script: string, css: string, iconSvg: string): string {
  const safeScript = escapeInlineScript(script);
  const policy = singleFilePolicy(scriptHashSource(safeScript));
  const iconDataUrl = `data:image/svg+xml;base64,${Buffer.from(iconSvg).toString('base64')}`;
  let out = html
    .replace(
      /<meta http-equiv="Content-Security-Policy" content="[^"]*" \/>/,
      () => `<meta http-equiv="Content-Security-Policy" content="${policy}" />`,
    )
    .replace(/\s*<link rel="manifest"[^>]*>/, '')
    .replace(/\s*<link rel="apple-touch-icon"[^>]*>/, '')
    .replace(/<link rel="icon" href="[^"]*"/, () => `<link rel="icon" href="${iconDataUrl}"`)
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<link rel="stylesheet"[^>]*>/, () => `<style>\n${css}\n</style>`)
    .replace(/\s*<script type="module"[^>]*><\/script>/, '');
  // The script goes last in <body>, after #root, as a module script runs after parsing anyway.
  out = out.replace('</body>', () => `  <script type="module">${safeScript}</script>\n  </body>`);
  if (!out.includes(policy)) throw new Error('index.html has no Content-Security-Policy meta tag to replace');
  return out;
}

/**
 * The build of one self-contained HTML file (`vite build --mode single`): one JavaScript chunk
 * (demo datasets and lazy charts included), workers inlined and started from blob: URLs, the
 * stylesheet inlined; then its SHA-256 is printed and written beside it for `sha256sum -c`.
 */
export function singleFile(): Plugin {
  let root = '';
  return {
    name: 'dpsynth-single-file',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    resolveId: {
      order: 'pre',
      handler(source, importer) {
        // The workers come from inside the page instead of from files on a server.
        if (source === './worker-scripts' && importer?.endsWith('spawn-worker.ts'))
          return resolve(root, 'src/worker/client/worker-scripts.inline.ts');
        return null;
      },
    },
    // After Vite has written index.html and the stylesheet into the bundle.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const files = Object.values(bundle);
        const chunks = files.filter((file): file is OutputChunk => file.type === 'chunk');
        const styles = files.filter(
          (file): file is OutputAsset => file.type === 'asset' && file.fileName.endsWith('.css'),
        );
        const html = files.find(
          (file): file is OutputAsset => file.type === 'asset' && file.fileName === 'index.html',
        );
        if (chunks.length !== 1 || !html)
          throw new Error(
            `one-file build: expected one chunk and index.html, got ${Object.keys(bundle).join(', ')}`,
          );
        const leftovers = files.filter(
          (file) => file !== chunks[0] && file !== html && !(styles as unknown[]).includes(file),
        );
        if (leftovers.length > 0)
          throw new Error(
            `one-file build: files that would need a server: ${leftovers.map((f) => f.fileName).join(', ')}`,
          );
        const css = styles.map((style) => String(style.source)).join('\n');
        const iconSvg = readFileSync(join(root, 'public/icon.svg'), 'utf8');
        const page = inlineIntoHtml(String(html.source), chunks[0]!.code, css, iconSvg);
        for (const name of Object.keys(bundle)) delete bundle[name];
        this.emitFile({ type: 'asset', fileName: SINGLE_FILE_NAME, source: page });
      },
    },
    writeBundle(options) {
      const path = join(options.dir!, SINGLE_FILE_NAME);
      const digest = createHash('sha256').update(readFileSync(path)).digest('hex');
      writeFileSync(`${path}.sha256`, `${digest}  ${SINGLE_FILE_NAME}\n`);
      console.log(`\n${SINGLE_FILE_NAME}  SHA-256 ${digest}\n`);
    },
  };
}

/** The parts of the Vite configuration that differ for the one-file build. */
export function singleFileConfig(): UserConfig {
  return {
    publicDir: false,
    build: {
      outDir: 'dist-single',
      emptyOutDir: true,
      cssCodeSplit: false,
      assetsInlineLimit: Number.MAX_SAFE_INTEGER,
      rolldownOptions: { output: { codeSplitting: false } },
    },
    // Classic workers: Chromium refuses a module worker from a blob: URL made by a page opened from disk
    // (its origin is opaque), while a classic one starts.
    worker: { format: 'iife', rolldownOptions: { output: { codeSplitting: false } } },
    plugins: [singleFile()],
  };
}

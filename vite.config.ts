import { defineConfig, mergeConfig, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import {
  CONTENT_SECURITY_POLICY,
  SECURITY_HEADERS,
  securityHeadersFor,
  staticHostHeadersFile,
} from './csp.config';
import { serviceWorker } from './scripts/vite-service-worker';
import { singleFileConfig } from './scripts/vite-single-file';

/** Injects the policy into index.html so that the built files carry it without a server. */
function cspMetaTag(): Plugin {
  return {
    name: 'dpsynth-csp-meta',
    transformIndexHtml(html) {
      return html.replace('%CONTENT_SECURITY_POLICY%', CONTENT_SECURITY_POLICY);
    },
  };
}

/** Writes `_headers` beside index.html, so static hosts that read it send the policy with the workers too. */
export function staticHostHeaders(): Plugin {
  return {
    name: 'dpsynth-static-host-headers',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: staticHostHeadersFile() });
    },
  };
}

/**
 * The preview server sends SECURITY_HEADERS with every file; this gives the service worker script
 * its own policy instead (securityHeadersFor), by rewriting the header as the file server sets it.
 */
export function perFileSecurityHeaders(): Plugin {
  return {
    name: 'dpsynth-per-file-security-headers',
    configurePreviewServer(server) {
      server.middlewares.use((request, response, next) => {
        const headers = securityHeadersFor(request.url ?? '/');
        if (headers !== SECURITY_HEADERS) {
          const setHeader = response.setHeader.bind(response);
          response.setHeader = (name, value) =>
            setHeader(name, headers[name] ?? value) as ReturnType<typeof response.setHeader>;
          for (const [name, value] of Object.entries(headers)) setHeader(name, value);
        }
        next();
      });
    },
  };
}

const securityHeaders = SECURITY_HEADERS;

export default defineConfig(({ mode }) => {
  const common: UserConfig = {
    base: './',
    build: {
      target: 'es2022',
      // The polyfill would fetch() module preloads; connect-src 'none' forbids that.
      modulePreload: { polyfill: false },
      chunkSizeWarningLimit: 2000,
    },
    worker: { format: 'es' },
    // Hot reload needs a WebSocket, which connect-src 'none' forbids; reload by hand in dev.
    server: { headers: securityHeaders, hmr: false },
    preview: { headers: securityHeaders },
  };
  // `vite build --mode single`: the whole studio in dist-single/dpsynth.html (npm run build:single).
  if (mode === 'single')
    return mergeConfig({ ...common, plugins: [react(), cspMetaTag()] }, singleFileConfig());
  return {
    ...common,
    plugins: [react(), cspMetaTag(), staticHostHeaders(), perFileSecurityHeaders(), serviceWorker()],
  };
});

import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { CONTENT_SECURITY_POLICY } from './csp.config';

/** Injects the policy into index.html so that the built files carry it without a server. */
function cspMetaTag(): Plugin {
  return {
    name: 'dpsynth-csp-meta',
    transformIndexHtml(html) {
      return html.replace('%CONTENT_SECURITY_POLICY%', CONTENT_SECURITY_POLICY);
    },
  };
}

const securityHeaders = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export default defineConfig({
  plugins: [react(), cspMetaTag()],
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
});

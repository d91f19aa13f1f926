import { defineConfig } from 'vitest/config';

/**
 * The tests that guard the privacy core, for mutation testing (`npm run mutation`, stryker.config.json):
 * the samplers, the accountant and claims, the shared mechanism code, the mechanisms' own tests
 * (noise audits included) and the empirical privacy tests. Not part of `npm test`.
 */
export default defineConfig({
  test: {
    include: [
      'src/core/rng/**/*.test.ts',
      'src/core/privacy/**/*.test.ts',
      'src/core/mechanisms/**/*.test.ts',
      'tests/privacy/**/*.test.ts',
    ],
    exclude: ['src/core/mechanisms/pmse-mechanism/**'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

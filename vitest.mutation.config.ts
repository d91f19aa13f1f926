import { defineConfig } from 'vitest/config';

/**
 * The tests that guard the privacy core, for mutation testing (`npm run mutation`,
 * stryker.config.mjs). MUTATION_SCOPE narrows them to the part being mutated: a mutant in the
 * samplers is judged by the samplers' tests and the empirical privacy tests, not by every
 * mechanism test that happens to draw noise. The score of a narrow scope is therefore a lower
 * bound on what the whole suite catches. Not part of `npm test`.
 */
const testsByScope: Record<string, string[]> = {
  rng: ['src/core/rng/**/*.test.ts', 'tests/privacy/**/*.test.ts'],
  privacy: ['src/core/privacy/**/*.test.ts', 'tests/privacy/**/*.test.ts'],
  common: ['src/core/mechanisms/**/*.test.ts', 'tests/privacy/**/*.test.ts'],
};
const scope = process.env.MUTATION_SCOPE ?? 'all';

export default defineConfig({
  test: {
    include: testsByScope[scope] ?? [...new Set(Object.values(testsByScope).flat())],
    exclude: ['src/core/mechanisms/pmse-mechanism/**'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

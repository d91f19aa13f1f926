import { statSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The tests that guard the privacy core, for mutation testing (`npm run mutation`,
 * stryker.config.mjs). MUTATION_SCOPE narrows them to the part being mutated, and each part is
 * judged by its own unit tests only: the statistical suites of the mechanisms (`tests/privacy`,
 * the mechanisms' run tests) draw millions of values through instrumented code, which makes a
 * single test run take many minutes. A mutant that only those suites would catch therefore counts
 * as surviving here: the score of a scope is a lower bound on what the whole suite catches.
 * MUTATION_TESTS (comma-separated globs) replaces the test list, to study one file at a time.
 * Not part of `npm test`.
 */
const testsByScope: Record<string, string[]> = {
  rng: ['src/core/rng/**/*.test.ts'],
  privacy: ['src/core/privacy/**/*.test.ts'],
  // The code every mechanism shares: mechanisms/common and the graphical-model engine (models/pgm).
  common: ['src/core/mechanisms/common/**/*.test.ts', 'src/core/models/pgm/**/*.test.ts'],
  // The mechanism folders and the top-level files of src/core/mechanisms; the script
  // (scripts/mutation-by-file.mjs) narrows this to one folder's tests and the top-level tests.
  mechanisms: ['src/core/mechanisms/**/*.test.ts'],
};
const scope = process.env.MUTATION_SCOPE ?? 'all';
/**
 * Test files left out: outside the `mechanisms` scope the pMSE mechanism's tests, as before; in the
 * `mechanisms` scope the engine's tests (`common/`, measured in its own scope) and the noise audits
 * (`noise-audit*.test.ts`), which draw thousands of releases to check a noise law statistically and
 * take seconds to a minute each unmutated.
 */
const excludeByScope: Record<string, string[]> = {
  mechanisms: ['src/core/mechanisms/common/**', '**/noise-audit*.test.ts'],
};

/**
 * Runs the smallest test files first. Stryker stops a mutant at its first failing test, and the
 * small files hold the quick unit tests that pin one module with exact expectations; vitest's own
 * order (largest or slowest first) would run the long convergence and statistical tests first and
 * make every killed mutant wait for them.
 */
class SmallestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const size = (file: TestSpecification) => statSync(file.moduleId).size;
    return [...files].sort((a, b) => size(a) - size(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  test: {
    include: process.env.MUTATION_TESTS?.split(',') ??
      testsByScope[scope] ?? [...new Set(Object.values(testsByScope).flat())],
    exclude: excludeByScope[scope] ?? ['src/core/mechanisms/pmse-mechanism/**'],
    environment: 'node',
    sequence: { sequencer: SmallestFilesFirst },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

// Mutation testing of the privacy core (`npm run mutation`; not part of `npm test`).
// MUTATION_SCOPE picks one part: `rng` (the samplers), `privacy` (the accountant, claims, ledger,
// report), `common` (the code every mechanism shares: mechanisms/common and the graphical-model
// engine, models/pgm) or `mechanisms` (the mechanism folders and the
// top-level files of src/core/mechanisms, measured folder by folder with
// `npm run mutation:by-file mechanisms`); unset, the first three. Each part runs against
// the tests of vitest.mutation.config.ts for that scope. Results are kept in
// reports/mutation/<scope>-incremental.json, so a run that is stopped resumes where it ended and a
// later run re-tests only mutants in changed code or covered by changed tests.
const scope = process.env.MUTATION_SCOPE ?? 'all';

const mutateByScope = {
  rng: ['src/core/rng/**/*.ts'],
  privacy: ['src/core/privacy/**/*.ts'],
  common: ['src/core/mechanisms/common/**/*.ts', 'src/core/models/pgm/**/*.ts'],
  mechanisms: [
    'src/core/mechanisms/**/*.ts',
    '!src/core/mechanisms/common/**',
    '!src/core/mechanisms/**/testing.ts',
  ],
};
if (scope !== 'all' && !(scope in mutateByScope))
  throw new Error(
    `MUTATION_SCOPE must be rng, privacy, common or mechanisms (or unset for the first three), not "${scope}".`,
  );

const mutate =
  scope === 'all'
    ? [...mutateByScope.rng, ...mutateByScope.privacy, ...mutateByScope.common]
    : mutateByScope[scope];
// MUTATION_REPORT names the report files instead of the scope (scripts/mutation-by-file.mjs gives
// each mutated file its own).
const report = process.env.MUTATION_REPORT ?? scope;

export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    ...mutate,
    '!**/*.test.ts',
    '!**/testing/**',
    '!**/*.d.ts',
    '!src/core/rng/index.ts',
    '!src/core/privacy/index.ts',
  ],
  ignoreStatic: true,
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  // A mutant that loops forever (a rejection sampler that never accepts) is stopped 10 s after
  // 1.5 times the time its tests took unmutated, and counts as detected.
  timeoutMS: 10000,
  dryRunTimeoutMinutes: 30,
  incremental: true,
  incrementalFile: `reports/mutation/${report}-incremental.json`,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${report}.json` },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
};

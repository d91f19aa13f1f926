// Mutation score of a part measured file by file: each source file is mutated on its own and judged
// by the tests listed for it below (its own unit tests, plus the shared refusal and bigint-path
// tests for the samplers), in a Stryker run of its own. Mutating a whole part at once instead makes
// every sampler's mutants run every test that draws through it, which takes hours.
//
//   node scripts/mutation-by-file.mjs <part> [file-name-fragment ...]
//
// <part> is `rng`, `pgm` (the graphical-model engine in src/core/mechanisms/common/pgm) or `common`
// (the other files of src/core/mechanisms/common, in one run against their own tests). Each run
// uses --force (no result carried over), --timeoutMS 4000 (a looping mutant is stopped 4 s after 1.5
// times its tests' time and counts as detected) and MUTATION_CONCURRENCY (default 1) processes.
// Reports go to reports/mutation/<part>-<file>.json; the table printed at the end gives per file
// killed, timed out, survived and not covered, and the part's score computed from those counts
// (detected / (detected + survived + not covered)).
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';

const RNG = 'src/core/rng';
const PGM = 'src/core/mechanisms/common/pgm';
const rngTests = (...names) =>
  [...names, 'refusals', 'bigint-paths'].map((name) => `${RNG}/${name}.test.ts`).join(',');
const postProcessingTests = rngTests(
  'binomial',
  'multinomial',
  'dirichlet',
  'wishart',
  'continuous',
  'shuffle',
);

const parts = {
  rng: {
    scope: 'rng',
    files: {
      'bernoulli-exp-neg': rngTests('bernoulli'),
      'bernoulli-rational': rngTests('bernoulli'),
      'crypto-rng': rngTests('crypto-rng'),
      'discrete-gaussian': rngTests('discrete-gaussian'),
      'discrete-laplace': rngTests('discrete-laplace'),
      'exp-neg-expansion': rngTests('exp-neg-expansion'),
      'exponential-mechanism': rngTests('exponential-mechanism'),
      'geometric-exp-neg': rngTests('geometric-exp-neg'),
      'geometric-inversion': rngTests('geometric-inversion'),
      'make-rng': rngTests('crypto-rng', 'seeded-rng'),
      rational: rngTests('rational'),
      'ratio-brackets': rngTests('ratio-brackets', 'geometric-inversion'),
      'seeded-rng': rngTests('seeded-rng'),
      'uniform-int': rngTests('uniform-int'),
      binomial: postProcessingTests,
      multinomial: postProcessingTests,
      dirichlet: postProcessingTests,
      wishart: postProcessingTests,
      continuous: postProcessingTests,
      'log-gamma-variate': postProcessingTests,
      'stdlib-samplers': postProcessingTests,
      shuffle: postProcessingTests,
    },
    dir: RNG,
  },
  pgm: {
    scope: 'common',
    // Every source file of the engine, each against every test of pgm/.
    files: Object.fromEntries(
      readdirSync(PGM)
        .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
        .map((name) => [name.slice(0, -3), `${PGM}/*.test.ts`]),
    ),
    dir: PGM,
  },
  common: {
    scope: 'common',
    together: {
      mutate: 'src/core/mechanisms/common/*.ts,!src/core/mechanisms/common/*.test.ts',
      tests: 'src/core/mechanisms/common/**/*.test.ts',
      owns: (file) => file.startsWith('src/core/mechanisms/common/') && !file.includes('/pgm/'),
    },
  },
};

const [partName, ...only] = process.argv.slice(2);
const part = parts[partName];
if (!part) {
  console.error(`usage: node scripts/mutation-by-file.mjs <${Object.keys(parts).join('|')}> [file ...]`);
  process.exit(2);
}
// One Stryker run per file, or for `common` one run over every file outside pgm/.
const runs = part.together
  ? [{ name: partName, mutate: part.together.mutate, tests: part.together.tests }]
  : Object.entries(part.files)
      .filter(([name]) => only.length === 0 || only.some((fragment) => name.includes(fragment)))
      .map(([name, tests]) => ({ name, mutate: `${part.dir}/${name}.ts`, tests }));

const STATUSES = ['Killed', 'Timeout', 'Survived', 'NoCoverage'];
const rows = [];
for (const { name, mutate, tests } of runs) {
  const report = name === partName ? `${partName}-files` : `${partName}-${name}`;
  const started = Date.now();
  const run = spawnSync(
    'npx',
    [
      'stryker',
      'run',
      '--mutate',
      mutate,
      '--force',
      '--timeoutMS',
      '4000',
      '--reporters',
      'json,progress-append-only',
    ],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        MUTATION_SCOPE: part.scope,
        MUTATION_TESTS: tests,
        MUTATION_REPORT: report,
        MUTATION_CONCURRENCY: process.env.MUTATION_CONCURRENCY ?? '1',
      },
    },
  );
  if (run.status !== 0) {
    console.error(`stryker failed on ${mutate}`);
    process.exit(1);
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  const json = JSON.parse(readFileSync(`reports/mutation/${report}.json`, 'utf8'));
  // The report also lists files carried over from an earlier run's incremental file: skip those.
  const mine = (file) => (part.together ? part.together.owns(file) : file === mutate);
  for (const [file, { mutants }] of Object.entries(json.files).filter(([file]) => mine(file))) {
    const counts = Object.fromEntries(STATUSES.map((status) => [status, 0]));
    for (const mutant of mutants) if (mutant.status in counts) counts[mutant.status]++;
    rows.push({ file: basename(file), ...counts, seconds: part.together ? '' : seconds });
  }
  if (part.together) console.log(`${mutate}: ${seconds} s`);
}

const score = (r) => {
  const detected = r.Killed + r.Timeout;
  const valid = detected + r.Survived + r.NoCoverage;
  return valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(2)} %`;
};
const total = Object.fromEntries(STATUSES.map((status) => [status, rows.reduce((s, r) => s + r[status], 0)]));
console.log('\n| File | Score | Killed | Timed out | Survived | Not covered | Wall s |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(
    `| \`${r.file}\` | ${score(r)} | ${r.Killed} | ${r.Timeout} | ${r.Survived} | ${r.NoCoverage} | ${r.seconds} |`,
  );
console.log(
  `| **${partName}** | **${score(total)}** | ${total.Killed} | ${total.Timeout} | ${total.Survived} | ${total.NoCoverage} | |`,
);

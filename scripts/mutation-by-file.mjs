// Mutation score of a part measured file by file: each source file is mutated on its own and judged
// by the tests listed for it below (its own unit tests, plus the shared refusal and bigint-path
// tests for the samplers), in a Stryker run of its own. Mutating a whole part at once instead makes
// every sampler's mutants run every test that draws through it, which takes hours.
//
//   node scripts/mutation-by-file.mjs <part> [file-name-fragment ...]
//   node scripts/mutation-by-file.mjs mechanisms [<folder>[/<file>] ...]
//
// <part> is `rng`, `pgm` (the graphical-model engine in src/core/models/pgm), `common`
// (the files of src/core/mechanisms/common, in one run against their own tests) or
// `mechanisms`: one run per mechanism folder (src/core/mechanisms/<folder>, or `top` for the
// top-level files of src/core/mechanisms), mutating the folder's files against the folder's tests and
// the top-level tests every mechanism goes through (contract, registry, params, neighbouring, meter
// settling, printed rounding, sweep repeats), without the noise audits (statistical, seconds to a
// minute each). `aim/meta` (a file name without .ts) mutates that file only; `aim` every file. Each run
// uses --force (no result carried over), --timeoutMS 4000 (a looping mutant is stopped 4 s after 1.5
// times its tests' time and counts as detected) and MUTATION_CONCURRENCY (default 1) processes.
// Reports go to reports/mutation/<part>-<file>.json; the table printed at the end gives per file
// killed, timed out, survived and not covered, and the part's score computed from those counts
// (detected / (detected + survived + not covered)).
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';

const RNG = 'src/core/rng';
const PGM = 'src/core/models/pgm';
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

const MECHANISMS = 'src/core/mechanisms';
// The top-level tests that run every registered mechanism (or its claim, params and check).
const sharedMechanismTests = [
  'contract',
  'registry',
  'params',
  'neighbouring',
  'meter-settle',
  'printed-rounding',
  'sweep-repeats',
  'noise-audit-coverage',
].map((name) => `${MECHANISMS}/${name}.test.ts`);
const isSource = (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'testing.ts';
const mechanismFolders = readdirSync(MECHANISMS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'common')
  .map((entry) => entry.name);
/** The source files and tests of one mechanism folder, or of `top` (the files beside the folders). */
function mechanismRun(folder) {
  const dir = folder === 'top' ? MECHANISMS : `${MECHANISMS}/${folder}`;
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  const own = names
    .filter((name) => name.endsWith('.test.ts') && !name.startsWith('noise-audit'))
    .map((name) => `${dir}/${name}`);
  return {
    dir,
    sources: names.filter(isSource).filter((name) => !(folder === 'top' && name === 'types.ts')),
    tests: [...new Set([...own, ...sharedMechanismTests])].join(','),
  };
}

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
      mutate:
        'src/core/mechanisms/common/**/*.ts,!src/core/mechanisms/common/**/*.test.ts,!src/core/mechanisms/common/testing/**',
      tests: 'src/core/mechanisms/common/**/*.test.ts',
      owns: (file) => file.startsWith('src/core/mechanisms/common/') && !file.includes('/testing/'),
    },
  },
};

const [partName, ...only] = process.argv.slice(2);
const part = partName === 'mechanisms' ? { scope: 'mechanisms', byFolder: true } : parts[partName];
if (!part) {
  console.error(
    `usage: node scripts/mutation-by-file.mjs <${[...Object.keys(parts), 'mechanisms'].join('|')}> [file ...]`,
  );
  process.exit(2);
}

/** One run per mechanism folder asked for (every folder and `top` when none is named). */
function mechanismRuns() {
  const asked = only.length > 0 ? only : [...mechanismFolders, 'top'];
  const byFolder = new Map();
  for (const item of asked) {
    const [folder, file] = item.split('/');
    if (folder !== 'top' && !mechanismFolders.includes(folder)) {
      console.error(`no mechanism folder ${folder}; folders: ${mechanismFolders.join(', ')}, top`);
      process.exit(2);
    }
    if (!byFolder.has(folder)) byFolder.set(folder, new Set());
    if (file) byFolder.get(folder).add(`${file}.ts`);
  }
  return [...byFolder].map(([folder, files]) => {
    const { dir, sources, tests } = mechanismRun(folder);
    const chosen = files.size > 0 ? sources.filter((name) => files.has(name)) : sources;
    if (chosen.length === 0) {
      console.error(`no source file ${[...files].join(', ')} in ${dir}`);
      process.exit(2);
    }
    const paths = chosen.map((name) => `${dir}/${name}`);
    return { name: folder, mutate: paths.join(','), tests, owns: (file) => paths.includes(file) };
  });
}

// One Stryker run per file, for `common` one run over every file of common/, for `mechanisms` one
// run per folder.
const runs = part.byFolder
  ? mechanismRuns()
  : part.together
    ? [{ name: partName, mutate: part.together.mutate, tests: part.together.tests }]
    : Object.entries(part.files)
        .filter(([name]) => only.length === 0 || only.some((fragment) => name.includes(fragment)))
        .map(([name, tests]) => ({ name, mutate: `${part.dir}/${name}.ts`, tests }));

const STATUSES = ['Killed', 'Timeout', 'Survived', 'NoCoverage'];
const rows = [];
for (const { name, mutate, tests, owns } of runs) {
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
  const mine = (file) => (owns ? owns(file) : part.together ? part.together.owns(file) : file === mutate);
  for (const [file, { mutants }] of Object.entries(json.files).filter(([file]) => mine(file))) {
    const counts = Object.fromEntries(STATUSES.map((status) => [status, 0]));
    for (const mutant of mutants) if (mutant.status in counts) counts[mutant.status]++;
    const label = part.byFolder ? file.slice(MECHANISMS.length + 1) : basename(file);
    rows.push({ file: label, ...counts, seconds: part.together || part.byFolder ? '' : seconds });
  }
  if (part.together || part.byFolder) console.log(`${mutate}: ${seconds} s`);
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

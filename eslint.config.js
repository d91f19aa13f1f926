import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Layer rules (DESIGN.md §1 and privacy rule 3): src/core is DOM-free, UI-free and never
// reaches for Math.random; randomness is passed in as an Rng.
const coreRestrictions = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        { name: 'react', message: 'src/core must not import React.' },
        { name: 'react-dom', message: 'src/core must not import React.' },
        { name: 'zustand', message: 'src/core must not import zustand.' },
        { name: 'recharts', message: 'src/core must not import recharts.' },
        { name: 'comlink', message: 'src/core must not know about workers.' },
      ],
      patterns: [
        {
          group: ['react/*', 'react-dom/*', 'zustand/*', 'recharts/*'],
          message: 'src/core must not import UI code.',
        },
        {
          group: ['**/app/**', '**/worker/**', '**/cli/**'],
          message: 'src/core must not import higher layers.',
        },
        { group: ['node:*'], message: 'src/core must run in browsers and workers: no Node built-ins.' },
      ],
    },
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Math', property: 'random', message: 'Use an Rng from src/core/rng (privacy rule 3).' },
  ],
  'no-restricted-globals': [
    'error',
    ...['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'indexedDB', 'self'].map(
      (name) => ({
        name,
        message: 'src/core is DOM-free and worker-free.',
      }),
    ),
    ...['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].map((name) => ({
      name,
      message: 'No network API in src/ (privacy rule 8).',
    })),
  ],
};

// Privacy by construction (DESIGN.md §3 rule 1): a mechanism draws privacy noise and makes private
// selections only through the metered primitives of src/core/privacy/metered/, which charge the run's
// privacy meter. The raw samplers below are privacy noise; post-processing samplers (uniformInt,
// multinomial, shuffle, Dirichlet, continuous draws from a released posterior) stay allowed.
const rawPrivacySamplers = [
  'discrete-gaussian',
  'discrete-laplace',
  'exponential-mechanism',
  'geometric-exp-neg',
  'geometric-inversion',
  'bernoulli-exp-neg',
  'exp-neg-expansion',
];
const rawPrivacySamplerNames = [
  'sampleDiscreteGaussian',
  'makeDiscreteGaussianSampler',
  'sampleDiscreteLaplace',
  'makeDiscreteLaplaceSampler',
  'sampleExponentialMechanism',
  'sampleGeometricExpNeg',
  'makeGeometricExpNegSampler',
  'sampleBernoulliExpNeg',
];
const meteredMessage =
  'A mechanism draws privacy noise only through src/core/privacy/metered/ (the privacy meter), never a raw sampler.';
// Mechanism folders (under src/core/mechanisms/) already converted to the meter. Add a folder when its
// mechanism is converted; once every mechanism is, replace the list by the whole mechanisms folder.
export const meteredMechanismFolders = [
  'mst',
  'aim',
  'laplace-histogram',
  'smoothed-histogram',
  'dp-marginals',
  'multinomial-dirichlet',
  'binomial-beta-mr',
  'common',
  'clustmix',
  'plausible-deniability',
  'modips',
  'dp-sequential-regression',
  'pmse-mechanism',
  // The plan → reserve → draw constructors: they hand the meter's steps to a mechanism's draw.
  'shape',
];
// Folders of src/core outside mechanisms/ held to the same rule: the domain learning (types, bounds,
// whole-number flags, category lists learned with DP) draws its noise through the meter, and the
// graphical-model engine of MST and AIM (models/pgm) fits and samples released marginals only.
export const meteredCoreFolders = ['domain', 'models/pgm'];
const meteredSamplerPatterns = [
  { group: rawPrivacySamplers.map((file) => `**/rng/${file}`), message: meteredMessage },
  { group: ['**/rng', '**/rng/index'], importNames: rawPrivacySamplerNames, message: meteredMessage },
  // Unmetered noise for tests and benchmarks only.
  { group: ['**/privacy/metered/testing'], message: meteredMessage },
];
const meteredRestrictions = {
  'no-restricted-imports': [
    'error',
    {
      paths: coreRestrictions['no-restricted-imports'][1].paths,
      patterns: [...coreRestrictions['no-restricted-imports'][1].patterns, ...meteredSamplerPatterns],
    },
  ],
};

// Floors of src/core (DESIGN.md §1), lowest first, as the imports stand: a folder imports its own
// floor and lower ones only. abort.ts and version.ts stand on the ground floor with linalg/, stats/ and
// format/ (number formatting for sentences); cells/ (sparse and growable cell counts) beside table/.
//   linalg, stats, format → rng → table, cells → privacy → models, mcmc, domain → inference → metrics
//   → mechanisms, counts (which import each other) → recommend, job (the synthesis job model)
export const coreFloors = [
  ['linalg', 'stats', 'format'],
  ['rng'],
  ['table', 'cells'],
  ['privacy'],
  ['models', 'mcmc', 'domain'],
  ['inference'],
  ['metrics'],
];
export const coreTopFolders = ['mechanisms', 'counts', 'recommend', 'job'];
const floorMessage = 'A lower floor of src/core may not import a higher one (eslint.config.js, coreFloors).';
/** The import patterns of a floor's folders: the core rules and every higher floor blocked. */
function floorPatterns(index) {
  const higher = [...coreFloors.slice(index + 1).flat(), ...coreTopFolders];
  return [
    ...coreRestrictions['no-restricted-imports'][1].patterns,
    { group: higher.flatMap((folder) => [`**/${folder}`, `**/${folder}/**`]), message: floorMessage },
  ];
}
const floorRestrictions = coreFloors.map((folders, index) => {
  const patterns = floorPatterns(index);
  return {
    files: folders.map((folder) => `src/core/${folder}/**/*.ts`),
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: coreRestrictions['no-restricted-imports'][1].paths, patterns },
      ],
    },
  };
});

// Inside mechanisms/: a file of a folder (a mechanism, common/ or shape/) imports its own folder,
// common/, shape/, the top-level files of mechanisms/ and lower floors, never another mechanism's
// folder: what two mechanisms share lives in a family of common/. The folders are read from the tree,
// so a new mechanism is covered the day it is added.
export const mechanismFolders = readdirSync(new URL('./src/core/mechanisms/', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const sharedMechanismFolders = ['common', 'shape'];
const mechanismFolderMessage =
  'A mechanism folder may not import another mechanism folder; move what they share to mechanisms/common/ (eslint.config.js, mechanismFolders).';
/** The pattern that blocks, for a file of `folder`, every other mechanism folder, by relative path or through mechanisms/. */
function otherMechanismFolderPattern(folder) {
  const others = mechanismFolders.filter(
    (other) => other !== folder && !sharedMechanismFolders.includes(other),
  );
  const names = others.join('|'); // folder names are kebab-case: nothing to escape
  return { regex: `^(\\.\\./)+(mechanisms/)?(${names})(/|$)`, message: mechanismFolderMessage };
}
const mechanismFolderRestrictions = mechanismFolders.map((folder) => ({
  files: [`src/core/mechanisms/${folder}/**/*.ts`],
  ignores: ['src/core/**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: coreRestrictions['no-restricted-imports'][1].paths,
        // The metered folders keep the raw-sampler ban (a later entry replaces an earlier one's options).
        patterns: [
          ...coreRestrictions['no-restricted-imports'][1].patterns,
          ...(meteredMechanismFolders.includes(folder) ? meteredSamplerPatterns : []),
          otherMechanismFolderPattern(folder),
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-single',
      'dist-cli',
      'node_modules',
      'test-results',
      'playwright-report',
      'public',
      'tests/reference/**/*.py',
      '.stryker-tmp',
      'reports',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/core/**/*.ts'], ignores: ['src/core/**/*.test.ts'], rules: coreRestrictions },
  {
    // Every mechanism folder, and the files beside them (the registry, staged runs, row blocks).
    files: [
      ...meteredMechanismFolders.map((folder) => `src/core/mechanisms/${folder}/**/*.ts`),
      'src/core/mechanisms/*.ts',
    ],
    ignores: ['src/core/**/*.test.ts'],
    rules: meteredRestrictions,
  },
  ...floorRestrictions,
  ...mechanismFolderRestrictions,
  // Folders of src/core below mechanisms that draw privacy noise (the domain learning): their floor's
  // rules and the raw-sampler restriction together (a later entry replaces a rule's options, so the
  // two lists are merged here).
  ...meteredCoreFolders.map((folder) => ({
    files: [`src/core/${folder}/**/*.ts`],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: coreRestrictions['no-restricted-imports'][1].paths,
          patterns: [
            ...floorPatterns(coreFloors.findIndex((floor) => floor.includes(folder.split('/')[0]))),
            ...meteredSamplerPatterns,
          ],
        },
      ],
    },
  })),
  // The command is a shell over src/core; it shares nothing with the studio's workers.
  {
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/worker', '**/worker/**'], message: 'src/cli may not import src/worker.' }],
        },
      ],
    },
  },
  // The service worker is the one script that downloads: the build's own files, into its cache.
  { files: ['src/service-worker/**/*.ts'], languageOptions: { globals: { ...globals.serviceworker } } },
  {
    files: ['src/app/**/*.{ts,tsx}', 'src/worker/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].map((name) => ({
          name,
          message: 'No network API in src/ (privacy rule 8).',
        })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'navigator', property: 'sendBeacon', message: 'No network API in src/ (privacy rule 8).' },
      ],
    },
  },
);

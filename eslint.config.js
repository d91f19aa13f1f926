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

import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Import boundaries of docs/architecture.md "The parts": renderer -> shared; main, headless -> core, sandbox, shared;
 * core -> shared; sandbox -> shared only; shared -> nothing of ours. Core never imports 'electron'.
 */
const restrict = (patterns, extra = []) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: extra,
      patterns: patterns.map((p) => ({ group: [p.group], message: p.message })),
    },
  ],
});

const noElectron = [{ name: 'electron', message: 'Only src/main and src/preload may import electron.' }];
const layer = (name) => ({
  group: `**/${name}/**`,
  message: `This layer may not import src/${name} (docs/architecture.md "The parts": dependencies point one way).`,
});
const layerIndex = (name) => ({ group: `**/${name}`, message: `This layer may not import src/${name}.` });

/** The domain modules of src/core, in the order app.ts builds them: each may import only those before it. */
const CORE_MODULES = [
  'lots',
  'explore',
  'desk',
  'watchlist',
  'searches',
  'channels',
  'inbox',
  'demo',
  'settings',
];
const coreOutside = ['sandbox', 'main', 'preload', 'headless', 'renderer'].map(layer);
const moduleAbove = (who) => (name) => ({
  group: `**/${name}/**`,
  message: `${who} may not import src/core/${name}: modules import only downward (docs/architecture.md "The parts").`,
});
const pureRoom = (name) => ({
  group: `**/${name}/**`,
  message: `src/core/diff and src/core/alerts are pure: no src/core/${name} (docs/architecture.md "The parts").`,
});
const sideEffect = (why) => (name) => ({ name, message: `This layer may not import ${name} (${why}).` });
const offNetwork = [
  'undici',
  'node:net',
  'net',
  'node:http',
  'http',
  'node:https',
  'https',
  'node:dns',
  'dns',
].map(sideEffect('network'));
const offDisk = [
  'node:fs',
  'fs',
  'node:fs/promises',
  'fs/promises',
  'better-sqlite3',
  'node:child_process',
].map(sideEffect('files and processes'));

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'tests/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict(['core', 'sandbox', 'main', 'preload', 'headless', 'renderer'].map(layer), noElectron),
  },
  {
    files: ['src/core/**/*.ts'],
    rules: restrict(coreOutside, noElectron),
  },
  // The domain modules import only downward, in the order app.ts builds them (docs/architecture.md "The parts").
  ...CORE_MODULES.map((name, i) => ({
    files: [`src/core/${name}/**/*.ts`],
    rules: restrict(
      [...coreOutside, ...CORE_MODULES.slice(i + 1).map(moduleAbove(`src/core/${name}`))],
      noElectron,
    ),
  })),
  // Below the modules: the watcher, the client and the database import no module and (but for api) no network.
  {
    files: ['src/core/watch/**/*.ts', 'src/core/db/**/*.ts'],
    rules: restrict(
      [...coreOutside, ...CORE_MODULES.map(moduleAbove('This layer'))],
      [...noElectron, ...offNetwork],
    ),
  },
  {
    files: ['src/core/api/**/*.ts'],
    rules: restrict([...coreOutside, ...CORE_MODULES.map(moduleAbove('This layer'))], noElectron),
  },
  // The pure rooms: the diff and the alert rules touch no database, network, file or process.
  {
    files: ['src/core/diff/**/*.ts', 'src/core/alerts/**/*.ts'],
    rules: restrict(
      [
        ...coreOutside,
        ...CORE_MODULES.map(moduleAbove('A pure room')),
        ...['db', 'api', 'watch'].map(pureRoom),
      ],
      [...noElectron, ...offNetwork, ...offDisk],
    ),
  },
  {
    files: ['src/sandbox/**/*.ts'],
    rules: restrict(['core', 'main', 'preload', 'headless', 'renderer'].map(layer), noElectron),
  },
  {
    files: ['src/headless/**/*.ts'],
    rules: restrict(['main', 'preload', 'renderer'].map(layer), noElectron),
  },
  {
    files: ['src/main/**/*.ts'],
    rules: restrict(['preload', 'headless', 'renderer'].map(layer)),
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: restrict(['core', 'sandbox', 'main', 'headless', 'renderer'].map(layer)),
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: restrict(
      ['core', 'sandbox', 'main', 'preload', 'headless'].flatMap((n) => [layer(n), layerIndex(n)]),
      [
        ...noElectron,
        { name: 'better-sqlite3', message: 'The renderer talks only through the contract.' },
        { name: 'undici', message: 'The renderer talks only through the contract.' },
      ],
    ),
  },
  {
    // The store answers with promises on both engines: a store call left unawaited, or a promise tested as a value
    // (`if (store.calls.get(id))`), would write out of order or always pass. The compiler cannot see either.
    files: [
      'src/core/**/*.ts',
      'src/headless/**/*.ts',
      'src/main/**/*.ts',
      'tests/core/**/*.ts',
      'tests/helpers/**/*.ts',
      'tests/shell/**/*.ts',
      'bench/**/*.ts',
    ],
    // The import-rule probes of tests/shared/boundaries.test.ts are linted as text, outside the TypeScript project.
    ignores: ['**/probe.ts'],
    languageOptions: {
      parserOptions: { project: './tsconfig.node.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);

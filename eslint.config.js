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
    rules: restrict(
      ['core', 'sandbox', 'main', 'preload', 'headless', 'renderer'].map(layer),
      noElectron,
    ),
  },
  {
    files: ['src/core/**/*.ts'],
    rules: restrict(['sandbox', 'main', 'preload', 'headless', 'renderer'].map(layer), noElectron),
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
    rules: restrict(['core', 'sandbox', 'main', 'preload', 'headless'].flatMap((n) => [layer(n), layerIndex(n)]), [
      ...noElectron,
      { name: 'better-sqlite3', message: 'The renderer talks only through the contract.' },
      { name: 'undici', message: 'The renderer talks only through the contract.' },
    ]),
  },
);

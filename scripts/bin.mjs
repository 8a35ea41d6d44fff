// Paths of the tools the scripts run, called through `node` so a bin without its run bit still works.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nm = (p) => join(root, 'node_modules', p);

export const BIN = {
  tsc: nm('typescript/bin/tsc'),
  eslint: nm('eslint/bin/eslint.js'),
  prettier: nm('prettier/bin/prettier.cjs'),
  vitest: nm('vitest/vitest.mjs'),
  electronVite: nm('electron-vite/bin/electron-vite.js'),
  playwright: nm('@playwright/test/cli.js'),
};

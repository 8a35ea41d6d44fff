import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './tests/e2e/env';

// End-to-end tests (README.md "Tests"): the headless shell + system Chromium, and the same specs on
// Electron through _electron.launch where an Electron binary exists (skipped with the reason otherwise).
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '.test-output/playwright.json' }]],
  globalSetup: './tests/e2e/globalSetup.ts',
  use: {
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'headless-chromium',
      use: {
        browserName: 'chromium',
        launchOptions: {
          ...(chromiumExecutable() ? { executablePath: chromiumExecutable() } : {}),
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
    { name: 'electron', use: {} },
  ],
});

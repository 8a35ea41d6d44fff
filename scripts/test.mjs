#!/usr/bin/env node
// `npm test`: typecheck, lint, a format check (prettier), unit and integration tests (vitest), build, then the end-to-end tests
// (Playwright). Every step runs even when an earlier one failed, so one run shows everything that is wrong.
// The last line counts every test that ran: `N passed, N failed` (`, N skipped` when any were skipped).
// A failed typecheck, lint or build is not a test, but it adds one to "failed" so the line never says
// 0 failed for a red run; the exit code is non-zero whenever anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, root } from './bin.mjs';

const outDir = join(root, '.test-output');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];
const times = [];

function run(name, args, opts = {}) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...opts.env },
  });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  times.push(`${name} ${secs}s`);
  const ok = r.status === 0;
  if (!ok) failedSteps.push(name);
  return ok;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

run('typecheck (node)', [BIN.tsc, '-p', 'tsconfig.node.json', '--noEmit']);
run('typecheck (web)', [BIN.tsc, '-p', 'tsconfig.web.json', '--noEmit']);
run('lint', [BIN.eslint, '--max-warnings', '0', '.']);
run('format check', [BIN.prettier, '--check', '.']);

const vitestJson = join(outDir, 'vitest.json');
run('unit and integration tests (vitest)', [
  BIN.vitest,
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
const v = readJson(vitestJson);
if (v) {
  totals.passed += v.numPassedTests ?? 0;
  totals.failed += v.numFailedTests ?? 0;
  totals.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
} else if (failedSteps.includes('unit and integration tests (vitest)')) {
  totals.failed += 1;
}

const built = run('build', [BIN.electronVite, 'build']);
const pwJson = join(outDir, 'playwright.json');
if (built) {
  run('end-to-end tests (Playwright)', [BIN.playwright, 'test'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson },
  });
  const p = readJson(pwJson);
  if (p?.stats) {
    totals.passed += (p.stats.expected ?? 0) + (p.stats.flaky ?? 0);
    totals.failed += p.stats.unexpected ?? 0;
    totals.skipped += p.stats.skipped ?? 0;
  } else if (failedSteps.includes('end-to-end tests (Playwright)')) {
    totals.failed += 1;
  }
}

for (const step of failedSteps) {
  if (['typecheck (node)', 'typecheck (web)', 'lint', 'format check', 'build'].includes(step))
    totals.failed += 1;
}

console.log(`\nSteps: ${times.join(' · ')}`);
if (failedSteps.length) console.log(`Failed steps: ${failedSteps.join(', ')}`);
if (!existsSync(pwJson) && built) console.log('Playwright wrote no report.');
console.log(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
process.exit(failedSteps.length || totals.failed ? 1 : 0);

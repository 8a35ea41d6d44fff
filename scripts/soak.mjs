#!/usr/bin/env node
// `npm run test:soak`: the soak tier (tests/soak/files.json on tests/soak/vitest.config.ts): the crash and channel
// kill cycles, the simulated day, pacing and the short watch benchmark, kept out of `npm test` because they are
// long. `.ci/run` runs it after `npm test`. It ends like `npm test`: a `Steps: …` line with the time taken, then
// `N passed, N failed` (`, N skipped` when any were skipped); a run that wrote no report counts one failure. The exit
// code is non-zero whenever anything failed. Extra arguments go to vitest (a file filter, `-t`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, root } from './bin.mjs';

const outDir = join(root, '.test-output');
mkdirSync(outDir, { recursive: true });
const report = join(outDir, 'soak.json');
rmSync(report, { force: true });

const started = Date.now();
console.log('\n▶ soak tests (vitest, tests/soak/vitest.config.ts)');
const r = spawnSync(
  process.execPath,
  [
    BIN.vitest,
    'run',
    '--config',
    'tests/soak/vitest.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
const secs = ((Date.now() - started) / 1000).toFixed(1);

let v;
try {
  v = JSON.parse(readFileSync(report, 'utf8'));
} catch {
  v = undefined;
}
const passed = v?.numPassedTests ?? 0;
const failed = (v?.numFailedTests ?? 0) + (v ? 0 : 1);
const skipped = (v?.numPendingTests ?? 0) + (v?.numTodoTests ?? 0);

console.log(`\nSteps: soak tests (vitest) ${secs}s`);
if (!v) console.log('vitest wrote no report.');
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(r.status !== 0 || failed ? 1 : 0);

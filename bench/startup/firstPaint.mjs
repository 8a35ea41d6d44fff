#!/usr/bin/env node
// Time from `node out/main/headless.js` to a URL, and the served page's first contentful paint and time until
// the app frame (navigation) is visible, in headless Chromium. Runs `runs` times on fresh data folders and
// prints the median. Needs `npm run build` first. Usage: node bench/startup/firstPaint.mjs [runs=5]
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const exe = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function startShell(dataDir) {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['out/main/headless.js', '--port', '0', '--data-dir', dataDir]);
    let out = '';
    proc.stdout.on('data', (c) => {
      out += c;
      const m = /Open: (\S+)/.exec(out);
      if (m) resolve({ url: m[1], proc, ms: performance.now() - t0 });
    });
    proc.on('exit', (c) => reject(new Error(`exited ${c}`)));
  });
}

const browser = await chromium.launch({
  ...(exe ? { executablePath: exe } : {}),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const rows = { serverReady: [], firstContentfulPaint: [], frameVisible: [] };
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'lotwatch-bench-'));
  const { url, proc, ms } = await startShell(dir);
  rows.serverReady.push(ms);
  const page = await browser.newPage();
  const t0 = Date.now();
  await page.goto(url);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  rows.frameVisible.push(Date.now() - t0);
  const fcp = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
  );
  rows.firstContentfulPaint.push(fcp);
  await page.close();
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
await browser.close();
console.log(`startup (median of ${runs})`);
console.log('| measure | ms |\n|---|---|');
for (const [k, v] of Object.entries(rows)) console.log(`| ${k} | ${median(v).toFixed(0)} |`);

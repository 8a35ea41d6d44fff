// A Lotwatch core in a child process, for the crash-restart test: it watches lots on the parent's sandbox, on a
// market clock shared through the wall clock (market = start + (wall - t0) * speed), and appends every notification
// it shows to a log file synchronously, so the parent sees exactly what a user would have seen before a kill -9.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCore } from '../../../../src/core/app';
import { openDatabase } from '../../../../src/core/db/connection';
import { silentLogger } from '../../../../src/core/log';
import { FileSecretBox } from '../../../../src/core/secrets';

const [dataDir, baseUrl, apiKey, marketStart, wallStart, speed] = process.argv.slice(2);
const t0 = Number(wallStart);
const m0 = Number(marketStart);
const k = Number(speed);
const clock = {
  now: () => Math.floor(m0 + (Date.now() - t0) * k),
  setTimeout: (fn: () => void, ms: number) => {
    const t = setTimeout(fn, Math.max(0, ms / k));
    return () => clearTimeout(t);
  },
};
// The client's timeouts and backoff wait in real time: the network is not accelerated.
const clientClock = {
  now: clock.now,
  setTimeout: (fn: () => void, ms: number) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};
const dbPath = join(dataDir!, 'lotwatch.sqlite');
const core = createCore({
  db: openDatabase(dbPath),
  dbPath,
  dataDir: dataDir!,
  clock,
  clientClock,
  secrets: new FileSecretBox(join(dataDir!, 'secret.key')),
  notifier: {
    notify: (n) => appendFileSync(join(dataDir!, 'notified.log'), `${JSON.stringify(n)}\n`),
  },
  log: silentLogger,
  shell: 'headless',
  version: 'crash-test',
  demoService: async () => ({ baseUrl: baseUrl!, apiKey: apiKey!, ratePerSecond: 1e9 }),
  tzOffsetMinutes: () => 0,
  demoExamples: false,
});
void core.ready.then(() => process.stdout.write('ready\n'));
process.on('SIGTERM', () => void core.dispose().then(() => process.exit(0)));

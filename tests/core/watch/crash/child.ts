// A Lotwatch core in a child process, for the crash-restart test: it watches lots on the parent's sandbox, on a
// market clock shared through the wall clock (market = start + (wall - t0) * speed), and keeps a journal the parent
// reads after each kill -9. Every journal line is appended synchronously (appendFileSync: in the kernel before the
// next statement runs, so a kill of the process cannot lose it) and only once the write it acknowledges is
// committed:
//   shown   a notification the user saw (the notifier port was called);
//   raised  the `alert.raised` event (after the outbox's claim is committed): the alert's row id, so each shown
//           notification can be tied to the row it came from (show() emits it right after the notifier returns);
//   poll    the `poll.finished` event (after the poll's transaction is committed);
//   read    an `alerts.markRead` call that answered ok (after its UPDATE is committed).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCore } from '../../../../src/core/app';
import { openDatabase } from '../../../../src/core/db/connection';
import { silentLogger } from '../../../../src/core/log';
import { FileSecretBox } from '../../../../src/core/secrets';

const [dataDir, baseUrl, apiKey, marketStart, wallStart, speed, notifyMs] = process.argv.slice(2);
const t0 = Number(wallStart);
const m0 = Number(marketStart);
const k = Number(speed);
const journal = join(dataDir!, 'journal.log');
const write = (entry: Record<string, unknown>) => appendFileSync(journal, `${JSON.stringify(entry)}\n`);
// A notification channel that takes a while (a real OS notification call does), half before and half after the
// user sees it, and says on stdout when it starts and when the user has seen it: the parent can then kill the
// process inside the outbox's claim -> show -> mark sequence on purpose, not once in a thousand random kills.
const lock = new Int32Array(new SharedArrayBuffer(4));
const pause = (ms: number) => {
  if (ms > 0) Atomics.wait(lock, 0, 0, ms);
};
const half = Number(notifyMs ?? 0) / 2;

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
    notify: (n) => {
      // Markers for the parent, which kills some cycles right here (stdout to a pipe is synchronous on Linux).
      process.stdout.write('notify\n');
      pause(half);
      write({ t: 'shown', title: n.title, body: n.body, lotKey: n.lotKey ?? null });
      process.stdout.write('shown\n');
      pause(half);
    },
  },
  log: silentLogger,
  shell: 'headless',
  version: 'crash-test',
  demoService: async () => ({ baseUrl: baseUrl!, apiKey: apiKey!, ratePerSecond: 1e9 }),
  tzOffsetMinutes: () => 0,
  demoExamples: false,
});
let raised = 0;
core.on((e) => {
  if (e.name === 'alert.raised') {
    write({ t: 'raised', ...e.payload });
    // Every other alert is also read by "the user", an acknowledged write through the contract.
    if (raised++ % 2 === 0) {
      const id = e.payload.id;
      setImmediate(() => {
        void core.invoke('alerts.markRead', { ids: [id], read: true }).then((r) => {
          if (r.ok) write({ t: 'read', id });
        });
      });
    }
  } else if (e.name === 'poll.finished') {
    write({ t: 'poll', ...e.payload });
  }
});
void core.ready.then(() => process.stdout.write('ready\n'));
process.on('SIGTERM', () => void core.dispose().then(() => process.exit(0)));

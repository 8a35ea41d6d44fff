// A Lotwatch core in a child process, for the crash-restart test: it watches lots on the parent's sandbox on a market
// clock that only the parent moves, and keeps a journal the parent reads after each kill -9. The sandbox's market is
// frozen too (speed 0); the parent advances it and then this clock by the same step, so both always agree and no run
// depends on how fast the machine is.
//
// Its arguments: the data folder (the journal, and the SQLite file unless a database is given), the service's URL
// and key, the market time (ms) to start at, and optionally a PostgreSQL address: the team's database to run on
// instead of the folder's SQLite file.
//
// Commands, one a line on stdin:
//   step <ms>      advance the clock by ms (due timers fire: the scheduler's ticks), wait until the engine is idle
//                  and every "read" the step started has answered, then print `stepped <now>`;
//   freeze <point> at the next `started` (a poll's run row is committed, its requests not yet answered), `notify`
//                  (the outbox has claimed an alert, the user has not seen it) or `shown` (the user has seen it, the
//                  outbox has not marked it delivered), print `frozen <point>` and stop dead until killed.
// It prints `ready` once started and `started` whenever a poll starts (stdout to a pipe is synchronous on Linux, so
// a line is out before the process can be killed after it).
//
// Every journal line is appended synchronously (appendFileSync: in the kernel before the next statement runs, so a
// kill of the process cannot lose it) and only once the write it acknowledges is committed:
//   shown   a notification the user saw (the notifier port was called);
//   raised  the `alert.raised` event (after the outbox's claim is committed): the alert's row id, so each shown
//           notification can be tied to the row it came from (show() emits it right after the notifier returns);
//   poll    the `poll.finished` event (after the poll's transaction is committed);
//   read    an `alerts.markRead` call that answered ok (after its UPDATE is committed).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { postgresDatabase } from '../../../../src/core/coreDatabase';
import { createLogger } from '../../../../src/core/log';
import { makeCore } from '../../../helpers/buildCore';
import { FakeClock } from '../../../helpers/fakeClock';

const [dataDir, baseUrl, apiKey, marketNow, databaseUrl] = process.argv.slice(2);
const journal = join(dataDir!, 'journal.log');
const write = (entry: Record<string, unknown>) => appendFileSync(journal, `${JSON.stringify(entry)}\n`);
const say = (line: string) => process.stdout.write(`${line}\n`);
// What core logs at warn and above (a tick that failed, a recovery at start), appended synchronously like the
// journal, for the parent to show when a check fails.
const logFile = join(dataDir!, 'child.log');
const log = createLogger({ level: 'warn', write: (line) => appendFileSync(logFile, `${line}\n`) });

type Point = 'started' | 'notify' | 'shown';
let armed: Point | null = null;
const lock = new Int32Array(new SharedArrayBuffer(4));
/**
 * Stops the process dead at `point` when the parent asked for it, until the parent's kill. (After two minutes it exits
 * on its own: only a parent that died itself never kills it, and the child must not outlive the test run.)
 */
const at = (point: Point) => {
  if (armed !== point) return;
  say(`frozen ${point}`);
  Atomics.wait(lock, 0, 0, 120_000);
  process.exit(70);
};

const clock = new FakeClock(Number(marketNow));
// The client's timeouts and backoff wait in real time: the network is not stepped.
const clientClock = {
  now: () => clock.now(),
  setTimeout: (fn: () => void, ms: number) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};
// On PostgreSQL: migrated (a no-op after the first start) and opened before core, as the headless shell does.
const database = databaseUrl ? await postgresDatabase(databaseUrl, { dataDir: dataDir!, clock }) : undefined;
const { core } = makeCore({
  dir: dataDir!,
  ...(database ? { database } : {}),
  clock,
  log,
  clientClock,
  notifier: {
    notify: (n) => {
      at('notify');
      write({ t: 'shown', title: n.title, body: n.body, lotKey: n.lotKey ?? null });
      at('shown');
    },
  },
  version: 'crash-test',
  demoService: async () => ({ baseUrl: baseUrl!, apiKey: apiKey!, ratePerSecond: 1e9 }),
  tzOffsetMinutes: () => 0,
  demoExamples: false,
});
let raised = 0;
const reads = new Set<Promise<unknown>>();
core.on((e) => {
  if (e.name === 'alert.raised') {
    write({ t: 'raised', ...e.payload });
    // Every other alert is also read by "the user", an acknowledged write through the contract.
    if (raised++ % 2 === 0) {
      const id = e.payload.id;
      const p = new Promise<void>((done) => {
        setImmediate(() => {
          void core.invoke('alerts.markRead', { ids: [id], read: true }).then((r) => {
            if (r.ok) write({ t: 'read', id });
            done();
          });
        });
      });
      reads.add(p);
      void p.then(() => reads.delete(p));
    }
  } else if (e.name === 'poll.started') {
    say('started');
    at('started');
  } else if (e.name === 'poll.finished') {
    write({ t: 'poll', ...e.payload });
  }
});

/** Advances the clock by `ms` and resolves once everything the step set off is done. */
async function step(ms: number): Promise<void> {
  clock.advance(ms);
  // An alert read while the engine was busy can start more work (the unread count): wait until both are quiet.
  for (;;) {
    await core.engine.idle();
    if (reads.size === 0) break;
    await Promise.all(reads);
  }
  say(`stepped ${clock.now()}`);
}

let queue: Promise<void> = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  const [cmd, arg] = line.split(' ');
  if (cmd === 'step') queue = queue.then(() => step(Number(arg)));
  else if (cmd === 'freeze') armed = arg as Point;
});
// The parent is gone (its end of stdin closed): so is the test.
process.stdin.on('close', () => process.exit(0));
void core.ready.then(() => say('ready'));
process.on('SIGTERM', () => void core.dispose().then(() => process.exit(0)));

import BetterSqlite3 from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_KEY, type Sandbox } from '../../../../src/sandbox/index';
import { CHANGE_KINDS } from '../../../../src/shared/watch';
import { tempDir } from '../../../helpers/tmp';
import { audit, readJournal, type Audit, type JournalEntry } from './journal';

// Crash safety (docs/architecture.md "An alert, from poll to notification"): kill -9 of a child process running the
// engine at random points, N cycles, then one orderly run. After every kill and at the end the data file is checked
// (integrity, every acknowledged write there, no alert shown twice, nothing marked delivered unseen); at the end
// also that nothing due stays pending and every sale of a watched lot was alerted once. The child runs on a market
// clock shared through the wall clock with the sandbox here, at SPEED x real time, so the cycles cover market hours
// in which lots go live and end. A seeded generator picks the kill points, so a failure can be replayed with the
// printed seed. Used by tests/core/watch/crash.test.ts (a few cycles, in `npm test`) and by the chaos suite (many).

const SPEED = 600;
const START = Date.UTC(2026, 5, 1, 9, 0, 0);
const MIN = 60_000;
/** How long the child's notification channel takes (ms): kills land inside the outbox's claim -> show -> mark. */
const NOTIFY_MS = 30;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** The numbers of one run, printed and returned. */
export interface CrashSummary {
  cycles: number;
  interrupted: number;
  alerts: number;
  shown: number;
  claimedUnshown: number;
  /** Alerts a kill left claimed, named in a recovery notice at the next start. */
  recovered: number;
  unpaired: number;
  polls: number;
  reads: number;
}

/** The cycle count from an environment variable (a positive integer), else `fallback`. */
export function cyclesFrom(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not ${v}`);
  return n;
}

/**
 * Declares the crash-restart suite: `cycles` kill -9 cycles then an orderly run, with the checks above.
 * `timeoutMs` bounds the whole run.
 */
export function crashSuite(opts: { cycles: number; seed?: number; timeoutMs: number }): void {
  const { cycles } = opts;
  const seed = opts.seed ?? 20261122;
  let sb: Sandbox;
  let dir: { dir: string; cleanup(): void };
  let childJs: string;
  let wallStart: number;

  /** A running child; `marker` resolves at the next `notify`/`shown` line it prints, or after `ms`, whichever first. */
  interface Child {
    p: ChildProcess;
    marker(name: 'notify' | 'shown', ms: number): Promise<boolean>;
  }

  function startChild(): Promise<Child> {
    return new Promise((res, rej) => {
      const args = [
        childJs,
        dir.dir,
        sb.baseUrl!,
        DEMO_KEY,
        String(START),
        String(wallStart),
        String(SPEED),
        String(NOTIFY_MS),
      ];
      const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      let out = '';
      const waiting = new Set<{ name: string; done: (hit: boolean) => void }>();
      p.stderr?.on('data', (c: Buffer) => (err += c.toString()));
      p.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const lines = out.split('\n');
        out = lines.pop()!;
        for (const l of lines) {
          if (l === 'ready') res({ p, marker });
          for (const w of waiting) if (w.name === l) w.done(true);
        }
      });
      p.on('exit', (code, sig) => {
        for (const w of waiting) w.done(false);
        if (sig !== 'SIGKILL' && code !== 0) rej(new Error(`child exited ${code}: ${err}`));
      });
      function marker(name: 'notify' | 'shown', ms: number): Promise<boolean> {
        return new Promise((done) => {
          const w = {
            name,
            done: (hit: boolean) => {
              clearTimeout(t);
              waiting.delete(w);
              done(hit);
            },
          };
          const t = setTimeout(() => w.done(false), ms);
          waiting.add(w);
        });
      }
    });
  }

  const killed = (p: ChildProcess) =>
    new Promise<void>((r) => {
      if (p.exitCode !== null || p.signalCode !== null) return r();
      p.once('exit', () => r());
      p.kill('SIGKILL');
    });

  const dbFile = () => join(dir.dir, 'lotwatch.sqlite');
  const journalFile = () => join(dir.dir, 'journal.log');
  /** Opens the data file read-only (the child is dead) for `fn`. */
  function readOnly<T>(fn: (db: BetterSqlite3.Database) => T): T {
    const db = new BetterSqlite3(dbFile(), { readonly: true });
    try {
      return fn(db);
    } finally {
      db.close();
    }
  }

  beforeAll(async () => {
    dir = tempDir('lotwatch-crash-');
    // Inside the project, so the bundle's bare imports (zod, undici, better-sqlite3) resolve from node_modules.
    const out = resolve('node_modules/.cache/lotwatch-test', `crash-${process.pid}`);
    await build({
      logLevel: 'silent',
      configFile: false,
      build: {
        ssr: resolve('tests/core/watch/crash/child.ts'),
        outDir: out,
        emptyOutDir: true,
        rollupOptions: { output: { format: 'es', entryFileNames: 'child.mjs' } },
      },
      ssr: { noExternal: [] },
    });
    childJs = join(out, 'child.mjs');
    wallStart = Date.now();
    sb = createSandbox({
      seed: 99,
      lots: 6000,
      startTime: START,
      speed: SPEED,
      now: () => Date.now() - 0,
      ratePerSecond: 0,
      // A plan far larger than the market hours need: at SPEED the default plan's daily share runs out in seconds of
      // wall time, and the budget then starves the watch checks this scenario depends on (a lot never seen open
      // before its sale has no end to alert, and the "nothing is lost" check would have nothing to check).
      quota: { limit: 100_000_000, periodMs: 30 * 24 * 3_600_000 },
    });
    // The sandbox's market clock must equal the child's: START + (wall - wallStart) * SPEED.
    await sb.start(0, '127.0.0.1');
    sb.advance(START + (Date.now() - wallStart) * SPEED - sb.marketNow());
  }, 60_000);

  afterAll(async () => {
    await sb?.dispose();
    dir?.cleanup();
  });

  describe(`crash and restart (kill -9, ${cycles} cycles, seed ${seed})`, () => {
    it(
      'keeps the file sound and every acknowledged write, shows no alert twice and leaves none pending',
      async () => {
        // Watch the lots that sell in the next four market hours (they go live and end during the cycles), with
        // every change kind, reminders and a high cap, so the outbox is busy and kills often land inside it.
        // From the market's time once the first child runs, not START: on a loaded machine the setup and a child's
        // start take seconds of wall time, tens of market minutes at SPEED, and lots chosen earlier would sell
        // before their first check (and then prove nothing: a lot first seen after its sale has no end to alert).
        const first = await startChild();
        const m = sb.market;
        const from = sb.marketNow();
        const lots = m.sorted
          .filter(
            (l) => l.subStatus === 'Open' && l.auctionAt > from + 40 * MIN && l.auctionAt < from + 240 * MIN,
          )
          .slice(0, 16);
        expect(lots.length).toBeGreaterThanOrEqual(4);
        const rules = JSON.stringify({
          kinds: CHANGE_KINDS.filter((k) => k !== 'dropped_out'),
          cap_per_lot_per_hour: 60,
          remind_minutes_before: [5, 20],
        });
        const db0 = new BetterSqlite3(dbFile());
        /** Watches `more` lots (and counts them among the watched `lots`). */
        const watch = (db: BetterSqlite3.Database, more: typeof lots) => {
          const insert = db.prepare(
            `INSERT INTO watches (kind, vin, lot_key, label, rules, is_example, created_at, updated_at)
             VALUES ('lot', NULL, ?, '', ?, 0, 0, 0)`,
          );
          for (const l of more) insert.run(`${l.platform}:${l.lotNumber}`, rules);
        };
        watch(db0, lots);
        // A saved search that runs every 5 market minutes (half a wall second) over several pages, so kills also land
        // inside search runs; it alerts on its lots' bids too, so most polls end with a round of notifications.
        db0
          .prepare(
            `INSERT INTO saved_searches (name, params, schedule, rules, max_pages, created_at, updated_at)
           VALUES ('crash', ?, '*/5 * * * *', ?, 3, 0, 0)`,
          )
          .run(JSON.stringify({ lot_sub_status: 'Live' }), rules);
        db0.close();
        await killed(first.p);
        // Slow answers, so that a kill often lands while a poll waits on the service.
        sb.faults.set({ latencyMs: 60, latencyJitterMs: 120 });

        const killedAt = new Set<number>([readJournal(journalFile()).length]);
        let claimedUnshown = 0;
        // Where the kills land: at a random time, or on purpose while a notification is being shown (before the
        // user saw it: the outbox has claimed the alert; after: it has not marked it delivered yet).
        const aimed = { random: 0, notify: 0, shown: 0 };
        const next = rng(seed);
        for (let i = 0; i < cycles; i++) {
          const c = await startChild();
          const ms = 150 + next() * 900;
          const pick = next();
          const mode = pick < 0.4 ? 'random' : pick < 0.7 ? 'notify' : 'shown';
          const hit =
            mode === 'random'
              ? (await new Promise((r) => setTimeout(r, ms)), false)
              : await c.marker(mode, ms);
          await killed(c.p);
          aimed[hit && mode !== 'random' ? mode : 'random']++;
          const entries = readJournal(journalFile());
          killedAt.add(entries.length);
          const a = readOnly((db) => audit(db, entries, killedAt));
          expect(a.problems, `after kill ${i + 1} of ${cycles} (seed ${seed}, ${mode})`).toEqual([]);
          // A kill between the outbox's claim and the notification loses that one notification (never the alert,
          // which stays in the inbox): at most one per kill, since the outbox shows one alert at a time.
          expect(
            a.claimedUnshown.length - claimedUnshown,
            `claimed but not shown, kill ${i + 1}`,
          ).toBeLessThanOrEqual(1);
          claimedUnshown = a.claimedUnshown.length;
        }
        // Every end of a watched lot that Lotwatch had seen open before it, by `marketEnd` (ms, market time).
        const endedSeenOpen = (marketEnd: number) =>
          readOnly((db) => {
            const firstSeen = db.prepare('SELECT min(observed_at) AS t FROM observations WHERE lot_key = ?');
            return lots.filter((l) => {
              const t = (firstSeen.get(`${l.platform}:${l.lotNumber}`) as { t: number | null }).t;
              return (
                l.subStatus === 'Ended' && l.auctionAt + 10 * MIN < marketEnd && t !== null && t < l.auctionAt
              );
            });
          });
        // One last run without a kill, long enough for every due poll and delivery, then an orderly stop. On a loaded
        // machine the killed cycles may have seen few lots open before their sale: the run then watches more and goes
        // on (at most 40 s) until three watched lots seen open have ended, so the "nothing is lost" check below has
        // something to check.
        // Answers at full speed again: the orderly run is there to finish what is due, not to be killed mid-poll.
        sb.faults.set({ latencyMs: 0, latencyJitterMs: 0 });
        const last = (await startChild()).p;
        await new Promise((r) => setTimeout(r, 2500));
        if (endedSeenOpen(sb.marketNow()).length < 3) {
          // The killed cycles saw too few lots open before their sale (each start took long): watch lots that sell
          // in the next market hour, which this unkilled run sees open and then ended.
          const now = sb.marketNow();
          const keys = new Set(lots.map((l) => l.lotNumber));
          const more = m.sorted
            .filter(
              (l) =>
                l.subStatus === 'Open' &&
                !keys.has(l.lotNumber) &&
                l.auctionAt > now + 20 * MIN &&
                l.auctionAt < now + 80 * MIN,
            )
            .slice(0, 6);
          const dbMore = new BetterSqlite3(dbFile());
          watch(dbMore, more);
          dbMore.close();
          lots.push(...more);
          const deadline = Date.now() + 40_000;
          while (endedSeenOpen(sb.marketNow()).length < 3 && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 500));
          }
        }
        last.kill('SIGTERM');
        await new Promise((r) => last.once('exit', r));

        const marketEnd = sb.marketNow();
        const entries = readJournal(journalFile());
        const final: Audit = readOnly((db) => audit(db, entries, killedAt));
        expect(final.problems, 'after the orderly run').toEqual([]);
        const { alerts } = final;
        const runs = readOnly(
          (db) =>
            (
              db.prepare("SELECT count(*) AS n FROM poll_runs WHERE status = 'interrupted'").get() as {
                n: number;
              }
            ).n,
        );
        // The kills did land inside polls, and alerts were shown (otherwise this test would prove nothing).
        expect(runs).toBeGreaterThan(0);
        expect(final.shownIds.length).toBeGreaterThan(0);
        expect(final.polls).toBeGreaterThan(0);

        // Nothing due stays undelivered: no alert pending, no held alert past its time, after the orderly run.
        expect(
          alerts.filter((a) => a.status === 'pending').map((a) => a.id),
          'pending after the orderly run',
        ).toEqual([]);
        expect(
          alerts.filter(
            (a) => a.status === 'digest' && a.deliver_after !== null && a.deliver_after <= marketEnd,
          ),
        ).toEqual([]);
        // No claimed alert is left untold after a restart: each one a kill left claimed was named in a recovery
        // notice at the next start, and that notice was shown.
        expect(final.claimedUnshown, 'claimed and never shown nor recovered after the orderly run').toEqual(
          [],
        );
        expect(
          final.recovered.filter((r) => !r.noticeShown),
          'recovered alerts whose notice was not shown',
        ).toEqual([]);
        // One new-match alert per lot and search.
        const matches = alerts.filter((a) => a.kind === 'new_match').map((a) => `${a.source}|${a.lot_key}`);
        expect(new Set(matches).size, 'a new match was alerted twice').toBe(matches.length);

        // Nothing is lost: every end of a watched lot that Lotwatch had seen open, and that happened before the last
        // run's polls, is in the inbox exactly once. (A lot first fetched after its sale has no change to report.)
        const ended = endedSeenOpen(marketEnd);
        expect(ended.length).toBeGreaterThanOrEqual(3);
        for (const l of ended) {
          const k = `${l.platform}:${l.lotNumber}`;
          expect(
            alerts.filter((a) => a.kind === 'sale_result' && a.lot_key === k),
            `sale result of ${k}`,
          ).toHaveLength(1);
        }

        // The checks can fail: the same audit over doctored journals finds each planted fault.
        const doctored = (change: (e: JournalEntry[]) => JournalEntry[], expected: RegExp) => {
          const d = readOnly((db) => audit(db, change(entries.map((e) => ({ ...e }))), killedAt));
          expect(d.problems.join('\n'), `doctored journal: ${expected}`).toMatch(expected);
        };
        const firstShown = entries.findIndex((e, i) => e.t === 'shown' && entries[i + 1]?.t === 'raised');
        expect(firstShown).toBeGreaterThanOrEqual(0);
        // The same notification shown again in a later cycle.
        doctored((e) => [...e, e[firstShown]!, e[firstShown + 1]!], /was shown 2 times/);
        // A notification that never reached the user, though its row says delivered.
        const deliveredShown = entries.findIndex(
          (e, i) =>
            e.t === 'shown' &&
            entries[i + 1]?.t === 'raised' &&
            alerts.find((a) => a.id === (entries[i + 1] as { id: number }).id)?.status === 'delivered',
        );
        expect(deliveredShown).toBeGreaterThanOrEqual(0);
        doctored((e) => e.filter((_, i) => i !== deliveredShown), /marked delivered but was never shown/);
        // A poll acknowledged that the file does not have; an alert acknowledged that is not there.
        const poll = entries.find((e) => e.t === 'poll')!;
        doctored((e) => [...e, { ...poll, at: poll.at + 1 }], /poll ack #\d+ missing/);
        doctored(
          (e) => [...e, { t: 'raised', id: 1e9, kind: 'bid_changed', title: 'x', body: 'y', lot_key: null }],
          /raised alert 1000000000/,
        );
        // A read acknowledged for an alert the file has unread.
        const unread = alerts.find((a) => a.read_at === null);
        if (unread) doctored((e) => [...e, { t: 'read', id: unread.id }], /acknowledged read/);
        // A notification shown without its alert, not at a kill.
        doctored(
          (e) => [...e, { t: 'shown', title: 'ghost', body: 'ghost', lotKey: null }],
          /not followed by its alert.raised/,
        );

        const summary: CrashSummary = {
          cycles,
          interrupted: runs,
          alerts: alerts.length,
          shown: final.shownIds.length,
          claimedUnshown: final.claimedUnshown.length,
          recovered: final.recovered.length,
          unpaired: final.unpaired,
          polls: final.polls,
          reads: final.reads,
        };
        const line =
          `[crash] ${cycles} kill -9 cycles (seed ${seed}; ${aimed.random} at a random time, ${aimed.notify} while a ` +
          `notification was about to show, ${aimed.shown} just after one showed): ${runs} polls interrupted, ${final.polls} polls and ` +
          `${final.reads} reads acknowledged, ${alerts.length} alerts, ${summary.shown} notifications shown, ` +
          `${summary.recovered} left claimed by a kill and named in a recovery notice at the next start, ` +
          `${summary.unpaired} shown just before a kill`;
        console.log(line);
        if (process.env.LOTWATCH_CHAOS_REPORT) appendFileSync(process.env.LOTWATCH_CHAOS_REPORT, `${line}\n`);
      },
      opts.timeoutMs,
    );
  });
}

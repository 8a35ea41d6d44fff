import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_KEY, type Sandbox } from '../../../../src/sandbox/index';
import { CHANGE_KINDS } from '../../../../src/shared/watch';
import { childScript } from '../../../helpers/children';
import { PG_MISSING, pgAvailable, testDatabase } from '../../../helpers/postgres';
import { tempDir } from '../../../helpers/tmp';
import { postgresFacts, sqliteFacts, type CrashFacts } from './facts';
import { audit, readJournal, type Audit, type JournalEntry } from './journal';

// Crash safety (docs/architecture.md "An alert, from poll to notification"): kill -9 of a child process running the
// engine at chosen points, N cycles, then one orderly run, on the desktop's SQLite file or on a team's PostgreSQL
// database (the same scenario and checks; facts.ts reads either). After every kill and at the end the database is
// checked (the engine's soundness check, every acknowledged write there, no alert shown twice, nothing marked
// delivered unseen); at the end
// also that nothing due stays pending and every sale of a watched lot was alerted once. The market is stepped: the
// sandbox here is frozen and the child's clock only moves when this test says so (child.ts), one market minute a
// step, so the cycles cover the market hours in which the watched lots go live and end on any machine, however
// slow. A seeded generator picks how many steps each cycle runs and where its kill lands, so a failure can be
// replayed with the printed seed. Used by tests/core/watch/crash.test.ts (a few cycles, in `npm run test:soak`) and
// by the chaos suite (many).

const START = Date.UTC(2026, 5, 1, 9, 0, 0);
const MIN = 60_000;
/** Market time per step (ms): the child's scheduler plans in minutes, so each step is one tick's worth. */
const STEP = MIN;
/**
 * Steps a cycle runs with a kill armed before it gives up and kills between two steps: a market hour, long enough for
 * a watched lot's next check while the sales are near (the budget may hold the saved search's pages back longer).
 */
const ARMED_STEPS = 60;
/** How long after its end a watched lot's sale has shown on the service and been checked (refresh lag and check, ms). */
const SHOWN_AFTER = 30 * MIN;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** The numbers of one run, printed and returned. */
export interface CrashSummary {
  engine: 'sqlite' | 'postgres';
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

/** Where a kill lands: where the child stops dead on purpose (child.ts "freeze"), or racing a poll it started. */
type Aim = 'started' | 'notify' | 'shown' | 'race';
const AIMS: readonly Aim[] = ['started', 'notify', 'shown', 'race'];

/**
 * Declares the crash-restart suite: `cycles` kill -9 cycles then an orderly run, with the checks above, on `engine`
 * (default SQLite: the child's data file; PostgreSQL: a database of its own on the run's test cluster, the suite
 * skipped with PG_MISSING when the run has none). `timeoutMs` bounds the whole run (a guard against a hung child,
 * not a speed target).
 */
export function crashSuite(opts: {
  cycles: number;
  seed?: number;
  timeoutMs: number;
  engine?: 'sqlite' | 'postgres';
}): void {
  const { cycles } = opts;
  const engine = opts.engine ?? 'sqlite';
  const seed = opts.seed ?? 20261122;
  const skip = engine === 'postgres' && !pgAvailable();
  const on = engine === 'postgres' ? ' on PostgreSQL' : ' on SQLite';
  describe.skipIf(skip)(`crash and restart${on}${skip ? ` (skipped: ${PG_MISSING})` : ''}`, () =>
    crashScenario(cycles, seed, opts.timeoutMs, engine),
  );
}

/** The suite's hooks and test (see crashSuite), inside its describe. */
function crashScenario(cycles: number, seed: number, timeoutMs: number, engine: 'sqlite' | 'postgres'): void {
  let sb: Sandbox;
  let dir: { dir: string; cleanup(): void };
  let childJs: string;
  /** The child's PostgreSQL database (its address), on that engine. */
  let databaseUrl: string | null = null;

  /**
   * A running child on the market's current time. `step` moves the sandbox and then the child one step and resolves
   * `stepped` when the child is done with it; with an `aim` it also resolves `frozen` once the child stopped at that
   * point (armed until then, across steps) or, for `race`, `started` at the first poll it starts (the child goes
   * on: the kill races it). It rejects, with the child's stderr, when the child exits on its own.
   */
  interface Child {
    p: ChildProcess;
    step(aim?: Aim): Promise<'stepped' | 'frozen' | 'started'>;
  }

  function startChild(): Promise<Child> {
    return new Promise((res, rej) => {
      const args = [childJs, dir.dir, sb.baseUrl!, DEMO_KEY, String(sb.marketNow())];
      if (databaseUrl) args.push(databaseUrl);
      const p = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      let err = '';
      let out = '';
      let waiting: { line(l: string): boolean; exited(): void } | null = null;
      p.stderr?.on('data', (c: Buffer) => (err += c.toString()));
      p.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const lines = out.split('\n');
        out = lines.pop()!;
        for (const l of lines) {
          if (l === 'ready') res(child);
          if (waiting?.line(l)) waiting = null;
        }
      });
      // A killed child's stdin may be closed under a write in flight.
      p.stdin?.on('error', () => undefined);
      p.on('exit', (code, sig) => {
        waiting?.exited();
        waiting = null;
        if (sig !== 'SIGKILL' && code !== 0) rej(new Error(`child exited ${code}: ${err}`));
      });
      const child: Child = {
        p,
        step(aim) {
          sb.advance(STEP);
          return new Promise((done, fail) => {
            waiting = {
              line: (l) => {
                const word = l.split(' ')[0]!;
                if (word === 'stepped' || word === 'frozen' || (aim === 'race' && word === 'started')) {
                  done(word as 'stepped' | 'frozen' | 'started');
                  return true;
                }
                return false;
              },
              exited: () => fail(new Error(`the child exited during a step: ${err}`)),
            };
            p.stdin!.write(`${aim && aim !== 'race' ? `freeze ${aim}\n` : ''}step ${STEP}\n`);
          });
        },
      };
    });
  }

  const killed = (p: ChildProcess) =>
    new Promise<void>((r) => {
      if (p.exitCode !== null || p.signalCode !== null) return r();
      p.once('exit', () => r());
      p.kill('SIGKILL');
    });

  const journalFile = () => join(dir.dir, 'journal.log');
  /** The children's log lines at `error` (child.ts: a failed tick, said with its cause), across every run so far. */
  const childErrors = (): string[] => {
    const f = join(dir.dir, 'child.log');
    if (!existsSync(f)) return [];
    return readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"level":"error"'));
  };
  /**
   * Opens the child's database for `fn` and closes it after: the SQLite file (read-only unless `write`; the child is
   * dead or waits between steps), or the PostgreSQL database.
   */
  async function withFacts<T>(fn: (facts: CrashFacts) => Promise<T>, write = false): Promise<T> {
    const facts = databaseUrl
      ? await postgresFacts(databaseUrl)
      : sqliteFacts(join(dir.dir, 'lotwatch.sqlite'), { write });
    try {
      return await fn(facts);
    } finally {
      await facts.close();
    }
  }

  beforeAll(async () => {
    dir = tempDir('lotwatch-crash-');
    childJs = childScript('crash-child');
    if (engine === 'postgres') databaseUrl = await testDatabase('crash');
    sb = createSandbox({
      seed: 99,
      lots: 6000,
      startTime: START,
      // Frozen: only the steps move it (Sandbox.advance), in step with the child's clock.
      speed: 0,
      ratePerSecond: 0,
      // A plan far larger than the market hours need, so the budget never starves the watch checks this scenario
      // depends on (a lot never seen open before its sale has no end to alert).
      quota: { limit: 100_000_000, periodMs: 30 * 24 * 3_600_000 },
    });
    await sb.start(0, '127.0.0.1');
  }, 60_000);

  afterAll(async () => {
    await sb?.dispose();
    dir?.cleanup();
  });

  describe(`kill -9, ${cycles} cycles, seed ${seed}`, () => {
    it(
      'keeps the database sound and every acknowledged write, shows no alert twice and leaves none pending',
      async () => {
        const began = Date.now();
        // Watch the lots that sell in the next four market hours (they go live and end during the cycles), with
        // every change kind, reminders and a high cap, so the outbox is busy and kills often land inside it.
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
        // With them, a saved search that runs every 5 market minutes over several pages, so kills also land inside
        // search runs; it alerts on its lots' bids too, so most polls end with a round of notifications.
        await withFacts(
          (f) =>
            f.setUp(
              lots.map((l) => `${l.platform}:${l.lotNumber}`),
              rules,
              {
                name: 'crash',
                params: JSON.stringify({ lot_sub_status: 'Live' }),
                schedule: '*/5 * * * *',
                maxPages: 3,
              },
            ),
          true,
        );
        await killed(first.p);
        // Slow answers, so that a kill racing a poll often lands while it waits on the service.
        sb.faults.set({ latencyMs: 5, latencyJitterMs: 20 });

        const killedAt = new Set<number>([readJournal(journalFile()).length]);
        let claimedUnshown = 0;
        // Where the kills landed: stopped dead inside a poll (its run row committed), before or after the user saw a
        // notification (the outbox has claimed the alert and not marked it delivered), racing a poll, or, when the
        // armed point did not come within ARMED_STEPS, between two steps.
        const landed = { started: 0, notify: 0, shown: 0, race: 0, between: 0 };
        const next = rng(seed);
        for (let i = 0; i < cycles; i++) {
          const c = await startChild();
          // A few whole steps first, so every cycle moves the market on; then steps with the kill armed.
          const whole = 1 + Math.floor(next() * 5);
          for (let k = 0; k < whole; k++) await c.step();
          // The first cycles aim at each point once, so that even a short run kills inside a poll and the outbox.
          const pick = next();
          const aim: Aim =
            AIMS[i] ?? (pick < 0.35 ? 'started' : pick < 0.6 ? 'notify' : pick < 0.8 ? 'shown' : 'race');
          let hit = false;
          for (let k = 0; k < ARMED_STEPS && !hit; k++) {
            hit = (await c.step(aim)) !== 'stepped';
          }
          await killed(c.p);
          landed[hit ? aim : 'between']++;
          const entries = readJournal(journalFile());
          killedAt.add(entries.length);
          const a = await withFacts((f) => audit(f, entries, killedAt));
          expect(a.problems, `after kill ${i + 1} of ${cycles} (seed ${seed}, ${aim})`).toEqual([]);
          // A kill between the outbox's claim and the notification loses that one notification (never the alert,
          // which stays in the inbox): at most one per kill, since the outbox shows one alert at a time.
          expect(
            a.claimedUnshown.length - claimedUnshown,
            `claimed but not shown, kill ${i + 1}`,
          ).toBeLessThanOrEqual(1);
          claimedUnshown = a.claimedUnshown.length;
        }
        // Every end of a watched lot that Lotwatch had seen open before it, by `marketEnd` (ms, market time).
        const endedSeenOpen = async (marketEnd: number) => {
          const firstSeen = await withFacts((f) =>
            f.firstSeen(lots.map((l) => `${l.platform}:${l.lotNumber}`)),
          );
          return lots.filter((l) => {
            const t = firstSeen.get(`${l.platform}:${l.lotNumber}`);
            return (
              l.subStatus === 'Ended' &&
              l.auctionAt + 10 * MIN < marketEnd &&
              t !== undefined &&
              t < l.auctionAt
            );
          });
        };
        // One last run without a kill, stepped until every watched lot's sale has had time to show (its auction plus
        // the service's refresh lag), then an orderly stop. Answers at full speed again: the orderly run is there to
        // finish what is due. It takes one step at least, even when the cycles went past that time already: a step
        // waits for the start's work (the recovery notice for alerts the last kill left claimed) and its first tick,
        // which shows what is due; a stop before that leaves it pending for the next start, not for this check.
        sb.faults.set({ latencyMs: 0, latencyJitterMs: 0 });
        const last = await startChild();
        const until =
          Math.max(...lots.map((l) => m.timeline(l.lotNumber)?.endAt ?? l.auctionAt)) + SHOWN_AFTER;
        let orderlySteps = 0;
        do {
          await last.step();
          orderlySteps++;
        } while (sb.marketNow() < until);
        const stopped = new Promise((r) => last.p.once('exit', r));
        last.p.kill('SIGTERM');
        await stopped;

        const marketEnd = sb.marketNow();
        const entries = readJournal(journalFile());
        const final: Audit = await withFacts((f) => audit(f, entries, killedAt));
        expect(final.problems, 'after the orderly run').toEqual([]);
        const { alerts } = final;
        const runs = final.interrupted;
        // The kills did land inside polls, and alerts were shown (otherwise this test would prove nothing).
        expect(runs).toBeGreaterThan(0);
        expect(final.shownIds.length).toBeGreaterThan(0);
        expect(final.polls).toBeGreaterThan(0);

        // Nothing due stays undelivered: no alert pending, no held alert past its time, after the orderly run.
        expect(
          alerts.filter((a) => a.status === 'pending'),
          `pending after the orderly run (market end ${marketEnd}; the children's last errors: ` +
            `${childErrors().slice(-3).join('\n') || 'none'})`,
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
        // The market only moves when a step is taken and the first steps check every watched lot, so every lot
        // that ended was seen open first, on any machine.
        const ended = await endedSeenOpen(marketEnd);
        expect(ended.map((l) => l.lotNumber)).toEqual(
          lots.filter((l) => l.subStatus === 'Ended').map((l) => l.lotNumber),
        );
        expect(ended.length).toBeGreaterThanOrEqual(3);
        for (const l of ended) {
          const k = `${l.platform}:${l.lotNumber}`;
          expect(
            alerts.filter((a) => a.kind === 'sale_result' && a.lot_key === k),
            `sale result of ${k}`,
          ).toHaveLength(1);
        }

        // The checks can fail: the same audit over doctored journals finds each planted fault.
        const doctored = async (change: (e: JournalEntry[]) => JournalEntry[], expected: RegExp) => {
          const d = await withFacts((f) => audit(f, change(entries.map((e) => ({ ...e }))), killedAt));
          expect(d.problems.join('\n'), `doctored journal: ${expected}`).toMatch(expected);
        };
        const firstShown = entries.findIndex((e, i) => e.t === 'shown' && entries[i + 1]?.t === 'raised');
        expect(firstShown).toBeGreaterThanOrEqual(0);
        // The same notification shown again in a later cycle.
        await doctored((e) => [...e, e[firstShown]!, e[firstShown + 1]!], /was shown 2 times/);
        // A notification that never reached the user, though its row says delivered.
        const deliveredShown = entries.findIndex(
          (e, i) =>
            e.t === 'shown' &&
            entries[i + 1]?.t === 'raised' &&
            alerts.find((a) => a.id === (entries[i + 1] as { id: number }).id)?.status === 'delivered',
        );
        expect(deliveredShown).toBeGreaterThanOrEqual(0);
        await doctored(
          (e) => e.filter((_, i) => i !== deliveredShown),
          /marked delivered but was never shown/,
        );
        // A poll acknowledged that the file does not have; an alert acknowledged that is not there.
        const poll = entries.find((e) => e.t === 'poll')!;
        await doctored((e) => [...e, { ...poll, at: poll.at + 1 }], /poll ack #\d+ missing/);
        await doctored(
          (e) => [...e, { t: 'raised', id: 1e9, kind: 'bid_changed', title: 'x', body: 'y', lot_key: null }],
          /raised alert 1000000000/,
        );
        // A read acknowledged for an alert the file has unread.
        const unread = alerts.find((a) => a.read_at === null);
        if (unread) await doctored((e) => [...e, { t: 'read', id: unread.id }], /acknowledged read/);
        // A notification shown without its alert, not at a kill.
        await doctored(
          (e) => [...e, { t: 'shown', title: 'ghost', body: 'ghost', lotKey: null }],
          /not followed by its alert.raised/,
        );

        const summary: CrashSummary = {
          engine,
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
          `[crash] ${engine}: ${cycles} kill -9 cycles (seed ${seed}; ${landed.started} inside a poll, ${landed.notify} while a ` +
          `notification was about to show, ${landed.shown} just after one showed, ${landed.race} racing a poll, ` +
          `${landed.between} between steps): ${runs} polls interrupted, ${final.polls} polls and ` +
          `${final.reads} reads acknowledged, ${alerts.length} alerts, ${summary.shown} notifications shown, ` +
          `${summary.recovered} left claimed by a kill and named in a recovery notice at the next start, ` +
          `${summary.unpaired} shown just before a kill; ${ended.length} watched lots ended, each alerted once, in ` +
          `${Math.round((marketEnd - START) / MIN)} market minutes (${orderlySteps} steps of the orderly run); ` +
          `${childErrors().length} errors logged; ` +
          `${Math.round((Date.now() - began) / 1000)} s`;
        console.log(line);
        if (process.env.LOTWATCH_CHAOS_REPORT) appendFileSync(process.env.LOTWATCH_CHAOS_REPORT, `${line}\n`);
      },
      timeoutMs,
    );
  });
}

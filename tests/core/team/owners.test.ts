import { AsyncResource } from 'node:async_hooks';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER, runAs, type Actor } from '../../../src/core/actor';
import { postgresDatabase } from '../../../src/core/coreDatabase';
import type { LotwatchError } from '../../../src/core/errors';
import type {
  CallWatchView,
  MethodOutput,
  SavedSearchView,
  WatchView,
} from '../../../src/shared/ipc/contract';
import { DEMO_CALL_EXAMPLE } from '../../../src/sandbox/index';
import { makeCore, type TestCore } from '../../helpers/buildCore';
import { coreEngines, type CoreEngine } from '../../helpers/coreEngines';
import { FakeClock } from '../../helpers/fakeClock';
import { testDatabase } from '../../helpers/postgres';
import { startSandbox, type Sandbox } from '../../helpers/sandbox';
import { tempDir } from '../../helpers/tmp';

// Who made the team's things and who spent each request (src/core/owners.ts, src/core/db/members.ts), through
// createCore and runAs as a team server runs each member's request, on a team's PostgreSQL database and on the
// desktop's SQLite file: searches, watches and call watches name their maker; the request log names who spent each
// request and Usage sums a month per member and for the watcher; a save made on an older copy is refused with who
// changed it and when, and nothing is overwritten. Outside any runAs (the desktop) nothing is anybody's.

/** Wed 10 June 2026, 12:00 UTC (the tests' time zone is UTC). */
const START = Date.UTC(2026, 5, 10, 12, 0, 0);
const MIN = 60_000;
const DANA: Actor = { userId: 1, name: 'Dana', role: 'buyer' };
const BEN: Actor = { userId: 2, name: 'Ben', role: 'admin' };

/**
 * A fake clock whose timers run in the async context that set them, as Node's own timers do (a real server's
 * clock): a timer armed during a member's call would run as that member unless core says otherwise.
 */
class ServerClock extends FakeClock {
  override setTimeout(fn: () => void, ms: number): () => void {
    return super.setTimeout(AsyncResource.bind(fn), ms);
  }
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ seed: 34, lots: 300, startTime: START, speed: 0, ratePerSecond: 0 });
});
afterAll(async () => sb.dispose());

/** A core over a fresh database of `engine`, on the sandbox, with SQL on the same database for the test's rows. */
interface Place {
  t: TestCore<FakeClock>;
  clock: FakeClock;
  sql(text: string, params?: unknown[]): Promise<void>;
}

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function place(engine: CoreEngine, clock: FakeClock = new FakeClock(START)): Promise<Place> {
  const dir = tempDir();
  closing.push(async () => dir.cleanup());
  const url = engine.name === 'postgres' ? await testDatabase('owners') : null;
  const database = url ? await postgresDatabase(url, { dataDir: dir.dir, clock }) : undefined;
  const t = makeCore({ sandbox: sb, clock, dir: dir.dir, ...(database ? { database } : {}) });
  closing.push(() => t.core.dispose());
  await t.core.ready;
  if (!url) return { t, clock, sql: async (text, params = []) => void t.db.prepare(text).run(...params) };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  closing.push(() => client.end());
  return {
    t,
    clock,
    sql: async (text, params = []) => {
      let n = 0;
      await client.query(
        text.replace(/\?/g, () => `$${++n}`),
        params,
      );
    },
  };
}

/** The team's two members in `users`, as the accounts module stores them. */
async function addMembers(p: Place): Promise<void> {
  for (const m of [DANA, BEN])
    await p.sql(
      `INSERT INTO users (id, login, name, role, password_hash, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'not-a-hash', 0, 0)`,
      [m.userId, m.name.toLowerCase(), m.name, m.role],
    );
}

/** `core.call` as `who` (a team server runs each request so), or as the local owner. */
function as<T>(p: Place, who: Actor, fn: (call: TestCore['core']['call']) => Promise<T>): Promise<T> {
  return runAs(who, () => fn(p.t.core.call.bind(p.t.core)));
}

/** A saved search's input: one page every 30 minutes. */
const search = (name: string) => ({
  name,
  params: { make: 'TOYOTA' },
  schedule: '*/30 * * * *',
  max_pages: 1,
});

/** An open lot of the sandbox with its sale more than a day ahead. */
const openLot = (skip = 0) =>
  sb.market.sorted.filter((l) => l.subStatus === 'Open' && l.auctionAt > START + 86_400_000)[skip]!;

/** Who spent each request of the log (the member's name, null: the watcher or the local owner), newest first. */
async function spenders(p: Place): Promise<(string | null)[]> {
  const log = await p.t.core.call('requests.list', { limit: 1000 });
  return log.rows.map((r) => r.user_name);
}

/** The error a call rejects with. */
async function refusal(p: Promise<unknown>): Promise<LotwatchError> {
  try {
    await p;
  } catch (e) {
    return e as LotwatchError;
  }
  throw new Error('the call was not refused');
}

for (const engine of coreEngines()) {
  describe.skipIf(engine.skip)(`who made what, and who spent what, on ${engine.name}`, () => {
    it('names who made each search, watch and call watch; the local owner’s are nobody’s', async () => {
      const p = await place(engine);
      await addMembers(p);
      const byDana = await as(p, DANA, (call) => call('searches.create', search('Dana’s Toyotas')));
      const mine = await p.t.core.call('searches.create', search('Before the team'));
      const watched = await as(p, BEN, (call) => call('watchlist.add', { target: openLot().lotNumber }));
      const calls = await as(p, DANA, (call) =>
        call('callWatches.create', { ...DEMO_CALL_EXAMPLE, paused: true }),
      );
      // Each view as the call that made it answers, and as every member's list reads it.
      expect(byDana.created_by).toEqual({ id: 1, name: 'Dana' });
      expect(mine.created_by).toBeNull();
      expect(watched.created_by).toEqual({ id: 2, name: 'Ben' });
      expect(calls.created_by).toEqual({ id: 1, name: 'Dana' });
      const searches: SavedSearchView[] = await as(p, BEN, (call) => call('searches.list', undefined));
      expect(searches.map((s) => [s.name, s.created_by])).toEqual([
        ['Dana’s Toyotas', { id: 1, name: 'Dana' }],
        ['Before the team', null],
      ]);
      const watches: WatchView[] = await as(p, DANA, (call) => call('watchlist.list', undefined));
      expect(watches.map((w) => w.created_by)).toEqual([{ id: 2, name: 'Ben' }]);
      const callWatches: CallWatchView[] = await p.t.core.call('callWatches.list', undefined);
      expect(callWatches.map((c) => c.created_by)).toEqual([{ id: 1, name: 'Dana' }]);
      // A member renamed is shown by the new name; a member the accounts no longer hold names nobody.
      await p.sql("UPDATE users SET name = 'Dana K.' WHERE id = 1");
      await p.sql('DELETE FROM users WHERE id = 2');
      expect((await p.t.core.call('searches.list', undefined))[0]!.created_by).toEqual({
        id: 1,
        name: 'Dana K.',
      });
      expect((await p.t.core.call('watchlist.list', undefined))[0]!.created_by).toBeNull();
    });

    it('the request log names who spent each request, and Usage sums this month per member and for the watcher', async () => {
      const clock = new ServerClock(START);
      const p = await place(engine, clock);
      await addMembers(p);
      // Last month's requests are not this month's.
      await p.sql(
        `INSERT INTO request_log (at, endpoint, status, duration_ms, bytes, attempt, error_code, quota_id, user_id)
         VALUES (?, '/vehicles', 200, 10, 100, 1, NULL, 'demo', 1)`,
        [Date.UTC(2026, 4, 31, 23, 59, 59)],
      );
      p.t.core.engine.start();
      await p.t.core.engine.idle();
      const started = (await spenders(p)).length - 1; // the watcher's first tick, after last month's row
      // Dana's live search; Ben adds a watch and checks it now; Dana saves a search, which arms the watcher's timer
      // inside her call: its runs are still the watcher's own.
      const before = (await spenders(p)).length;
      await as(p, DANA, (call) => call('vehicles.search', { params: { make: 'TOYOTA' } }));
      const afterDana = await spenders(p);
      const danas = afterDana.length - before;
      expect(danas).toBeGreaterThan(0);
      expect(afterDana.slice(0, danas)).toEqual(Array(danas).fill('Dana'));
      const w = await as(p, BEN, (call) => call('watchlist.add', { target: openLot(1).lotNumber }));
      await as(p, BEN, (call) => call('watchlist.checkNow', { id: w.id }));
      const afterBen = await spenders(p);
      const bens = afterBen.length - afterDana.length;
      expect(bens).toBeGreaterThanOrEqual(2);
      expect(afterBen.slice(0, bens)).toEqual(Array(bens).fill('Ben'));
      await as(p, DANA, (call) => call('searches.create', search('Every half hour')));
      clock.advance(31 * MIN);
      await p.t.core.engine.idle();
      const afterWatcher = await spenders(p);
      const watchers = afterWatcher.length - afterBen.length;
      expect(watchers).toBeGreaterThan(0);
      expect(afterWatcher.slice(0, watchers)).toEqual(Array(watchers).fill(null));
      // Usage this month: as a member sees it, and as the local owner does.
      const month = { since: Date.UTC(2026, 5, 1), until: Date.UTC(2026, 6, 1) };
      const byUser: MethodOutput<'usage.byUser'> = await as(p, BEN, (call) =>
        call('usage.byUser', undefined),
      );
      const expected = [
        { user_id: 1, name: 'Dana', requests: danas },
        { user_id: 2, name: 'Ben', requests: bens },
        { user_id: null, name: 'The watcher', requests: started + watchers },
      ].sort((a, b) => b.requests - a.requests || a.name.localeCompare(b.name));
      expect(byUser).toEqual({ ...month, rows: expected });
      const sum = byUser.rows.reduce((n, r) => n + r.requests, 0);
      expect(sum).toBe(afterWatcher.length - 1);
      const own = await p.t.core.call('usage.byUser', undefined);
      expect(own.rows.find((r) => r.user_id === null)!.name).toBe('You');
    });

    it('refuses a save made on an older copy, saying who changed it and when, and overwrites nothing', async () => {
      const p = await place(engine);
      await addMembers(p);
      const s = await as(p, DANA, (call) => call('searches.create', search('Toyotas')));
      const theirs = await p.t.core.call('searches.create', search('The local owner’s'));
      const copy = s.updated_at; // what Ben's dialog read
      expect(copy).toBe(START);
      p.clock.advance(MIN);
      const edited = await as(p, DANA, (call) =>
        call('searches.update', { id: s.id, ...search('Toyotas, Dana’s edit'), expected_updated_at: copy }),
      );
      expect(edited.updated_at).toBe(START + MIN);
      p.clock.advance(MIN);
      const stale = { id: s.id, ...search('Toyotas, Ben’s edit'), expected_updated_at: copy };
      const e = await refusal(as(p, BEN, (call) => call('searches.update', stale)));
      expect(e.code).toBe('conflict');
      expect(e.message).toBe(
        'Changed by Dana at Wed Jun 10, 12:01 PM. Reload it and make your change again.',
      );
      // Dana's own stale save names her as "you"; a change by the local owner reads as someone's.
      const mine = await refusal(as(p, DANA, (call) => call('searches.update', stale)));
      expect(mine.message).toBe(
        'Changed by you at Wed Jun 10, 12:01 PM. Reload it and make your change again.',
      );
      const old = { id: theirs.id, ...search('Ben’s'), expected_updated_at: START - 1 };
      const someone = await refusal(as(p, BEN, (call) => call('searches.update', old)));
      expect(someone.message).toBe(
        'Changed by someone at Wed Jun 10, 12:00 PM. Reload it and make your change again.',
      );
      // Nothing was written: Dana's edit stands.
      const listed: SavedSearchView[] = await p.t.core.call('searches.list', undefined);
      expect(listed.map((x) => [x.name, x.updated_at])).toEqual([
        ['Toyotas, Dana’s edit', START + MIN],
        ['The local owner’s', START],
      ]);
      // Two members saving the same copy at once: one wins, the other is refused.
      const same = listed[0]!.updated_at;
      const race = await Promise.allSettled(
        [DANA, BEN].map((who) =>
          as(p, who, (call) =>
            call('searches.update', { id: s.id, ...search(`${who.name} won`), expected_updated_at: same }),
          ),
        ),
      );
      expect(race.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const lost = race.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect((lost.reason as LotwatchError).code).toBe('conflict');
      // Without a copy's time a save is written as before (the desktop's dialog, an older page).
      const plain = await as(p, BEN, (call) =>
        call('searches.update', { id: s.id, ...search('Ben, later') }),
      );
      expect(plain.name).toBe('Ben, later');
    });

    it('refuses a watch’s rules saved on an older copy, and keeps the newer rules', async () => {
      const p = await place(engine);
      await addMembers(p);
      const w = await as(p, DANA, (call) => call('watchlist.add', { target: openLot(2).lotNumber }));
      p.clock.advance(MIN);
      await as(p, DANA, (call) =>
        call('watchlist.setRules', { id: w.id, label: 'Dana’s', expected_updated_at: w.updated_at }),
      );
      const e = await refusal(
        as(p, BEN, (call) =>
          call('watchlist.setRules', { id: w.id, label: 'Ben’s', expected_updated_at: w.updated_at }),
        ),
      );
      expect(e.code).toBe('conflict');
      expect(e.message).toBe(
        'Changed by Dana at Wed Jun 10, 12:01 PM. Reload it and make your change again.',
      );
      const [now] = await p.t.core.call('watchlist.list', undefined);
      expect([now!.label, now!.created_by]).toEqual(['Dana’s', { id: 1, name: 'Dana' }]);
    });

    it('on the desktop (outside any member’s call) nothing is anybody’s, and Usage has one row: you', async () => {
      const p = await place(engine);
      const s = await p.t.core.call('searches.create', search('Mine'));
      await p.t.core.call('vehicles.search', { params: { make: 'TOYOTA' } });
      await runAs(LOCAL_OWNER, () => p.t.core.engine.runDue());
      expect(s.created_by).toBeNull();
      const spent = await spenders(p);
      expect(spent.length).toBeGreaterThan(0);
      expect(new Set(spent)).toEqual(new Set([null]));
      const usage = await p.t.core.call('usage.byUser', undefined);
      expect(usage.rows).toEqual([{ user_id: null, name: 'You', requests: spent.length }]);
    });
  });
}

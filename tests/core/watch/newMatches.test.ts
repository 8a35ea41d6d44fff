import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../src/shared/ipc/errors';
import { coresPerTest, type TestCore } from '../../helpers/core';
import type { FakeClock } from '../../helpers/fakeClock';
import { sandboxPerFile, startSandbox, type Sandbox } from '../../helpers/sandbox';

// A saved search's "new match" must mean a lot listed since the search began watching, never one that was there
// but not read yet (docs/architecture.md "Saved searches and new matches"). Core against the sandbox over HTTP,
// on fake time; the sandbox's market lists new lots over time (arrivals and relists, src/sandbox/market.ts), and
// its own records say when each lot was listed: the ground truth.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// About 150 open lots in this market (the median comparable search in the real market has about 90, half over 100):
// far more than the 2 pages of 20 a run reads.
const PARAMS = { make: 'KIA' };
const MARKET = { seed: 5, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0 };
let sb: Sandbox;
sandboxPerFile(MARKET, (started) => (sb = started));
const startCore = coresPerTest();
const makeCore = () => startCore({ sandbox: sb });

type Call = TestCore['call'];

const value = <T>(r: Result<T>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

/** Moves the core's clock and the sandbox's market on by `ms` together. */
function advance(clock: FakeClock, ms: number): void {
  clock.advance(ms);
  sb.advance(ms);
}

/** Lot numbers of every new-match alert so far (all pages of alerts.list). */
async function newMatchLots(call: Call): Promise<string[]> {
  const out: string[] = [];
  let before: number | undefined;
  for (;;) {
    const page = value(
      await call<{ alerts: { id: number; kind: string; lot_key: string | null }[] }>('alerts.list', {
        limit: 500,
        ...(before ? { before_id: before } : {}),
      }),
    );
    for (const a of page.alerts)
      if (a.kind === 'new_match' && a.lot_key) out.push(a.lot_key.slice(a.lot_key.indexOf(':') + 1));
    if (page.alerts.length < 500) return out;
    before = page.alerts.at(-1)!.id;
  }
}

/** The search's lots in the market that were listed at or before `t` (ms): they are not new after `t`. */
function listedBy(t: number): Set<string> {
  return new Set(
    sb.market.lots.filter((l) => l.v.spec.make === PARAMS.make && l.createdAt <= t).map((l) => l.lotNumber),
  );
}

type Coverage = { baseline_done: number; sweep_from: number | null };

/**
 * Runs search `id` every hour until its baseline is done and its next run is a window more than three days down the
 * list (at most 20 runs), and checks that it got there; returns the requests spent, the coverage then and the list's
 * head lot (the next to sell).
 */
async function runUntilWindowFar(
  call: Call,
  clock: FakeClock,
  id: unknown,
  coverage: BetterSqlite3.Statement,
): Promise<{ spent: number; c: Coverage; head: Sandbox['market']['sorted'][number] }> {
  let spent = 0;
  let c = coverage.get(id) as Coverage;
  for (
    let i = 0;
    i < 20 && !(c.baseline_done && c.sweep_from !== null && c.sweep_from > sb.marketNow() + 3 * DAY);
    i++
  ) {
    spent += value(await call<{ requests: number }>('searches.runNow', { id })).requests;
    advance(clock, HOUR);
    c = coverage.get(id) as Coverage;
  }
  expect(c.baseline_done).toBe(1);
  const head = sb.market.sorted.find(
    (l) => l.v.spec.make === PARAMS.make && l.subStatus === 'Open' && l.auctionAt > sb.marketNow(),
  )!;
  // The window starts more than a day after the head lot's sale: without the head page a run would not read it.
  expect(c.sweep_from! - 12 * HOUR).toBeGreaterThan(head.auctionAt + DAY);
  return { spent, c, head };
}

describe('new matches of a search longer than one run', () => {
  it('a first run cut short by max_pages is no baseline: the complete run after it alerts no lot that was there', async () => {
    const { clock, call } = await makeCore();
    const t0 = sb.marketNow();
    const openNow = sb.market.sorted.filter(
      (l) => l.v.spec.make === PARAMS.make && l.subStatus === 'Open' && l.auctionAt > t0,
    );
    expect(openNow.length).toBeGreaterThan(100);
    const s = value(
      await call('searches.create', { name: 'Kias', params: PARAMS, schedule: '0 * * * *', max_pages: 2 }),
    );
    expect(value(await call('searches.runNow', { id: s['id'] }))).toMatchObject({
      status: 'ok',
      requests: 2,
    });
    advance(clock, HOUR);
    // The same search may now read all its pages: one complete reading.
    value(
      await call('searches.update', {
        id: s['id'],
        name: 'Kias',
        params: PARAMS,
        schedule: '0 * * * *',
        max_pages: 50,
      }),
    );
    value(await call('searches.runNow', { id: s['id'] }));
    advance(clock, HOUR);
    value(await call('searches.runNow', { id: s['id'] }));
    const old = listedBy(t0);
    const alerted = await newMatchLots(call);
    expect(alerted.filter((n) => old.has(n))).toEqual([]);
  });

  it('a run the budget stops before its first page did not happen: no failure, no run time, the search stays due', async () => {
    const { clock, call } = await makeCore();
    value(await call('settings.update', { requestsPerDay: 2 }));
    const s = value(
      await call('searches.create', { name: 'Kias', params: PARAMS, schedule: '0 * * * *', max_pages: 2 }),
    );
    // Cut short by max_pages, not by the budget: a run of its own.
    expect(value(await call('searches.runNow', { id: s['id'] }))).toMatchObject({
      status: 'ok',
      requests: 2,
    });
    const ranAt = clock.now();
    advance(clock, HOUR);
    expect(value(await call('searches.runNow', { id: s['id'] }))).toMatchObject({
      status: 'skipped',
      requests: 0,
    });
    const after = value(
      await call<{ id: number; last_run_at: number | null; consecutive_failures: number }[]>('searches.list'),
    ).find((x) => x.id === s['id'])!;
    expect(after).toMatchObject({ last_run_at: ranAt, consecutive_failures: 0 });
  });

  it('a run that goes on down the list in a window reads the head of the list too: the lots about to sell', async () => {
    const { clock, call, dbPath } = await makeCore();
    const db = new BetterSqlite3(dbPath, { readonly: true });
    const coverage = db.prepare('SELECT baseline_done, sweep_from FROM saved_searches WHERE id = ?');
    const lastSeen = db.prepare('SELECT last_observed_at FROM lots WHERE lot_key = ?');
    try {
      const s = value(
        await call('searches.create', { name: 'Kias', params: PARAMS, schedule: '0 * * * *', max_pages: 2 }),
      );
      // Runs until the baseline is done and the next run is a window far enough down the list.
      const { c, head } = await runUntilWindowFar(call, clock, s['id'], coverage);
      const ranAt = clock.now();
      expect(value(await call('searches.runNow', { id: s['id'] }))).toMatchObject({
        status: 'ok',
        requests: 2,
      });
      expect(lastSeen.get(`${head.platform}:${head.lotNumber}`)).toEqual({ last_observed_at: ranAt });
      expect((coverage.get(s['id']) as Coverage).sweep_from).toBeGreaterThan(c.sweep_from!);
    } finally {
      db.close();
    }
  });

  /**
   * Runs a 3-page search of the KIAs until its next run is a window more than a day past the head lot's sale, then
   * lowers the daily limit so that only 2 of its 3 pages fit and runs it once more. `otherPages`: a second saved search
   * (never run) of that many pages, which makes the lists' runs cost more than the allowance reads often.
   */
  async function cutShortWindowedRun(otherPages: number | null) {
    const { clock, call, dbPath } = await makeCore();
    const db = new BetterSqlite3(dbPath, { readonly: true });
    const coverage = db.prepare('SELECT baseline_done, sweep_from FROM saved_searches WHERE id = ?');
    const lastSeen = db.prepare('SELECT last_observed_at FROM lots WHERE lot_key = ?');
    try {
      value(await call('settings.update', { requestsPerDay: 1000 }));
      const s = value(
        await call('searches.create', { name: 'Kias', params: PARAMS, schedule: '0 * * * *', max_pages: 3 }),
      );
      if (otherPages !== null)
        value(
          await call('searches.create', {
            name: 'Fords',
            params: { make: 'FORD' },
            schedule: '0 0 1 1 *',
            max_pages: otherPages,
          }),
        );
      const { spent, c, head } = await runUntilWindowFar(call, clock, s['id'], coverage);
      // Every request so far was sent within the last 20 hours: the rolling day holds them all, and 2 more fit.
      const perDay = spent + 2;
      value(await call('settings.update', { requestsPerDay: perDay }));
      const ranAt = clock.now();
      const run = value(await call<{ status: string; requests: number }>('searches.runNow', { id: s['id'] }));
      const after = (coverage.get(s['id']) as Coverage).sweep_from;
      return {
        perDay,
        run,
        headRead:
          (lastSeen.get(`${head.platform}:${head.lotNumber}`) as { last_observed_at: number } | undefined)
            ?.last_observed_at === ranAt,
        sweepMoved: after === null || after > c.sweep_from!,
      };
    } finally {
      db.close();
    }
  }

  it('on an allowance that reads the lists often, a run the budget cuts short reads the head of its list and goes on with the sweep', async () => {
    const r = await cutShortWindowedRun(null);
    // 3 pages a cycle: at least 12 a day reads them 4 times.
    expect(r.perDay).toBeGreaterThanOrEqual(12);
    expect(r.run).toMatchObject({ status: 'partial', requests: 2 });
    expect(r.headRead).toBe(true);
    expect(r.sweepMoved).toBe(true);
  });

  it('on an allowance that reads the lists a few times a day, a run the budget cuts short keeps its pages for the sweep', async () => {
    // 3 + 40 pages a cycle: under 172 a day the lists are read fewer than 4 times.
    const r = await cutShortWindowedRun(40);
    expect(r.perDay).toBeLessThan(172);
    expect(r.run).toMatchObject({ status: 'partial', requests: 2 });
    expect(r.headRead).toBe(false);
    expect(r.sweepMoved).toBe(true);
  });

  /**
   * Saves a 2-page search of the KIAs run every hour and returns it. `rarely`: a second saved search of 40 pages
   * (never run) beside it and 100 requests a day, so the lists' runs are read fewer than 4 times a day and the sweep
   * goes on from its cursor.
   */
  async function hourlyKias(call: Call, rarely: boolean): Promise<Record<string, unknown>> {
    const s = value(
      await call('searches.create', { name: 'Kias', params: PARAMS, schedule: '0 * * * *', max_pages: 2 }),
    );
    if (rarely) {
      value(await call('settings.update', { requestsPerDay: 100 }));
      value(
        await call('searches.create', {
          name: 'Fords',
          params: { make: 'FORD' },
          schedule: '0 0 1 1 *',
          max_pages: 40,
        }),
      );
    }
    return s;
  }

  /**
   * Runs a 2-page search of the KIAs every hour for a simulated week. `rarely`: a second saved search of 40 pages
   * (never run) beside it and 100 requests a day, so the lists' runs are read fewer than 4 times a day and the sweep
   * goes on from its cursor. Returns the alerts' verdicts and, for each run that went on with a sweep (not from the
   * head of the list), how many of the lots it read the run before it had read too.
   */
  /**
   * Runs `f` on a market of its own, fresh from MARKET's start, instead of the file's shared one: what it measures
   * does not depend on how far the tests before it moved the shared market, and two calls see the same market.
   */
  async function onFreshMarket<T>(f: () => Promise<T>): Promise<T> {
    const shared = sb;
    sb = await startSandbox(MARKET);
    try {
      return await f();
    } finally {
      await sb.dispose();
      sb = shared;
    }
  }

  async function hourlyWeek(rarely: boolean) {
    const { clock, call, dbPath } = await makeCore();
    const db = new BetterSqlite3(dbPath, { readonly: true });
    const coverage = db.prepare('SELECT baseline_done, sweep_from FROM saved_searches WHERE id = ?');
    const readAt = db.prepare('SELECT lot_key FROM lots WHERE last_observed_at = ?').pluck();
    const t0 = sb.marketNow();
    const s = await hourlyKias(call, rarely);
    const end = t0 + 7 * DAY;
    const reread: number[] = [];
    let before = new Set<string>();
    let sweeps = 0;
    try {
      while (clock.now() < end) {
        const windowed = (coverage.get(s['id']) as Coverage).sweep_from !== null;
        const ranAt = clock.now();
        value(await call('searches.runNow', { id: s['id'] }));
        const read = readAt.all(ranAt) as string[];
        if (windowed) reread.push(read.filter((k) => before.has(k)).length);
        if (windowed && (coverage.get(s['id']) as Coverage).sweep_from === null) sweeps++;
        before = new Set(read);
        advance(clock, HOUR);
      }
    } finally {
      db.close();
    }
    const old = listedBy(t0);
    const alerted = new Set(await newMatchLots(call));
    // Truly new: listed after the first run and still open an hour later, up to a day before the week's end (a lot
    // listed in the last hours may not have been reached yet; it is found in the next runs).
    const fresh = sb.market.lots.filter(
      (l) =>
        l.v.spec.make === PARAMS.make &&
        l.createdAt > t0 &&
        l.createdAt <= end - DAY &&
        l.auctionAt > l.createdAt + HOUR,
    );
    return {
      fresh: fresh.length,
      falseAlerts: [...alerted].filter((n) => old.has(n)),
      recall: fresh.filter((l) => alerted.has(l.lotNumber)).length / fresh.length,
      reread,
      sweeps,
    };
  }

  it('a sweep read rarely goes on from its cursor after a restart of the app too', async () => {
    const made = await makeCore();
    const { clock, call, dbPath } = made;
    const s = await hourlyKias(call, true);
    const db = new BetterSqlite3(dbPath, { readonly: true });
    const row = db.prepare('SELECT sweep_from, sweep_cursor FROM saved_searches WHERE id = ?');
    const readAt = db.prepare('SELECT lot_key FROM lots WHERE last_observed_at = ?').pluck();
    const sweep = () => row.get(s['id']) as { sweep_from: number | null; sweep_cursor: string | null };
    const run = async () => {
      const ranAt = clock.now();
      value(await call('searches.runNow', { id: s['id'] }));
      return readAt.all(ranAt) as string[];
    };
    try {
      // Hourly runs until one stops in the middle of a sweep with the service's cursor stored.
      let before = await run();
      for (let i = 0; i < 30 && !(sweep().sweep_from !== null && sweep().sweep_cursor !== null); i++) {
        advance(clock, HOUR);
        before = await run();
      }
      expect(sweep().sweep_cursor).toEqual(expect.any(String));
      await made.restart();
      advance(clock, HOUR);
      // The run reads on from the lot after the last one read before the restart: none of those again. A window would
      // start up to a day and a half of sale dates before it and read the last of them again.
      const after = await run();
      expect(after.length).toBeGreaterThan(0);
      expect(after.filter((k) => before.includes(k))).toEqual([]);
      // A run that fetches nothing (the service failing) keeps the coverage and drops the
      // cursor, so the next run reads the window instead of sending it again.
      const kept = sweep();
      expect(kept.sweep_cursor).toEqual(expect.any(String));
      sb.faults.set({ rates: { error_500: 1 } });
      advance(clock, HOUR);
      expect(value(await call('searches.runNow', { id: s['id'] }))).toMatchObject({ status: 'error' });
      expect(sweep()).toEqual({ sweep_from: kept.sweep_from, sweep_cursor: null });
    } finally {
      sb.faults.set({});
      db.close();
    }
  });

  /**
   * A stored sweep cursor refused with `status` (the refusal made by `refuse`, which answers the cursor refused) costs
   * the run one request: the same run reads its window instead, whole, and the sweep goes on from a cursor of its own.
   */
  async function refusedCursorRun(
    status: number,
    refuse: (db: BetterSqlite3.Database, id: unknown, stored: string) => string,
  ): Promise<void> {
    const { clock, call, dbPath } = await makeCore();
    const s = await hourlyKias(call, true);
    const db = new BetterSqlite3(dbPath);
    const row = db.prepare(
      'SELECT sweep_from, sweep_cursor, consecutive_failures FROM saved_searches WHERE id = ?',
    );
    const sweep = () =>
      row.get(s['id']) as {
        sweep_from: number | null;
        sweep_cursor: string | null;
        consecutive_failures: number;
      };
    const readAt = db.prepare('SELECT lot_key FROM lots WHERE last_observed_at = ?').pluck();
    const refusals = db.prepare('SELECT count(*) FROM request_log WHERE status = ?').pluck();
    try {
      for (let i = 0; i < 30 && !(sweep().sweep_from !== null && sweep().sweep_cursor !== null); i++) {
        value(await call('searches.runNow', { id: s['id'] }));
        advance(clock, HOUR);
      }
      const before = sweep();
      expect(before.sweep_cursor).toEqual(expect.any(String));
      const refused = refuse(db, s['id'], before.sweep_cursor!);
      const ranAt = clock.now();
      const out = value(await call<{ status: string; requests: number }>('searches.runNow', { id: s['id'] }));
      // The refused request, then the run's 2 pages from its window: the run is whole, at one request more.
      expect(out).toMatchObject({ status: 'ok', requests: 3 });
      expect(refusals.get(status)).toBe(1);
      expect((readAt.all(ranAt) as string[]).length).toBeGreaterThan(20);
      const after = sweep();
      expect(after.consecutive_failures).toBe(0);
      // The sweep went on from the window's page: a cursor of this run's own, never the refused one.
      expect(after.sweep_cursor).not.toBe(refused);
      expect(after.sweep_from).toBeGreaterThanOrEqual(before.sweep_from! - 2 * DAY);
    } finally {
      sb.faults.set({});
      db.close();
    }
  }

  it('a stored cursor the service refuses (422) costs one request: the same run reads its window instead', () =>
    // A cursor the service no longer takes (the sandbox answers 422, "The cursor field format is invalid.").
    refusedCursorRun(422, (db, id) => {
      const gone = 'no longer good';
      db.prepare('UPDATE saved_searches SET sweep_cursor = ? WHERE id = ?').run(gone, id);
      return gone;
    }));

  it('over a week of hourly runs of 2 pages: no lot that was there is alerted, and lots listed since are, whether the list is read often or rarely', async () => {
    // Both weeks on the same market from the same start: the two ways of reading are compared like for like.
    const often = await onFreshMarket(() => hourlyWeek(false));
    const rarely = await onFreshMarket(() => hourlyWeek(true));
    for (const r of [often, rarely]) {
      expect(r.fresh).toBeGreaterThan(30);
      expect(r.falseAlerts).toEqual([]);
      expect(r.recall).toBeGreaterThanOrEqual(0.95);
    }
    // Each run reads the head page (20 lots) and one page of the sweep. Read often, the sweep's window starts up to a
    // day and a half before where it stopped, and its page holds lots the run before read; read rarely, the sweep
    // goes on from its cursor: about the head alone is read again (a lot updated since moves down the list and may
    // be read twice), and the sweep comes round more often.
    const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
    expect(mean(often.reread)).toBeGreaterThan(25);
    expect(mean(rarely.reread)).toBeLessThanOrEqual(20);
    expect(rarely.sweeps).toBeGreaterThan(often.sweeps);
  });

  it('a stored cursor the service refuses (400) costs one request as well', () =>
    // The spec's other answer to a bad parameter ("one or more parameters invalid"), for the run's first request.
    refusedCursorRun(400, (_db, _id, stored) => {
      sb.faults.set({ queue: ['error_400'], pathContains: '/vehicles' });
      return stored;
    }));
});

import type { Database } from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { coresPerTest } from '../../helpers/core';
import { recordingLog } from '../../helpers/log';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';

// A disk that fills, or a data file that turns read-only, while Lotwatch runs (docs/architecture.md "Data safety"):
// the buyer reads what is wrong and what to do, never "check your internet connection" or "something went wrong",
// and the watch loop backs off with one log line instead of retrying at once, thousands of times a second.
// The failing writes are real SQLite errors: PRAGMA query_only gives SQLITE_READONLY on every write, and a
// max_page_count at the file's current size gives SQLITE_FULL as soon as a write needs a new page.

const START = Date.UTC(2026, 5, 1, 12, 0, 0);
let sb: Sandbox;
sandboxPerFile(
  { seed: 9, lots: 500, startTime: START, speed: 0, ratePerSecond: 0 },
  (started) => (sb = started),
);
const startCore = coresPerTest();

/** A core in Demo mode on this sandbox at START, whose log lines are kept in `lines`. */
async function setup() {
  const log = recordingLog();
  const made = await startCore({ sandbox: sb, log });
  return { core: made.core, db: made.db, clock: made.clock, lines: log.lines };
}

/** Makes every later write of this connection fail as on a file that turned read-only (SQLITE_READONLY). */
const turnReadOnly = (db: Database) => db.pragma('query_only = ON');
/** Makes every later write that needs a new page fail as on a full disk (SQLITE_FULL). */
const fillDisk = (db: Database) =>
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);

describe('errors the buyer reads', () => {
  it('a search whose results cannot be stored on a full disk says so, not "Something went wrong"', async () => {
    const { core, db } = await setup();
    fillDisk(db);
    const r = await core.invoke('vehicles.search', { params: { make: 'HONDA' } });
    expect(r).toMatchObject({ ok: false, error: { code: 'db_unavailable', retryable: true } });
    if (!r.ok)
      expect(r.error.message).toMatch(
        /^Lotwatch could not save to its data file: the disk is full\. Free some disk space/,
      );
  });

  it('an answer whose quota cannot be stored is a database problem, not the internet connection, and is not retried', async () => {
    const { core, db, lines } = await setup();
    turnReadOnly(db);
    const r = await core.invoke('vehicles.search', { params: { make: 'HONDA' } });
    expect(r).toMatchObject({ ok: false, error: { code: 'db_unavailable' } });
    if (!r.ok) {
      expect(r.error.message).toContain(
        'the file or its folder is read-only. Fix the permissions of the data folder',
      );
      expect(r.error.message).not.toMatch(/internet|connection/i);
    }
    expect(lines.filter((l) => l.msg === 'api: retrying')).toEqual([]);
  });

  it("a saved search's scheduled run that cannot be stored is one line of Lotwatch's log, nothing printed besides", async () => {
    const { core, db, clock, lines } = await setup();
    await core.call('searches.create', {
      name: 'Hondas',
      params: { make: 'HONDA' },
      schedule: '*/30 * * * *',
    });
    fillDisk(db);
    // node-cron prints a failing task to the console itself: one line per failed run, outside the log's bounds.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      clock.advance(31 * 60_000);
      await core.engine.runDue();
      expect(lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([
        'watch: tick failed; the next try waits',
      ]);
      expect(printed.mock.calls).toEqual([]);
    } finally {
      printed.mockRestore();
    }
  });

  it('a change that cannot be saved on a read-only file answers db_unavailable with what to do', async () => {
    const { core, db } = await setup();
    turnReadOnly(db);
    const r = await core.invoke('searches.create', { name: 'Hondas', params: { make: 'HONDA' } });
    expect(r).toMatchObject({ ok: false, error: { code: 'db_unavailable', retryable: false } });
    if (!r.ok) expect(r.error.message).not.toMatch(/Something went wrong/);
  });
});

describe('the watch loop on a store that cannot be written', () => {
  it('backs off 1, 2, 4 ... 30 minutes with one log line for the whole run of failures, then recovers', async () => {
    const { core, db, clock, lines } = await setup();
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open' && l.auctionAt > START + 86_400_000)!;
    expect((await core.invoke('watchlist.add', { target: lot.lotNumber })).ok).toBe(true);
    core.engine.start();
    await core.engine.idle();
    turnReadOnly(db);
    // The watch falls due; its check cannot be stored, so it stays due.
    clock.advanceTo((await core.engine.plan()).nextWatchChecks[0]!.at);
    await core.engine.idle();
    const failed = () => lines.filter((l) => l.msg.startsWith('watch: tick failed'));
    expect(failed()).toHaveLength(1);
    // Without a backoff, every timer turn would tick again at once: none may until the minute has passed.
    for (let i = 0; i < 50; i++) {
      clock.advance(0);
      await core.engine.idle();
    }
    expect(failed()).toHaveLength(1);
    // An hour of fake time, a minute at a time: tries after 1, 2, 4, 8, 16 and 30 minutes, about 6.
    for (let m = 0; m < 60; m++) {
      clock.advance(60_000);
      await core.engine.idle();
    }
    const errors = lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      msg: 'watch: tick failed; the next try waits',
      data: { code: 'db_unavailable', retryInMs: 60_000, error: expect.stringContaining('read-only') },
    });
    expect(JSON.stringify(lines)).not.toMatch(/internet/i);
    expect(failed().map((l) => l.data['retryInMs'])).toEqual([
      60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000,
    ]);

    // The file is writable again: the next try works, says so once, and the loop is back to its own plan.
    db.pragma('query_only = OFF');
    clock.advance(30 * 60_000);
    await core.engine.idle();
    expect(lines.filter((l) => l.msg === 'watch: ticks work again')).toEqual([
      { level: 'info', msg: 'watch: ticks work again', data: { failedInARow: 6 } },
    ]);
    const watch = (await core.call('watchlist.list', undefined))[0]!;
    expect(watch.last_checked_at).toBe(clock.now());
  });
});

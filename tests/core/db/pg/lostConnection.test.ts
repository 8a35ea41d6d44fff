import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDatabase } from '../../../../src/core/coreDatabase';
import { coresPerTest } from '../../../helpers/core';
import { recordingLog } from '../../../helpers/log';
import { createTestDatabase, pgAvailable, startCluster, type PgCluster } from '../../../helpers/postgres';
import { sandboxPerFile, type Sandbox } from '../../../helpers/sandbox';
import { FakeClock } from '../../../helpers/fakeClock';
import { tempDir } from '../../../helpers/tmp';

// A team's PostgreSQL server that goes away while Lotwatch runs (docs/architecture.md "Two engines: one store"): the
// watch loop says so once, in words about the database (never the internet), waits with its backoff instead of
// retrying at once, answers the buyer's calls with db_unreachable, and goes on by itself once the server is back,
// with nothing half-written. The server is this file's own cluster (the run's shared one must stay up), stopped with
// an immediate shutdown: its connections are cut as a crash or a lost network cuts them.

const START = Date.UTC(2026, 5, 1, 12, 0, 0);
let sb: Sandbox;
sandboxPerFile(
  { seed: 9, lots: 500, startTime: START, speed: 0, ratePerSecond: 0 },
  (started) => (sb = started),
);
const startCore = coresPerTest();

describe.skipIf(!pgAvailable())('a team database that goes away while Lotwatch runs', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('pauses watching with one line, answers db_unreachable, and goes on once the server is back', async () => {
    const log = recordingLog();
    const clock = new FakeClock(sb.marketNow());
    const dir = tempDir();
    const url = await createTestDatabase(cluster.url, 'lost');
    const database = await postgresDatabase(url, {
      dataDir: dir.dir,
      clock,
      pool: { connectTimeoutMs: 2_000 },
    });
    const { core } = await startCore({ sandbox: sb, log, clock, database, dir: dir.dir });
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open' && l.auctionAt > START + 86_400_000)!;
    expect((await core.invoke('watchlist.add', { target: lot.lotNumber })).ok).toBe(true);
    core.engine.start();
    await core.engine.idle();
    const firstCheck = (await core.call('watchlist.list', undefined))[0]!.last_checked_at;
    expect(firstCheck).toBe(clock.now());
    const due = (await core.engine.plan()).nextWatchChecks[0]!.at;

    cluster.halt();
    clock.advanceTo(due);
    await core.engine.idle();
    const lines = () => log.lines;
    const failed = () => lines().filter((l) => l.msg.startsWith('watch: tick failed'));
    expect(failed()).toHaveLength(1);
    expect(failed()[0]).toMatchObject({
      level: 'error',
      msg: 'watch: tick failed; the next try waits',
      data: { code: 'db_unreachable', retryInMs: 60_000 },
    });
    expect(String(failed()[0]!.data['error'])).toMatch(/lost its connection to the database server/);
    // The buyer's own calls say the same, never "something went wrong" or the internet.
    const r = await core.invoke('watchlist.list', undefined);
    expect(r).toMatchObject({ ok: false, error: { code: 'db_unreachable', retryable: true } });
    if (!r.ok) expect(r.error.message).not.toMatch(/internet|Something went wrong/i);
    // It waits: no retry before the minute has passed.
    for (let i = 0; i < 20; i++) {
      clock.advance(0);
      await core.engine.idle();
    }
    expect(failed()).toHaveLength(1);
    clock.advance(60_000);
    await core.engine.idle();
    expect(failed()).toHaveLength(2);

    cluster.resume();
    clock.advance(3 * 60_000);
    await core.engine.idle();
    expect(lines().filter((l) => l.msg === 'watch: ticks work again')).toHaveLength(1);
    const watch = (await core.call('watchlist.list', undefined))[0]!;
    expect(watch.last_checked_at).toBeGreaterThan(firstCheck!);
    // Nothing was left half-done: no run row still running, one finished row per check that was made.
    const runs = await database.store.searches.interruptRuns(clock.now());
    expect(runs).toBe(0);
    await core.dispose();
    dir.cleanup();
  }, 120_000);
});

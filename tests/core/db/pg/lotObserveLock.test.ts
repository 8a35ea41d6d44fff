import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KyselyExec } from '../../../../src/core/db/kysely/exec';
import { KyselyLotsRepo } from '../../../../src/core/db/kysely/lotsRepo';
import { migratePgAt } from '../../../../src/core/db/pg/migrate';
import { openPostgres, type PostgresHandle } from '../../../../src/core/db/pg/open';
import { pgAvailable, testDatabase, untilTurns } from '../../../helpers/postgres';
import { vehicle } from '../../watch/storeFixtures';

// One lot observed by two transactions at once on PostgreSQL (kysely/lotsRepo.ts LOT_LOCK_SPACE): the watcher's poll
// beside a lot opened or checked by hand, a manual search beside a scheduled one, two of a team's servers. The
// second observation must wait for the first to end and read what it wrote: without that, both read "no lot yet"
// and the second insert fails on the lot key (and the user's action with it), or both diff against the same old
// state and record its changes twice.

const KEY = 'copart:50000001';

describe.skipIf(!pgAvailable())('one lot observed by two transactions at once on PostgreSQL', () => {
  let h: PostgresHandle;
  beforeEach(async () => {
    const url = (await testDatabase('lot_observe_lock'))!;
    await migratePgAt(url);
    h = await openPostgres(url, { max: 4 });
  });
  afterEach(() => h.close());

  /** Locks some transaction waits for (the lot's lock, or without it the lot key's index entry or row). */
  const waiting = async () =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`.execute(h.db))
      .rows[0]!.n;

  /** Observes `first` in a transaction held open until the returned `release`, then `second` from outside it. */
  async function overlapping(first: ReturnType<typeof vehicle>, second: ReturnType<typeof vehicle>) {
    const exec = new KyselyExec(h.db);
    const lots = new KyselyLotsRepo(exec, 'postgres');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // Resolved when the first observation is written inside its open transaction: awaited, not polled, so a slow or
    // loaded machine only takes longer (a count of event-loop turns ran out before the first write on a busy CI).
    let seen!: () => void;
    const firstSeen = new Promise<void>((r) => (seen = r));
    const slow = exec.transaction(async () => {
      const o = await lots.observe(first, 1_000, 'watch:1');
      seen();
      await held;
      return o;
    });
    let secondDone = false;
    let fast: ReturnType<typeof lots.observe> | null = null;
    try {
      await Promise.race([
        firstSeen,
        slow.then(() => {
          throw new Error('the first observation ended before it was held');
        }),
      ]);
      fast = lots.observe(second, 2_000, 'search:1').then((o) => ((secondDone = true), o));
      await untilTurns(async () => (await waiting()) === 1);
      expect(secondDone).toBe(false);
    } finally {
      release();
    }
    return { first: await slow, second: await fast };
  }

  it('stores a new lot once: the second observation waits, then sees the first one as its previous state', async () => {
    const { first, second } = await overlapping(vehicle(), vehicle());
    expect(first?.prev).toBeNull();
    expect(second?.prev).toEqual(first?.next);
    const rows = await h.db.selectFrom('lots').select('lot_key').execute();
    expect(rows).toEqual([{ lot_key: KEY }]);
  });

  it('diffs a changed bid against the state the first observation wrote, not the one both found', async () => {
    const exec = new KyselyExec(h.db);
    await new KyselyLotsRepo(exec, 'postgres').observe(vehicle({ bid: 1_000 }), 500, 'watch:1');
    const { first, second } = await overlapping(vehicle({ bid: 1_500 }), vehicle({ bid: 2_000 }));
    expect(first?.prev?.current_bid_usd).toBe(1_000);
    expect(second?.prev?.current_bid_usd).toBe(1_500);
    expect(second?.next.current_bid_usd).toBe(2_000);
  });
});

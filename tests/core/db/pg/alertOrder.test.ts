import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAlert } from '../../../../src/core/db/alertsRepo';
import { KyselyAlertsRepo } from '../../../../src/core/db/kysely/alertsRepo';
import { KyselyExec } from '../../../../src/core/db/kysely/exec';
import { migratePgAt } from '../../../../src/core/db/pg/migrate';
import { openPostgres, type PostgresHandle } from '../../../../src/core/db/pg/open';
import { pgAvailable, testDatabase, untilTurns } from '../../../helpers/postgres';

// Alert ids in commit order on PostgreSQL (kysely/alertsRepo.ts ALERT_ORDER_LOCK): the alert channels route by an id
// cursor (channels/outbox.ts), so an alert whose transaction commits after a later id was routed would never reach a
// channel. A transaction that inserts an alert holds the lock until it ends: a second insert waits for it, and gets
// the higher id.

const alert = (dedup_key: string): NewAlert => ({
  dedup_key,
  kind: 'sale_result',
  lot_key: 'copart:1',
  change_id: null,
  source: 'watch:1',
  title: dedup_key,
  body: '',
  reason: null,
  delivery: 'now',
  deliver_after: null,
});

describe.skipIf(!pgAvailable())('alert ids follow commit order on PostgreSQL', () => {
  let h: PostgresHandle;
  beforeEach(async () => {
    const url = (await testDatabase('alert_order'))!;
    await migratePgAt(url);
    h = await openPostgres(url, { max: 4 });
  });
  afterEach(() => h.close());

  const advisory = async (granted: boolean) =>
    (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND granted = ${granted}`.execute(h.db)
    ).rows[0]!.n;

  it('makes an alert inserted while another transaction holds one wait for its commit, and numbers it after', async () => {
    const exec = new KyselyExec(h.db);
    const alerts = new KyselyAlertsRepo(exec, 'postgres');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow = exec.transaction(async () => {
      const id = await alerts.insertAlert(alert('slow'), 1);
      await held;
      return id;
    });
    await untilTurns(async () => (await advisory(true)) === 1);
    let fastDone = false;
    const fast = alerts.insertAlert(alert('fast'), 2).then((id) => ((fastDone = true), id));
    await untilTurns(async () => (await advisory(false)) === 1);
    expect(fastDone).toBe(false);
    release();
    const [s, f] = [await slow, await fast];
    expect(s).not.toBeNull();
    expect(f).toBeGreaterThan(s!);
    const rows = await h.db.selectFrom('alerts').select(['id', 'title']).orderBy('id').execute();
    expect(rows.map((r) => r.title)).toEqual(['slow', 'fast']);
  });
});

import BetterSqlite3 from 'better-sqlite3';
import type { Core } from '../../../src/core/app';
import { AlertsRepo } from '../../../src/core/db/alertsRepo';
import type { AlertKind } from '../../../src/shared/watch';
import { makeCore, type MakeCoreOptions } from '../../helpers/core';

/**
 * Raises alerts in a running core's data file from a second connection, as the watch engine would have stored them
 * (delivery now, no lot): for tests that need alerts at chosen times without a market to sell lots. The caller kicks
 * the channel outbox afterwards.
 */
export function alertRaiser(dbPath: string): {
  raise(kind: AlertKind, title: string, at: number): number;
  close(): void;
} {
  const db = new BetterSqlite3(dbPath);
  db.pragma('busy_timeout = 5000');
  // The synchronous repository over this second connection: a raise is stored when it returns.
  const alerts = new AlertsRepo(db);
  let n = 0;
  return {
    raise(kind, title, at) {
      n++;
      const id = alerts.insertAlert(
        {
          dedup_key: `test:${n}:${title}`,
          kind,
          lot_key: null,
          change_id: null,
          source: 'test',
          title,
          body: `${title}: the body of the alert.`,
          reason: null,
          delivery: 'now',
          deliver_after: null,
        },
        at,
      );
      if (id === null) throw new Error(`the alert ${title} was not stored`);
      return id;
    },
    close: () => db.close(),
  };
}

/**
 * A ready core that drives time itself (engine not started, no Demo examples, UTC) with its channel outbox started
 * and idle, for the tests of where alerts may go. `raise()` stores one of Lotwatch's own alerts, delivered on the
 * desktop and sent at once by every channel (a `quota_low` under a key made from `tag`), kicks the outbox and waits
 * until it is idle. `close` closes the second connection, disposes core and removes its folder.
 */
export async function outboxCore(
  tag: string,
  over: MakeCoreOptions = {},
): Promise<{ core: Core; raw: BetterSqlite3.Database; raise(): Promise<void>; close(): Promise<void> }> {
  const made = makeCore({ autoStart: false, demoExamples: false, tzOffsetMinutes: () => 0, ...over });
  await made.core.ready;
  made.core.channelOutbox.start();
  await made.core.channelOutbox.idle();
  const raw = new BetterSqlite3(made.dbPath);
  let n = 0;
  return {
    core: made.core,
    raw,
    async raise() {
      n++;
      raw
        .prepare(
          `INSERT INTO alerts (dedup_key, kind, title, body, created_at, delivery, status)
           VALUES (?, 'quota_low', 'Requests are running low', 'Few requests left.', ?, 'now', 'delivered')`,
        )
        .run(`${tag}-${n}`, Date.now());
      made.core.channelOutbox.kick();
      await made.core.channelOutbox.idle();
    },
    async close() {
      raw.close();
      await made.cleanup();
    },
  };
}

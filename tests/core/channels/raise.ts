import BetterSqlite3 from 'better-sqlite3';
import { Store } from '../../../src/core/db/store';
import type { AlertKind } from '../../../src/shared/watch';

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
  const store = new Store(db);
  let n = 0;
  return {
    raise(kind, title, at) {
      n++;
      const id = store.alerts.insertAlert(
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

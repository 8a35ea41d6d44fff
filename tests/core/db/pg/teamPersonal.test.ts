import { describe, expect, it } from 'vitest';
import { migratePg } from '../../../../src/core/db/pg/migrate';
import { pgAvailable } from '../../../helpers/postgres';
import { pgMigrationDbs, pgRows, sqliteRows, upTo } from './pgSchema';
import { migrate } from '../../../../src/core/db/migrate';

// Migration 170 on PostgreSQL (docs/architecture.md "Two engines: migrations"): a database at 160 with a channel
// and a read alert, upgraded one step, keeps them as SQLite does from the same start (the channel the local owner's,
// the alert's own read state), and its members' tables take rows.

const dbs = pgMigrationDbs();

describe.skipIf(!pgAvailable())('PostgreSQL upgrade to the team’s personal tables', () => {
  describe('migration 170: each member’s own read state, settings, lot prefs, channels', () => {
    it('keeps the channels as the local owner’s and the alerts’ own read state, as SQLite does', async () => {
      const c = await dbs.pgAt(160);
      const db = dbs.sqliteAt(160);
      const channel = `INSERT INTO channels (type, settings, cursor, created_at, updated_at)
      VALUES ('email', '{"enabled":true,"config":{"type":"email"}}', 0, 1790000000001, 1790000000001)`;
      const alert = `INSERT INTO alerts (dedup_key, kind, lot_key, title, body, created_at, delivery, status, read_at)
      VALUES ('a', 'threshold', 'copart:1', 'A bid', 'Body', 1790000000005, 'now', 'delivered', 1790000000009)`;
      for (const q of [channel, alert]) {
        await c.query(q);
        db.exec(q);
      }
      expect(await migratePg(c, upTo(170))).toEqual([170]);
      migrate(db, ':memory:', upTo(170));
      const tables = ['channels', 'alerts', 'alert_reads', 'user_prefs', 'lot_user_prefs'];
      const rows = await pgRows(c, tables);
      expect(rows).toEqual(sqliteRows(db, tables));
      expect(rows['channels']![0]).toMatchObject({ owner_id: null });
      expect(rows['alerts']![0]).toMatchObject({ read_at: 1790000000009 });
      await c.query('INSERT INTO alert_reads (user_id, alert_id, read_at) VALUES (1, 1, 1790000000010)');
      await c.query(
        `INSERT INTO lot_user_prefs (user_id, lot_key, muted, updated_at) VALUES (1, 'copart:1', 1, 1)`,
      );
      await c.query(
        `INSERT INTO user_prefs (user_id, key, value, updated_at) VALUES (1, 'theme', '"dark"', 1)`,
      );
      await expect(
        c.query('INSERT INTO alert_reads (user_id, alert_id, read_at) VALUES (1, 1, 1790000000011)'),
      ).rejects.toThrow(/duplicate key/);
    });
  });
});

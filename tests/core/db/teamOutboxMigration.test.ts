import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { SqliteStore } from '../../../src/core/db/store';
import { migrationFiles } from './migrationFile';

const files = migrationFiles();

// Migration 190: which team server claimed a delivery being sent. The desktop writes none, so a file's outbox reads,
// claims and recovers as before, and a message a stop left `sending` is still found at the next start.

describe('migration 190: which server claimed a delivery being sent', () => {
  it("keeps version 180's deliveries, one left sending found as before, and the desktop names no server", () => {
    const path = files.at(180, (db) => {
      db.prepare(
        `INSERT INTO alerts (dedup_key, kind, title, body, created_at, delivery, status)
         VALUES ('a1', 'quota_low', 'Requests are running low', 'Few left.', 1000, 'now', 'delivered')`,
      ).run();
      db.prepare(
        `INSERT INTO alerts (dedup_key, kind, title, body, created_at, delivery, status)
         VALUES ('a2', 'quota_low', 'Requests are running low again', 'Fewer left.', 2000, 'now', 'delivered')`,
      ).run();
      db.prepare(
        `INSERT INTO channels (type, settings, cursor, created_at, updated_at) VALUES ('webhook', '{}', 2, 1, 1)`,
      ).run();
      db.prepare(
        `INSERT INTO deliveries (alert_id, channel_id, status, not_before, attempts, message_key, created_at,
           attempted_at) VALUES (1, 1, 'sending', 1000, 1, 'lw-k-1-1', 1000, 1500)`,
      ).run();
      db.prepare(
        `INSERT INTO deliveries (alert_id, channel_id, status, not_before, created_at)
         VALUES (2, 1, 'pending', 2000, 2000)`,
      ).run();
    });
    const db = openDatabase(path);
    const s = new SqliteStore(db).sync;
    expect(s.channels.leftSending().map((d) => [d.alert_id, d.status, d.message_key, d.attempts])).toEqual([
      [1, 'sending', 'lw-k-1-1', 1],
    ]);
    const [due] = s.channels.dueFor(1, 5000);
    expect(due).toMatchObject({ alert_id: 2, status: 'pending' });
    expect(Object.keys(due!)).not.toContain('claimed_by');
    expect(s.channels.claim([due!.id], 'lw-k-1-2', 6000)).toBe(true);
    const rows = db.prepare('SELECT alert_id, status, claimed_by FROM deliveries ORDER BY id').all();
    expect(rows).toEqual([
      { alert_id: 1, status: 'sending', claimed_by: null },
      { alert_id: 2, status: 'sending', claimed_by: null },
    ]);
    const index = db
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'deliveries_sending'")
      .get() as { sql: string };
    expect(index.sql).toMatch(/WHERE status = 'sending'/);
    db.close();
  });
});

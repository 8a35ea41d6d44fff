import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ChannelsRepo } from '../../../src/core/db/channelsRepo';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { SqliteStore } from '../../../src/core/db/store';
import { migrateTo, migrationFiles } from './migrationFile';

// A schema-70 file (an inbox of alerts, no channels) gets alert channels and their per-channel outbox. The alerts
// already in the inbox stay as they were, can be routed to a new channel, and take their deliveries with them
// when they go.

const files = migrationFiles();

/** A schema-70 file with two delivered alerts in the inbox. */
function fileAtVersion70(): string {
  return files.at(70, (db) => {
    const alert =
      db.prepare(`INSERT INTO alerts (dedup_key, kind, lot_key, title, body, created_at, delivery, status, delivered_at)
    VALUES (?, 'bid_changed', 'copart:1', ?, 'b', ?, 'now', 'delivered', ?)`);
    alert.run('change:1', 'Bid now $600', 10, 11);
    alert.run('change:2', 'Bid now $700', 20, 21);
  });
}

const SETTINGS = JSON.stringify({
  name: 'Phone',
  kinds: ['bid_changed'],
  quiet: { mode: 'app' },
  topic: 'lots',
});

describe('migration 80: alert channels', () => {
  it('adds channels and deliveries to a schema-70 file; the old alerts stay and can be routed once each', () => {
    const path = fileAtVersion70();
    const db = new BetterSqlite3(path);
    const before = db.prepare('SELECT * FROM alerts ORDER BY id').all();
    expect(migrateTo(db, path, 80)).toEqual([80]);
    expect(db.prepare('SELECT * FROM alerts ORDER BY id').all()).toEqual(before);
    // The current repository reads the file as the later migrations leave it (alerts.url since 150).
    migrateTo(db, path, Number.MAX_SAFE_INTEGER);
    const channels = new ChannelsRepo(db);
    const id = channels.insert('ntfy', SETTINGS, 0, 100);
    expect(channels.alertsAfter(0, 10).map((a) => a.dedup_key)).toEqual(['change:1', 'change:2']);
    channels.addDelivery(1, id, 'pending', 100, null, 100);
    channels.addDelivery(1, id, 'pending', 100, null, 100);
    channels.addDelivery(2, id, 'held', 500, null, 100);
    expect(channels.dueFor(id, 100).map((d) => d.alert_id)).toEqual([1]);
    expect(() =>
      db
        .prepare("INSERT INTO channels (type, settings, created_at, updated_at) VALUES ('fax', '{}', 0, 0)")
        .run(),
    ).toThrow(/CHECK/);
    db.close();
  });

  it('in the current store, removing an old alert or a channel removes its deliveries', () => {
    const path = fileAtVersion70();
    const db = openDatabase(path);
    const s = new SqliteStore(db).sync;
    const id = s.channels.insert('ntfy', SETTINGS, 0, 100);
    s.channels.addDelivery(1, id, 'sent', 100, null, 100);
    s.channels.addDelivery(2, id, 'pending', 100, null, 100);
    db.prepare('DELETE FROM alerts WHERE id = 1').run();
    expect(s.channels.forAlert(1)).toEqual([]);
    expect(s.channels.forAlert(2)).toHaveLength(1);
    expect(s.channels.remove(id)).toBe(true);
    expect(s.channels.forAlert(2)).toEqual([]);
    closeDatabase(db);
  });
});

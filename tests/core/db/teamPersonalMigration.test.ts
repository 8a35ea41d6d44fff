import { describe, expect, it } from 'vitest';
import { ChannelsRepo } from '../../../src/core/db/channelsRepo';
import { openDatabase } from '../../../src/core/db/connection';
import { PersonalRepo } from '../../../src/core/db/personalRepo';
import { migrationFiles } from './migrationFile';

const files = migrationFiles();

describe('migration 170: each member’s own read state, settings, lot mutes and snoozes, and channels', () => {
  it('keeps every channel of an older file as the local owner’s, and the members’ tables start empty', () => {
    const path = files.at(160, (db) => {
      db.prepare(
        `INSERT INTO channels (type, settings, cursor, created_at, updated_at)
         VALUES ('email', '{"name":"Office email","enabled":true,"config":{"type":"email"}}', 0, 1, 1)`,
      ).run();
      db.prepare(
        `INSERT INTO alerts (dedup_key, kind, lot_key, title, body, created_at, delivery, status, read_at)
         VALUES ('a', 'threshold', 'copart:1', 'A bid', 'Body', 5, 'now', 'delivered', 9)`,
      ).run();
    });
    const db = openDatabase(path);
    const [ch] = new ChannelsRepo(db).list();
    expect(ch).toMatchObject({ type: 'email', owner_id: null });
    for (const t of ['alert_reads', 'user_prefs', 'lot_user_prefs'])
      expect(db.prepare(`SELECT count(*) AS n FROM ${t}`).get()).toEqual({ n: 0 });
    // The desktop's read state stays in the alert's own column; a member's starts unread.
    expect(db.prepare('SELECT read_at FROM alerts').get()).toEqual({ read_at: 9 });
    const personal = new PersonalRepo(db);
    expect(personal.unreadCount(1)).toBe(1);
    personal.setRead(1, 1, true, 20);
    expect(personal.listAlerts(1, false, 99, 10).map((a) => a.read_at)).toEqual([20]);
    expect(personal.unreadCount(2)).toBe(1);
    db.close();
  });
});

import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase, closeDatabase } from '../../../src/core/db/connection';
import { migrationFiles } from './migrationFile';

const files = migrationFiles();

describe('migration 160: team accounts', () => {
  it("keeps an older file's data and adds the team's tables, empty, with logins unique without case", () => {
    const path = files.at(150, (db) => {
      db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('theme', '\"dark\"', 1)").run();
    });
    const db = openDatabase(path);
    closeDatabase(db);
    const raw = new BetterSqlite3(path);
    try {
      expect(raw.prepare("SELECT value FROM settings WHERE key = 'theme'").get()).toEqual({
        value: '"dark"',
      });
      for (const t of ['users', 'user_sessions', 'sign_in_throttle'])
        expect(raw.prepare(`SELECT count(*) AS n FROM ${t}`).get(), t).toEqual({ n: 0 });
      const add = raw.prepare(
        "INSERT INTO users (login, name, role, password_hash, created_at, updated_at) VALUES (?, 'x', ?, 'h', 1, 1)",
      );
      add.run('Dana', 'buyer');
      expect(() => add.run('DANA', 'buyer')).toThrow(/UNIQUE/);
      expect(() => add.run('eve', 'owner')).toThrow(/CHECK/);
      raw.pragma('foreign_keys = ON');
      raw
        .prepare(
          "INSERT INTO user_sessions (id_hash, user_id, csrf, created_at, last_seen_at, expires_at) VALUES ('h', 1, 't', 1, 1, 2)",
        )
        .run();
      raw.prepare('DELETE FROM users WHERE id = 1').run();
      expect(raw.prepare('SELECT count(*) AS n FROM user_sessions').get()).toEqual({ n: 0 });
    } finally {
      raw.close();
    }
  });
});

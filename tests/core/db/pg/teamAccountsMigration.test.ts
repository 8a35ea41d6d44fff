import { describe, expect, it } from 'vitest';
import { migrate } from '../../../../src/core/db/migrate';
import { migratePg, pgSchemaVersion } from '../../../../src/core/db/pg/migrate';
import { pgAvailable } from '../../../helpers/postgres';
import { insertBoth, pgMigrationDbs, pgRows, seedBoth, sqliteRows, sqliteTables, upTo } from './pgSchema';

// Migration 160 on PostgreSQL (docs/architecture.md "Two engines: migrations"): a team's members, sessions and
// sign-in throttle, next to version 150's rows, kept; the same rows as SQLite's after the step; logins unique
// whatever their case; a member's sessions go with them.

const dbs = pgMigrationDbs();

describe.skipIf(!pgAvailable())('team accounts on PostgreSQL', () => {
  describe('migration 160: team accounts', () => {
    it("keeps version 150's rows and adds the team's tables, with logins unique without case", async () => {
      const db = dbs.sqliteAt(150);
      const c = await dbs.pgAt(150);
      await seedBoth(db, c);
      const before = sqliteRows(db);
      expect(await migratePg(c, upTo(160))).toEqual([160]);
      migrate(db, ':memory:', upTo(160));
      expect(await pgSchemaVersion(c)).toBe(160);
      const tables = sqliteTables(db);
      expect(tables).toEqual(expect.arrayContaining(['users', 'user_sessions', 'sign_in_throttle']));
      const after = await pgRows(c, tables);
      expect(after).toEqual(sqliteRows(db, tables));
      for (const t of Object.keys(before)) expect(after[t], t).toEqual(before[t]);

      const user = (id: number, login: string) => ({
        id,
        login,
        name: 'Dana',
        role: 'buyer',
        password_hash: '$argon2id$…',
        created_at: 1,
        updated_at: 1,
      });
      await insertBoth(db, c, 'users', user(1, 'Dana'));
      await expect(
        c.query(
          "INSERT INTO users (login, name, role, password_hash, created_at, updated_at) VALUES ('DANA', 'x', 'buyer', 'h', 1, 1)",
        ),
      ).rejects.toMatchObject({ code: '23505' });
      expect(() =>
        db
          .prepare(
            "INSERT INTO users (login, name, role, password_hash, created_at, updated_at) VALUES ('dana', 'x', 'buyer', 'h', 1, 1)",
          )
          .run(),
      ).toThrow(/UNIQUE/);
      await expect(
        c.query(
          "INSERT INTO users (login, name, role, password_hash, created_at, updated_at) VALUES ('eve', 'x', 'owner', 'h', 1, 1)",
        ),
      ).rejects.toMatchObject({ code: '23514' });
      const session = {
        id_hash: 'abc',
        user_id: 1,
        csrf: 't',
        created_at: 1,
        last_seen_at: 1,
        expires_at: 2,
      };
      await insertBoth(db, c, 'user_sessions', session);
      await c.query('DELETE FROM users WHERE id = 1');
      expect((await c.query('SELECT count(*)::int AS n FROM user_sessions')).rows).toEqual([{ n: 0 }]);
    });
  });
});

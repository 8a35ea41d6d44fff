import { describe, expect, it } from 'vitest';
import { migrate } from '../../../../src/core/db/migrate';
import { migratePg, pgSchemaVersion } from '../../../../src/core/db/pg/migrate';
import { pgAvailable } from '../../../helpers/postgres';
import {
  pgColumns,
  pgMigrationDbs,
  pgRows,
  seedBoth,
  sqliteColumns,
  sqliteRows,
  sqliteTables,
  upTo,
} from './pgSchema';

// Migration 200 on PostgreSQL (docs/architecture.md "Two engines: migrations"): a saved search's sweep keeps the
// service's cursor in its row, next to version 190's rows: every row kept, `sweep_cursor` NULL (a sweep under way
// goes on from its window once, as after any start before), the same rows and column as SQLite's.

const dbs = pgMigrationDbs();

describe.skipIf(!pgAvailable())("the sweep's cursor on PostgreSQL", () => {
  describe("migration 200: the sweep's cursor in the saved search's row", () => {
    it("keeps version 190's rows with no cursor, as SQLite does", async () => {
      const db = dbs.sqliteAt(190);
      const c = await dbs.pgAt(190);
      await seedBoth(db, c);
      const tables = sqliteTables(db);
      const before = await pgRows(c, tables);
      expect(await migratePg(c, upTo(200))).toEqual([200]);
      migrate(db, ':memory:', upTo(200));
      expect(await pgSchemaVersion(c)).toBe(200);
      const after = await pgRows(c, tables);
      expect(after).toEqual(sqliteRows(db, tables));
      expect(after['saved_searches']!.length).toBeGreaterThan(0);
      for (const t of tables) {
        expect(after[t]!.length, t).toBe(before[t]!.length);
        const kept = after[t]!.map((r) => {
          const { sweep_cursor, ...rest } = r;
          if (t === 'saved_searches') expect(sweep_cursor).toBeNull();
          return JSON.stringify(t === 'saved_searches' ? rest : r);
        });
        expect(kept.sort(), t).toEqual(before[t]!.map((r) => JSON.stringify(r)).sort());
      }
      const col = (cols: { name: string; family: string; notNull: boolean }[]) =>
        cols.filter((x) => x.name === 'sweep_cursor').map((x) => [x.family, x.notNull]);
      expect(col(await pgColumns(c, 'saved_searches'))).toEqual([['text', false]]);
      expect(col(sqliteColumns(db, 'saved_searches'))).toEqual([['text', false]]);
    });
  });
});

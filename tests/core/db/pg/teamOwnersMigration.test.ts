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

// Migration 180 on PostgreSQL (docs/architecture.md "Two engines: migrations"): who made and last changed each saved
// search, watch and call watch, and who spent each logged request, next to version 170's rows: every row kept, the
// new columns NULL (the local owner's), the same rows and columns as SQLite's after the step.

const dbs = pgMigrationDbs();

/** The columns migration 180 adds, by table. */
const ADDED: Record<string, string[]> = {
  saved_searches: ['created_by', 'updated_by'],
  watches: ['created_by', 'updated_by'],
  call_watches: ['created_by'],
  request_log: ['user_id'],
};

describe.skipIf(!pgAvailable())('team owners on PostgreSQL', () => {
  describe('migration 180: who made each search and watch, and who spent each request', () => {
    it("keeps version 170's rows as the local owner's, as SQLite does", async () => {
      const db = dbs.sqliteAt(170);
      const c = await dbs.pgAt(170);
      await seedBoth(db, c);
      const tables = sqliteTables(db);
      const before = await pgRows(c, tables);
      expect(await migratePg(c, upTo(180))).toEqual([180]);
      migrate(db, ':memory:', upTo(180));
      expect(await pgSchemaVersion(c)).toBe(180);
      const after = await pgRows(c, tables);
      expect(after).toEqual(sqliteRows(db, tables));
      for (const t of tables) {
        const added = ADDED[t] ?? [];
        expect(after[t]!.length, t).toBe(before[t]!.length);
        expect(after[t]!.length, t).toBeGreaterThan(0);
        for (const row of after[t]!) for (const col of added) expect(row[col], `${t}.${col}`).toBeNull();
        const kept = after[t]!.map((r) =>
          JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !added.includes(k)))),
        );
        expect(kept.sort(), t).toEqual(before[t]!.map((r) => JSON.stringify(r)).sort());
      }
      for (const [t, cols] of Object.entries(ADDED)) {
        const pgCols = (await pgColumns(c, t)).filter((x) => cols.includes(x.name));
        const liteCols = sqliteColumns(db, t).filter((x) => cols.includes(x.name));
        expect(pgCols.map((x) => [x.name, x.family, x.notNull])).toEqual(
          cols.map((n) => [n, 'integer', false]),
        );
        expect(liteCols.map((x) => [x.name, x.family, x.notNull])).toEqual(
          cols.map((n) => [n, 'integer', false]),
        );
      }
    });
  });
});

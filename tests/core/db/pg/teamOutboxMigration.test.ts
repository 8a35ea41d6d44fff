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

// Migration 190 on PostgreSQL (docs/architecture.md "Two engines: migrations"): which team server claimed a delivery
// being sent, next to version 180's rows: every row kept, `claimed_by` NULL (claimed before the team had numbers,
// so any live server may take it over), the same rows and column as SQLite's; and the sequence that numbers the
// team's server processes, PostgreSQL's alone.

const dbs = pgMigrationDbs();

describe.skipIf(!pgAvailable())('the team outbox on PostgreSQL', () => {
  describe('migration 190: which server claimed a delivery being sent', () => {
    it("keeps version 180's rows with no server named, as SQLite does, and numbers servers from 1", async () => {
      const db = dbs.sqliteAt(180);
      const c = await dbs.pgAt(180);
      await seedBoth(db, c);
      const tables = sqliteTables(db);
      const before = await pgRows(c, tables);
      expect(await migratePg(c, upTo(190))).toEqual([190]);
      migrate(db, ':memory:', upTo(190));
      expect(await pgSchemaVersion(c)).toBe(190);
      const after = await pgRows(c, tables);
      expect(after).toEqual(sqliteRows(db, tables));
      expect(after['deliveries']!.length).toBeGreaterThan(0);
      for (const t of tables) {
        expect(after[t]!.length, t).toBe(before[t]!.length);
        const kept = after[t]!.map((r) => {
          const { claimed_by, ...rest } = r;
          if (t === 'deliveries') expect(claimed_by).toBeNull();
          return JSON.stringify(rest);
        });
        expect(kept.sort(), t).toEqual(before[t]!.map((r) => JSON.stringify(r)).sort());
      }
      const col = (cols: { name: string; family: string; notNull: boolean }[]) =>
        cols.filter((x) => x.name === 'claimed_by').map((x) => [x.family, x.notNull]);
      expect(col(await pgColumns(c, 'deliveries'))).toEqual([['integer', false]]);
      expect(col(sqliteColumns(db, 'deliveries'))).toEqual([['integer', false]]);
      const ids = await c.query<{ id: number }>("SELECT nextval('lotwatch_servers')::int AS id");
      expect(ids.rows[0]!.id).toBe(1);
    });
  });
});

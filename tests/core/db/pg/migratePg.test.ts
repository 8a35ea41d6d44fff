import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DatabaseFromFutureError } from '../../../../src/core/errors';
import { MIGRATIONS } from '../../../../src/core/db/migrations';
import { migratePg, migratePgAt, pgSchemaVersion } from '../../../../src/core/db/pg/migrate';
import type { TwoEngineMigration } from '../../../../src/core/db/migrate';
import { pgAvailable } from '../../../helpers/postgres';
import {
  FTS_TABLE,
  FTS_TRIGGERS,
  PG_ONLY_COLUMNS,
  PG_ONLY_INDEXES,
  pgColumns,
  pgMigrationDbs,
  pgTables,
  sqliteColumns,
  sqliteTables,
} from './pgSchema';

// The numbered migrations on PostgreSQL (docs/architecture.md "Two engines: migrations"): all of them on an empty
// database, the schema they leave compared with SQLite's at the same version, and migratePg's transaction, lock
// and refusal of a newer database.

const dbs = pgMigrationDbs();
const NEWEST = MIGRATIONS.at(-1)!.version;

interface SqliteIndex {
  name: string;
  table: string;
  unique: boolean;
  partial: boolean;
  origin: string;
  /** Key columns as PostgreSQL would spell them: a NOCASE column is lower(col). */
  keys: string[];
}

/** SQLite's indexes on its tables (those PRIMARY KEY and UNIQUE made included), FTS5's shadow tables left out. */
function sqliteIndexes(db: BetterSqlite3.Database): SqliteIndex[] {
  return sqliteTables(db).flatMap((table) =>
    (
      db.prepare(`PRAGMA index_list(${table})`).all() as {
        name: string;
        unique: number;
        origin: string;
        partial: number;
      }[]
    ).map((ix) => ({
      name: ix.name,
      table,
      unique: ix.unique === 1,
      partial: ix.partial === 1,
      origin: ix.origin,
      keys: (
        db.prepare(`PRAGMA index_xinfo(${ix.name})`).all() as { name: string; key: number; coll: string }[]
      )
        .filter((c) => c.key === 1)
        .map((c) => (c.coll === 'NOCASE' ? `lower(${c.name})` : c.name)),
    })),
  );
}

interface PgIndex {
  name: string;
  table: string;
  unique: boolean;
  partial: boolean;
  keys: string[];
}

async function pgIndexes(c: pg.Client): Promise<PgIndex[]> {
  const { rows } = await c.query<{
    name: string;
    table: string;
    unique: boolean;
    partial: boolean;
    keys: string[];
  }>(
    `SELECT i.relname AS name, t.relname AS table, x.indisunique AS unique, x.indpred IS NOT NULL AS partial,
       ARRAY(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts) k) AS keys
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relnamespace = current_schema()::regnamespace`,
  );
  return rows;
}

describe.skipIf(!pgAvailable())('migrations on PostgreSQL', () => {
  it('applies every migration in order to an empty database and records the newest version', async () => {
    const c = await dbs.connect(await dbs.url());
    expect(await pgSchemaVersion(c)).toBe(0);
    expect(await migratePg(c)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await pgSchemaVersion(c)).toBe(NEWEST);
    // Current: nothing more to do.
    expect(await migratePg(c)).toEqual([]);
    const { rows } = await c.query('SELECT version FROM lotwatch_schema');
    expect(rows).toEqual([{ version: NEWEST }]);
  });

  it('leaves, at every version, the tables, columns, indexes, views and triggers SQLite has', async () => {
    const c = await dbs.connect(await dbs.url());
    for (const m of MIGRATIONS) {
      await migratePg(
        c,
        MIGRATIONS.filter((x) => x.version <= m.version),
      );
      const db = dbs.sqliteAt(m.version);
      const at = `at version ${m.version}`;

      const tables = sqliteTables(db);
      expect(await pgTables(c), at).toEqual([...tables, 'lotwatch_schema'].sort());
      for (const t of tables) {
        const extra = PG_ONLY_COLUMNS[t] ?? [];
        const pgCols = (await pgColumns(c, t)).filter((col) => !extra.includes(col.name));
        const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
        const sqliteCols = sqliteColumns(db, t).map(({ name, family, notNull }) => ({
          name,
          family,
          notNull,
        }));
        expect(pgCols.sort(byName), `${t} ${at}`).toEqual(sqliteCols.sort(byName));
      }

      const pgIx = await pgIndexes(c);
      const sqliteIx = sqliteIndexes(db);
      for (const ix of sqliteIx) {
        const what = `index ${ix.name} on ${ix.table} ${at}`;
        // Indexes SQLite made for a PRIMARY KEY or UNIQUE constraint have their own names: matched by their keys.
        const twin =
          ix.origin === 'c'
            ? pgIx.find((p) => p.name === ix.name)
            : pgIx.find((p) => p.table === ix.table && p.unique && p.keys.join() === ix.keys.join());
        expect(twin, what).toBeDefined();
        expect(
          { table: twin!.table, unique: twin!.unique, partial: twin!.partial, keys: twin!.keys },
          what,
        ).toEqual({
          table: ix.table,
          unique: ix.unique,
          partial: ix.partial,
          keys: ix.keys,
        });
      }

      // And none more, but the primary keys SQLite keeps as the rowid and the counterparts PG_ONLY_INDEXES names.
      for (const p of pgIx) {
        const rowidKey = sqliteColumns(db, p.table).some(
          (col) => col.pk && col.family === 'integer' && p.keys.join() === col.name,
        );
        const known =
          PG_ONLY_INDEXES.includes(p.name) ||
          (p.unique && rowidKey) ||
          sqliteIx.some(
            (ix) =>
              ix.name === p.name ||
              (ix.origin !== 'c' && ix.table === p.table && ix.keys.join() === p.keys.join()),
          );
        expect(known, `PostgreSQL index ${p.name} on ${p.table} ${at} has no SQLite counterpart`).toBe(true);
      }

      const views = db.prepare("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name").all() as {
        name: string;
      }[];
      const pgViews = await c.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.views WHERE table_schema = current_schema() ORDER BY table_name',
      );
      expect(
        pgViews.rows.map((r) => r.table_name),
        at,
      ).toEqual(views.map((v) => v.name));
      for (const v of views) {
        const names = (cols: { name: string }[]) => cols.map((col) => col.name);
        expect(names(await pgColumns(c, v.name)), `view ${v.name} ${at}`).toEqual(
          names(sqliteColumns(db, v.name)),
        );
      }

      const triggers = (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as {
          name: string;
        }[]
      )
        .map((r) => r.name)
        .filter((n) => !FTS_TRIGGERS.includes(n));
      const pgTriggers = await c.query<{ tgname: string }>(
        `SELECT tgname FROM pg_trigger t JOIN pg_class r ON r.oid = t.tgrelid
         WHERE NOT tgisinternal AND r.relnamespace = current_schema()::regnamespace ORDER BY tgname`,
      );
      expect(
        pgTriggers.rows.map((r) => r.tgname),
        at,
      ).toEqual(triggers);

      // SQLite's full-text table has its PostgreSQL counterpart: lots.fts and its GIN index.
      const fts = db.prepare('SELECT count(*) AS n FROM sqlite_master WHERE name = ?').get(FTS_TABLE) as {
        n: number;
      };
      if (fts.n > 0) {
        const gin = await c.query(
          "SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'lots_fts' AND indexdef LIKE '%USING gin (fts)%'",
        );
        expect(gin.rowCount, at).toBe(1);
      }
      db.close();
    }
  });

  it('refuses a database from a newer version and writes nothing to it', async () => {
    const url = await dbs.url();
    const c = await dbs.connect(url);
    await migratePg(
      c,
      MIGRATIONS.filter((m) => m.version <= 30),
    );
    await c.query(`UPDATE lotwatch_schema SET version = ${NEWEST + 10}`);
    const objects = () =>
      c.query(
        'SELECT relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace ORDER BY relname',
      );
    const before = await objects();
    await expect(migratePg(c)).rejects.toBeInstanceOf(DatabaseFromFutureError);
    // The message names the database by its address, without a password, and says what to do on a server.
    const withPassword = Object.assign(new URL(url), { password: 's3cret' }).toString();
    const refused = await migratePgAt(withPassword).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(DatabaseFromFutureError);
    expect((refused as Error).message).toMatch(
      /^The PostgreSQL database postgres:\/\/lotwatch:\*\*\*@127\.0\.0\.1:\d+\/\w+ was written by a newer version of Lotwatch.*not changed.*team's other servers/s,
    );
    expect((refused as Error).message).not.toContain('s3cret');
    expect(await pgSchemaVersion(c)).toBe(NEWEST + 10);
    // Not one of the later steps' tables or indexes was made, and the connection is usable (no open transaction).
    expect((await objects()).rows).toEqual(before.rows);
    expect(await pgTables(c)).toEqual([...sqliteTables(dbs.sqliteAt(30)), 'lotwatch_schema'].sort());
  });

  it('applies each step once when two servers migrate one database at the same time', async () => {
    const url = await dbs.url();
    const a = await dbs.connect(url);
    const b = await dbs.connect(url);
    const [ra, rb] = await Promise.all([migratePg(a), migratePg(b)]);
    // One applied the whole list, the other found it applied.
    expect([ra, rb].sort((x, y) => y.length - x.length)).toEqual([MIGRATIONS.map((m) => m.version), []]);
    expect(await pgSchemaVersion(a)).toBe(NEWEST);
    const { rows } = await a.query('SELECT count(*)::int AS n FROM lotwatch_schema');
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('rolls the whole set back when a step fails, leaving the version where it was', async () => {
    const c = await dbs.connect(await dbs.url());
    await migratePg(
      c,
      MIGRATIONS.filter((m) => m.version <= 20),
    );
    const broken: TwoEngineMigration[] = [
      ...MIGRATIONS.filter((m) => m.version <= 30),
      { version: 35, name: 'broken', up: () => {}, pg: 'CREATE TABLE nonsense (' },
    ];
    await expect(migratePg(c, broken)).rejects.toThrow(/syntax error/);
    expect(await pgSchemaVersion(c)).toBe(20);
    expect(await pgTables(c)).not.toContain('cache');
    // A step written in TypeScript that throws rolls back the same way, its own writes included.
    const failing: TwoEngineMigration[] = [
      ...MIGRATIONS.filter((m) => m.version <= 30),
      {
        version: 35,
        name: 'failing',
        up: () => {},
        pg: async (client) => {
          await client.query("INSERT INTO cache (key, value, updated_at) VALUES ('k', 'v', 1)");
          throw new Error('the step failed');
        },
      },
    ];
    await expect(migratePg(c, failing)).rejects.toThrow('the step failed');
    expect(await pgSchemaVersion(c)).toBe(20);
    expect(await pgTables(c)).not.toContain('cache');
  });
});

import pg from 'pg';
import { DatabaseFromFutureError } from '../../errors';
import { redactedUrl } from '../target';
import type { PgClient, TwoEngineMigration } from '../migrate';
import { MIGRATIONS } from '../migrations';

/*
 * Migrations on PostgreSQL (docs/architecture.md "Two engines: migrations"): the same numbered list as SQLite, each
 * step's `pg` form. The version SQLite keeps in PRAGMA user_version is the one row of `lotwatch_schema` here.
 */

/**
 * The advisory lock key every migratePg takes for its transaction ('Lotw' in ASCII): two servers starting on one
 * database queue here, and the second finds the steps already applied.
 */
const MIGRATION_LOCK = 0x4c6f7477;

/**
 * The schema version of the database `client` is connected to: the row of `lotwatch_schema`, 0 when the table is
 * missing or empty (a database no Lotwatch has migrated). Reads only.
 * @throws the driver's error when the query fails.
 */
export async function pgSchemaVersion(client: PgClient): Promise<number> {
  const table = await client.query<{ t: string | null }>("SELECT to_regclass('lotwatch_schema')::text AS t");
  if (!table.rows[0]?.t) return 0;
  const { rows } = await client.query<{ version: number }>('SELECT version FROM lotwatch_schema');
  return rows[0]?.version ?? 0;
}

/**
 * Applies every migration above the database's version, all in one transaction, and sets `lotwatch_schema` to the
 * last one applied; returns the versions applied (empty when the database was current, and then nothing is
 * written). `client` is a connected `pg.Client` or a pool's `PoolClient`, not inside a transaction already. The
 * transaction first takes a transaction-level advisory lock, so two servers migrating one database at once apply
 * each step once: the second waits, then reads the version the first committed. `database` names the database in
 * the error.
 * @throws DatabaseFromFutureError when the database's version is above the newest migration (nothing written).
 * @throws the failing step's error; the whole set is rolled back and the version is unchanged.
 */
export async function migratePg(
  client: PgClient,
  migrations: readonly TwoEngineMigration[] = MIGRATIONS,
  database = 'the PostgreSQL database',
): Promise<number[]> {
  await client.query('BEGIN');
  try {
    const applied = await migratePgWithin(client, migrations, database);
    await client.query(applied.length ? 'COMMIT' : 'ROLLBACK');
    return applied;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {
      // The connection itself failed: the server rolls the transaction back when it goes.
    });
    throw e;
  }
}

/**
 * migratePg's work inside a transaction the caller has begun and will commit or roll back (a copy into PostgreSQL
 * migrates and fills the database in one transaction, so a failed copy leaves no tables behind): the advisory lock
 * (held to the end of the caller's transaction), the version check, every pending step and the new version. Returns
 * the versions applied (empty when the database was current: nothing written).
 * @throws DatabaseFromFutureError when the database's version is above the newest migration (nothing written).
 * @throws the failing step's error; the caller's transaction is then aborted and must be rolled back.
 */
export async function migratePgWithin(
  client: PgClient,
  migrations: readonly TwoEngineMigration[] = MIGRATIONS,
  database = 'the PostgreSQL database',
): Promise<number[]> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  const latest = migrations.at(-1)?.version ?? 0;
  const current = await pgSchemaVersion(client);
  if (current > latest) throw new DatabaseFromFutureError(database, current, latest, 'postgres');
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return [];
  await client.query(`
    CREATE TABLE IF NOT EXISTS lotwatch_schema (version integer NOT NULL);
    CREATE UNIQUE INDEX IF NOT EXISTS lotwatch_schema_one_row ON lotwatch_schema ((true));
  `);
  for (const m of pending) {
    if (typeof m.pg === 'string') await client.query(m.pg);
    else await m.pg(client);
  }
  const last = pending.at(-1)!.version;
  await client.query(
    'INSERT INTO lotwatch_schema (version) VALUES ($1) ON CONFLICT ((true)) DO UPDATE SET version = EXCLUDED.version',
    [last],
  );
  return pending.map((m) => m.version);
}

/**
 * migratePg over a connection of its own to `connectionString` (postgres://…), closed afterwards; BIGINT columns
 * read as JS numbers on it (ms timestamps and ids stay below 2^53). Errors name the database without its password.
 * @throws what migratePg throws, and the driver's error when the server cannot be reached.
 */
export async function migratePgAt(
  connectionString: string,
  migrations: readonly TwoEngineMigration[] = MIGRATIONS,
): Promise<number[]> {
  const types = new pg.TypeOverrides();
  types.setTypeParser(20, Number);
  const client = new pg.Client({ connectionString, types });
  await client.connect();
  try {
    return await migratePg(client, migrations, redactedUrl(connectionString));
  } finally {
    await client.end();
  }
}

import type { Kysely } from 'kysely';
import { join } from 'node:path';
import { closeDatabase, openDatabase } from '../../src/core/db/connection';
import { KyselyExec } from '../../src/core/db/kysely/exec';
import { sqliteKysely } from '../../src/core/db/kyselySqlite';
import { openPostgres } from '../../src/core/db/pg/open';
import { migratePgAt } from '../../src/core/db/pg/migrate';
import type { DB } from '../../src/core/db/schema';
import { SqliteStore } from '../../src/core/db/store';
import { pgAvailable, testDatabase } from './postgres';
import { tempDir } from './tmp';

/*
 * The engines a repository's contract test runs on (docs/architecture.md "Two engines: one store"): the desktop's
 * SQLite repositories (SqliteStore), the Kysely repositories over the same kind of SQLite file, and the Kysely
 * repositories over a real PostgreSQL database (skipped when the run has no cluster, see postgres.ts). Each opens a
 * fresh, fully migrated database; `close` ends it and removes its files.
 */

/** One fresh database for one test. */
export interface EngineDb {
  /** Which implementation: the SQLite repositories, or Kysely over SQLite or PostgreSQL. */
  readonly name: 'sqlite' | 'kysely-sqlite' | 'postgres';
  /** The SQLite store over the file (the first two cases), else null. */
  readonly sqlite: SqliteStore | null;
  /** Kysely over the database and the executor the Kysely repositories take (null for the first case). */
  readonly kysely: Kysely<DB> | null;
  readonly exec: KyselyExec | null;
  close(): Promise<void>;
}

/** An engine of the contract tests; `skip` is true when its server is not available in this run. */
export interface EngineCase {
  readonly name: EngineDb['name'];
  readonly skip: boolean;
  open(): Promise<EngineDb>;
}

function sqliteFile(): { db: ReturnType<typeof openDatabase>; cleanup(): void } {
  const t = tempDir();
  const db = openDatabase(join(t.dir, 'lotwatch.sqlite'));
  return { db, cleanup: t.cleanup };
}

/**
 * The three engines, for `describe.each(ENGINES.filter(e => !e.skip))` or `describe.skipIf(e.skip)` in a repository's
 * contract test. Call `open()` in a hook; each call is a fresh database.
 */
export function engines(): EngineCase[] {
  return [
    {
      name: 'sqlite',
      skip: false,
      open: async () => {
        const f = sqliteFile();
        return {
          name: 'sqlite',
          sqlite: new SqliteStore(f.db),
          kysely: null,
          exec: null,
          close: async () => {
            closeDatabase(f.db);
            f.cleanup();
          },
        };
      },
    },
    {
      name: 'kysely-sqlite',
      skip: false,
      open: async () => {
        const f = sqliteFile();
        const k = sqliteKysely(f.db);
        return {
          name: 'kysely-sqlite',
          sqlite: new SqliteStore(f.db),
          kysely: k,
          exec: new KyselyExec(k),
          close: async () => {
            await k.destroy();
            closeDatabase(f.db);
            f.cleanup();
          },
        };
      },
    },
    {
      name: 'postgres',
      skip: !pgAvailable(),
      open: async () => {
        const url = await testDatabase('engine');
        if (!url) throw new Error('no PostgreSQL cluster in this run');
        await migratePgAt(url);
        const h = await openPostgres(url, { max: 4 });
        return {
          name: 'postgres',
          sqlite: null,
          kysely: h.db,
          exec: new KyselyExec(h.db),
          close: () => h.close(),
        };
      },
    },
  ];
}

/**
 * Adds a team member's row (`users`, migration 160) for a contract test that writes as that member: a buyer with a
 * placeholder hash, made at time 1. Returns the Actor to `runAs` with.
 */
export async function addMember(
  db: Kysely<DB>,
  id: number,
  name: string,
): Promise<{ userId: number; name: string; role: 'buyer' }> {
  await db
    .insertInto('users')
    .values({
      id,
      login: name.toLowerCase(),
      name,
      role: 'buyer',
      password_hash: 'h',
      created_at: 1,
      updated_at: 1,
    })
    .execute();
  return { userId: id, name, role: 'buyer' };
}

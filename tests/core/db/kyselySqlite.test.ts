import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { sqliteKysely } from '../../../src/core/db/kyselySqlite';
import type { DB } from '../../../src/core/db/schema';
import { tempDir } from '../../helpers/tmp';

// Kysely over the desktop's own SQLite connection (src/core/db/kyselySqlite.ts), on a real migrated file: selects,
// inserts with RETURNING, transactions that commit and roll back, and statements prepared once.

let t: ReturnType<typeof tempDir>;
let db: Database;
let k: Kysely<DB>;
beforeEach(() => {
  t = tempDir();
  db = openDatabase(join(t.dir, 'lotwatch.sqlite'));
  k = sqliteKysely(db);
});
afterEach(async () => {
  await k.destroy();
  closeDatabase(db);
  t.cleanup();
});

const setting = (key: string, value: string) => ({ key, value, updated_at: 1_764_230_400_000 });
const alert = (dedup: string) => ({
  dedup_key: dedup,
  kind: 'price',
  title: 'Bid rose',
  body: '2019 AUDI S5: $4,200',
  created_at: 1_764_230_400_000,
  delivery: 'now',
  status: 'pending',
});

describe('Kysely over the store’s SQLite connection', () => {
  it('selects what the store wrote, with its types', async () => {
    db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run('theme', '"dark"', 5);
    const row = await k
      .selectFrom('settings')
      .selectAll()
      .where('key', '=', 'theme')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ key: 'theme', value: '"dark"', updated_at: 5 });
    const none = await k.selectFrom('settings').select('value').where('key', '=', 'nope').executeTakeFirst();
    expect(none).toBeUndefined();
  });

  it('inserts with RETURNING: the id and the defaults the database filled', async () => {
    const a = await k
      .insertInto('alerts')
      .values(alert('a1'))
      .returning(['id', 'source', 'url'])
      .executeTakeFirstOrThrow();
    const b = await k.insertInto('alerts').values(alert('a2')).returning('id').executeTakeFirstOrThrow();
    expect(a).toEqual({ id: expect.any(Number), source: '', url: null });
    expect(b.id).toBe(a.id + 1);
    // Seen by the store's own statements on the same connection.
    expect(db.prepare('SELECT dedup_key FROM alerts ORDER BY id').pluck().all()).toEqual(['a1', 'a2']);
  });

  it('inserts and updates without RETURNING: rows changed and the new rowid', async () => {
    const ins = await k
      .insertInto('settings')
      .values([setting('a', '1'), setting('b', '2')])
      .executeTakeFirstOrThrow();
    expect(ins.numInsertedOrUpdatedRows).toBe(2n);
    const upd = await k
      .updateTable('settings')
      .set({ value: '3' })
      .where('key', 'in', ['a', 'b'])
      .executeTakeFirstOrThrow();
    expect(upd.numUpdatedRows).toBe(2n);
    const blob = Buffer.from([0, 1, 2, 255]);
    await k.insertInto('secrets').values({ name: 'key', ciphertext: blob, updated_at: 1 }).execute();
    const back = await k.selectFrom('secrets').select('ciphertext').executeTakeFirstOrThrow();
    expect(Buffer.compare(back.ciphertext, blob)).toBe(0);
  });

  it('commits a transaction, and rolls one back when its body throws', async () => {
    await k.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values(setting('kept', '1')).execute();
    });
    const boom = new Error('the body failed half-way');
    await expect(
      k.transaction().execute(async (trx) => {
        await trx.insertInto('settings').values(setting('lost', '1')).execute();
        await trx.updateTable('settings').set({ value: '2' }).where('key', '=', 'kept').execute();
        expect(db.inTransaction).toBe(true);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(db.inTransaction).toBe(false);
    const rows = await k.selectFrom('settings').select(['key', 'value']).orderBy('key').execute();
    expect(rows).toEqual([{ key: 'kept', value: '1' }]);
  });

  it('rolls back to a savepoint inside a transaction', async () => {
    const trx = await k.startTransaction().execute();
    await trx.insertInto('settings').values(setting('outer', '1')).execute();
    const sp = await trx.savepoint('inner "one"').execute();
    await sp.insertInto('settings').values(setting('inner', '1')).execute();
    await sp.rollbackToSavepoint('inner "one"').execute();
    await trx.commit().execute();
    expect(db.prepare('SELECT key FROM settings').pluck().all()).toEqual(['outer']);
  });

  it('runs queries one at a time on the one connection', async () => {
    const writes = Array.from({ length: 20 }, (_, i) =>
      k.transaction().execute(async (trx) => {
        await trx
          .insertInto('settings')
          .values(setting(`k${i}`, String(i)))
          .execute();
        await trx
          .updateTable('settings')
          .set({ value: `v${i}` })
          .where('key', '=', `k${i}`)
          .execute();
      }),
    );
    await Promise.all(writes);
    const n = await k
      .selectFrom('settings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(n.n).toBe(20);
  });

  it('streams a select', async () => {
    await k
      .insertInto('settings')
      .values([setting('a', '1'), setting('b', '2'), setting('c', '3')])
      .execute();
    const keys: string[] = [];
    for await (const r of k.selectFrom('settings').select('key').orderBy('key').stream()) keys.push(r.key);
    expect(keys).toEqual(['a', 'b', 'c']);
  });

  it('prepares a statement once however often it runs, unlike Kysely’s stock driver', async () => {
    const prepare = vi.spyOn(db, 'prepare');
    const point = (q: Kysely<DB>, key: string) =>
      q.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    for (let i = 0; i < 50; i++) await point(k, `k${i}`);
    expect(prepare).toHaveBeenCalledTimes(1);
    prepare.mockClear();
    const stock = new Kysely<DB>({ dialect: new SqliteDialect({ database: db }) });
    for (let i = 0; i < 50; i++) await point(stock, `k${i}`);
    expect(prepare).toHaveBeenCalledTimes(50);
    prepare.mockRestore();
  });

  it('keeps at most the cache size, and closes nothing when destroyed', async () => {
    const small = sqliteKysely(db, { statementCache: 2 });
    const prepare = vi.spyOn(db, 'prepare');
    for (const c of ['key', 'value', 'updated_at', 'key'] as const)
      await small.selectFrom('settings').select(c).execute();
    // key, value, updated_at prepared; key was dropped as the least recent, so prepared again.
    expect(prepare).toHaveBeenCalledTimes(4);
    await small.destroy();
    prepare.mockRestore();
    expect(db.open).toBe(true);
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(k)).rows).toEqual([{ one: 1 }]);
  });
});

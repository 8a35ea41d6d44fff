import type { Database } from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../src/core/db/connection';
import { sqliteKysely } from '../../src/core/db/kyselySqlite';
import type { DB } from '../../src/core/db/schema';
import { tempDir } from '../../tests/helpers/tmp';

/**
 * Kysely on the desktop's SQLite file: what the store pays for building its queries with Kysely rather than its
 * own prepared statements. Three ways on one real file: raw better-sqlite3 statements prepared once (the store
 * today), Kysely's stock SqliteDialect (prepares every statement on every run) and the store's CachedSqliteDialect
 * (db/kyselySqlite.ts), also with the query built and compiled once and run with new values; for a point select (µs per query, a settings row by key among 1,000) and a 1,000-row insert
 * transaction into request_log (ms per transaction). Each figure is the median of ROUNDS rounds. Writes
 * bench/results/kysely.json.
 */
const ROUNDS = Number(process.env['BENCH_KYSELY_ROUNDS'] ?? 7);
const SELECTS = Number(process.env['BENCH_KYSELY_SELECTS'] ?? 20_000);
const ROWS = 1_000;

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

async function timed(run: () => Promise<void> | void): Promise<number> {
  const s = performance.now();
  await run();
  return performance.now() - s;
}

function requestRow(i: number) {
  return {
    at: 1_764_230_400_000 + i,
    endpoint: '/vehicles',
    status: 200,
    duration_ms: 120,
    bytes: 48_000,
    attempt: 1,
  };
}

it('point select and a 1,000-row insert transaction: raw statements, stock Kysely, cached Kysely', async () => {
  const t = tempDir();
  const db: Database = openDatabase(join(t.dir, 'lotwatch.sqlite'));
  const stock = new Kysely<DB>({ dialect: new SqliteDialect({ database: db }) });
  const cached = sqliteKysely(db);
  try {
    const seed = db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < 1_000; i++) seed.run(`key${i}`, JSON.stringify({ i }), i);
    })();
    const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    const ins = db.prepare(
      'INSERT INTO request_log (at, endpoint, status, duration_ms, bytes, attempt) VALUES (?, ?, ?, ?, ?, ?)',
    );

    // Built and compiled once, then run with each call's values: what is left of Kysely's cost once the builder is
    // out of the loop (the driver path: executor, connection, promise).
    const pointQuery = cached.selectFrom('settings').select('value').where('key', '=', '').compile();
    const insertQuery = cached.insertInto('request_log').values(requestRow(0)).compile();
    const withValues = <Q extends { parameters: readonly unknown[] }>(q: Q, parameters: unknown[]): Q => ({
      ...q,
      parameters,
    });
    const select: Record<string, (key: string) => Promise<unknown> | unknown> = {
      raw: (key) => get.get(key),
      kysely_stock: (key) =>
        stock.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst(),
      kysely_cached: (key) =>
        cached.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst(),
      kysely_cached_precompiled: async (key) =>
        (await cached.executeQuery(withValues(pointQuery, [key]))).rows[0],
    };
    const insert: Record<string, (base: number) => Promise<void> | void> = {
      raw: (base) =>
        db.transaction(() => {
          for (let i = 0; i < ROWS; i++) {
            const r = requestRow(base + i);
            ins.run(r.at, r.endpoint, r.status, r.duration_ms, r.bytes, r.attempt);
          }
        })(),
      kysely_stock: (base) =>
        stock.transaction().execute(async (trx) => {
          for (let i = 0; i < ROWS; i++)
            await trx
              .insertInto('request_log')
              .values(requestRow(base + i))
              .execute();
        }),
      kysely_cached: (base) =>
        cached.transaction().execute(async (trx) => {
          for (let i = 0; i < ROWS; i++)
            await trx
              .insertInto('request_log')
              .values(requestRow(base + i))
              .execute();
        }),
      kysely_cached_precompiled: (base) =>
        cached.transaction().execute(async (trx) => {
          for (let i = 0; i < ROWS; i++) {
            const r = requestRow(base + i);
            await trx.executeQuery(
              withValues(insertQuery, [r.at, r.endpoint, r.status, r.duration_ms, r.bytes, r.attempt]),
            );
          }
        }),
    };

    const out: Record<string, unknown> = {
      rounds: ROUNDS,
      selects_per_round: SELECTS,
      rows_per_insert: ROWS,
    };
    const selectUs: Record<string, number> = {};
    const insertMs: Record<string, number> = {};
    // Rounds interleave the three ways so that a slower moment of the machine falls on all of them alike.
    const samples: Record<string, { s: number[]; i: number[] }> = {};
    for (const name of Object.keys(select)) samples[name] = { s: [], i: [] };
    let base = 0;
    for (let r = 0; r < ROUNDS + 1; r++) {
      for (const name of Object.keys(select)) {
        let found = 0;
        const run = select[name]!;
        // The store's statements run synchronously today: the raw loop does not await.
        const ms =
          name === 'raw'
            ? await timed(() => {
                for (let q = 0; q < SELECTS; q++) if (run(`key${q % 1_000}`)) found++;
              })
            : await timed(async () => {
                for (let q = 0; q < SELECTS; q++) if (await run(`key${q % 1_000}`)) found++;
              });
        expect(found).toBe(SELECTS);
        const insMs = await timed(() => insert[name]!((base += ROWS)));
        // The first round warms up (JIT, the statement caches) and is not counted.
        if (r > 0) {
          samples[name]!.s.push((ms * 1000) / SELECTS);
          samples[name]!.i.push(insMs);
        }
      }
    }
    for (const [name, { s, i }] of Object.entries(samples)) {
      selectUs[name] = round(median(s));
      insertMs[name] = round(median(i), 1);
    }
    const logged = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM request_log').get()!.n;
    expect(logged).toBe((ROUNDS + 1) * Object.keys(insert).length * ROWS);
    out['point_select_us'] = selectUs;
    out['insert_1000_tx_ms'] = insertMs;
    out['cached_vs_raw'] = {
      point_select: round(selectUs['kysely_cached']! / selectUs['raw']!),
      insert_1000_tx: round(insertMs['kysely_cached']! / insertMs['raw']!),
    };
    out['cached_precompiled_vs_raw'] = {
      point_select: round(selectUs['kysely_cached_precompiled']! / selectUs['raw']!),
      insert_1000_tx: round(insertMs['kysely_cached_precompiled']! / insertMs['raw']!),
    };
    out['stock_vs_raw'] = {
      point_select: round(selectUs['kysely_stock']! / selectUs['raw']!),
      insert_1000_tx: round(insertMs['kysely_stock']! / insertMs['raw']!),
    };
    console.log(JSON.stringify(out, null, 2));
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/kysely.json', JSON.stringify(out, null, 2));
  } finally {
    await cached.destroy();
    // Kysely's stock driver closes the connection it was given; closeDatabase then has nothing left to close.
    await stock.destroy();
    closeDatabase(db);
    t.cleanup();
  }
});

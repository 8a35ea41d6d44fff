import type { Database } from 'better-sqlite3';
import type { Insertable, Selectable } from 'kysely';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import {
  TABLES,
  type AlertsTable,
  type ColumnSpec,
  type DB,
  type LotFacetsTable,
  type LotsTable,
  type SearchMembersTable,
  type SecretsTable,
} from '../../../src/core/db/schema';

// The Kysely description of the store (src/core/db/schema.ts) against the schema the migrations really build: every
// table and column, its nullability, its type family and whether the database fills it. A migration that changes
// the schema, or an edit of TABLES that the schema does not back, fails here.

let db: Database;
beforeAll(() => {
  db = openDatabase(':memory:');
});
afterAll(() => closeDatabase(db));

/** SQLite's declared type to a family (STRICT tables allow only these), or a word that matches no ColumnSpec. */
function family(declared: string): string {
  const t = declared.toUpperCase();
  if (t === 'INTEGER' || t === 'INT') return 'integer';
  if (t === 'REAL') return 'real';
  if (t === 'TEXT') return 'text';
  if (t === 'BLOB') return 'blob';
  return `unknown type ${declared || '(none)'}`;
}

interface XInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}

/** Every ordinary table of the migrated file (not SQLite's own, not the FTS index and its shadow tables). */
function schemaAsSpecs(): Record<string, Record<string, string>> {
  const tables = db
    .prepare<[], { name: string; wr: number }>(
      "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .all();
  const out: Record<string, Record<string, string>> = {};
  for (const t of tables) {
    const cols = db.prepare<[string], XInfo>('SELECT * FROM pragma_table_xinfo(?)').all(t.name);
    const pk = cols.filter((c) => c.pk > 0);
    out[t.name] = {};
    for (const c of cols.filter((col) => col.hidden === 0)) {
      const rowid = !t.wr && pk.length === 1 && c.pk === 1 && c.type.toUpperCase() === 'INTEGER';
      out[t.name]![c.name] = rowid
        ? 'id'
        : `${family(c.type)}${c.notnull ? '' : '?'}${c.dflt_value === null ? '' : ' default'}`;
    }
  }
  return out;
}

describe('the Kysely description of the store', () => {
  it('names every table and column the migrations build, with its nullability, family and default', () => {
    expect(TABLES).toEqual(schemaAsSpecs());
  });

  it('leaves out the full-text index and its shadow tables, and only those', () => {
    const all = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name)
      .filter((n) => !(n in TABLES));
    expect(all.sort()).toEqual([
      'lots_fts',
      'lots_fts_config',
      'lots_fts_data',
      'lots_fts_docsize',
      'lots_fts_idx',
    ]);
  });

  it('catches drift both ways (a column missing, one too many, a changed nullability)', () => {
    const actual = schemaAsSpecs();
    const { url: _url, ...alertsLess } = actual['alerts']!;
    expect({ ...TABLES, alerts: alertsLess }).not.toEqual(actual);
    expect({ ...TABLES, alerts: { ...TABLES.alerts, extra: 'text' } }).not.toEqual(actual);
    expect({ ...TABLES, alerts: { ...TABLES.alerts, url: 'text' } }).not.toEqual(actual);
  });

  it('gives the row types the app reads (checked by the type checker)', () => {
    const specs: readonly ColumnSpec[] = Object.values(TABLES).flatMap((t) => Object.values(t));
    expect(specs.length).toBeGreaterThan(100);
    expectTypeOf<keyof DB>().toEqualTypeOf<keyof typeof TABLES>();
    expectTypeOf<Selectable<LotsTable>['raw_z']>().toEqualTypeOf<Buffer | null>();
    expectTypeOf<Selectable<LotsTable>['current_bid_usd']>().toEqualTypeOf<number | null>();
    expectTypeOf<Selectable<LotsTable>['lot_key']>().toEqualTypeOf<string>();
    expectTypeOf<Selectable<LotsTable>['tags']>().toEqualTypeOf<string>();
    expectTypeOf<Selectable<SecretsTable>['ciphertext']>().toEqualTypeOf<Buffer>();
    expectTypeOf<Selectable<AlertsTable>['id']>().toEqualTypeOf<number>();
    expectTypeOf<Selectable<LotFacetsTable>['lot_rowid']>().toEqualTypeOf<number>();
    // An insert may leave out ids, defaults and nullable columns, and must give the rest.
    expectTypeOf<Insertable<AlertsTable>>().branded.toEqualTypeOf<{
      id?: number;
      dedup_key: string;
      kind: string;
      lot_key?: string | null;
      change_id?: number | null;
      source?: string;
      title: string;
      body: string;
      reason?: string | null;
      created_at: number;
      delivery: string;
      status: string;
      deliver_after?: number | null;
      delivered_at?: number | null;
      read_at?: number | null;
      url?: string | null;
    }>();
    expectTypeOf<Insertable<SearchMembersTable>>().branded.toEqualTypeOf<{
      search_id: number;
      lot_key: string;
      first_seen_at: number;
      last_seen_at: number;
    }>();
  });
});

import BetterSqlite3 from 'better-sqlite3';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { schemaVersion } from '../../../src/core/db/migrate';
import { MIGRATIONS } from '../../../src/core/db/migrations';
import { SqliteStore } from '../../../src/core/db/store';
import { dumpDataFile, lostSince, type DataFileDump, type Transformed } from '../../fixtures/datafile/dump';
import { tempDir } from '../../helpers/tmp';

// A buyer's data file of schema 150 (tests/fixtures/datafile/README.md), made by the Lotwatch that wrote such files,
// opened by today's Lotwatch: every pending migration runs and every row of every table the file had is read back
// with every value it had. A later migration may add tables, columns and rows; one that rewrites a value on purpose
// lists the column in TRANSFORMED below with its version, and its own upgrade test holds what it writes.

const FIXTURE = 'tests/fixtures/datafile/lotwatch-v150.sqlite';
const DUMP = JSON.parse(
  readFileSync('tests/fixtures/datafile/lotwatch-v150.rows.json', 'utf8'),
) as DataFileDump;

/**
 * Columns later migrations rewrite on purpose (their rows must still be there; their values are not compared).
 * None yet: schema 150 is the newest.
 */
const TRANSFORMED: readonly Transformed[] = [];

const dirs: { cleanup(): void }[] = [];
const open: BetterSqlite3.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) closeDatabase(db);
  for (const d of dirs.splice(0)) d.cleanup();
});

/** A copy of the fixture in a fresh temp folder, as a buyer's data folder holds it; returns its path. */
function copyOfFixture(): string {
  const t = tempDir();
  dirs.push(t);
  const path = join(t.dir, 'lotwatch.sqlite');
  copyFileSync(FIXTURE, path);
  return path;
}

/** The fixture's copy opened by today's `openDatabase`: every pending migration applied. */
function upgraded(): BetterSqlite3.Database {
  const db = openDatabase(copyOfFixture());
  open.push(db);
  return db;
}

/** The fixture's table `name` from the dump. @throws Error when the dump has no such table. */
function table(name: string): DataFileDump['tables'][number] {
  const t = DUMP.tables.find((x) => x.name === name);
  if (!t) throw new Error(`the dump has no table ${name}`);
  return t;
}

describe('a schema-150 data file upgraded by today’s Lotwatch', () => {
  it('is the file its dump describes: schema 150, every row of every table, nothing else', () => {
    const raw = new BetterSqlite3(copyOfFixture());
    try {
      expect(schemaVersion(raw)).toBe(150);
      expect(dumpDataFile(raw)).toEqual(DUMP);
    } finally {
      raw.close();
    }
    // The fixture is a buyer's first hours: every table holds rows.
    expect(DUMP.tables.filter((t) => t.rows.length === 0).map((t) => t.name)).toEqual([]);
  });

  it('keeps every row of every table with every value, and the file checks whole at the newest schema', () => {
    const db = upgraded();
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(lostSince(DUMP, db, TRANSFORMED)).toEqual([]);
    // Each lot keeps its facts row, linked by the lot's rowid (the Library's filters and the full-text index).
    const unlinked = db
      .prepare<[], { n: number }>(
        'SELECT count(*) AS n FROM lots WHERE NOT EXISTS (SELECT 1 FROM lot_facets f WHERE f.lot_rowid = lots.rowid)',
      )
      .get()!.n;
    expect(unlinked).toBe(0);
  });

  it('finds a lot of the file by its VIN, by its make and by the buyer’s notes in the library’s full-text search', () => {
    const db = upgraded();
    // FTS5's own check: the index agrees with the rows it indexes (throws SQLITE_CORRUPT_VTAB when it does not).
    db.prepare("INSERT INTO lots_fts(lots_fts) VALUES ('integrity-check')").run();
    const store = new SqliteStore(db).sync;
    const lots = table('lots').rows;
    const withVin = lots.find((l) => typeof l['vin'] === 'string' && typeof l['make'] === 'string')!;
    const byVin = store.library.find(withVin['vin'] as string, 50, 0)!;
    expect(byVin.rows.map((r) => r.lot_key)).toContain(withVin['lot_key']);
    const make = withVin['make'] as string;
    const ofMake = lots.filter((l) => l['make'] === make).map((l) => l['lot_key']);
    const byMake = store.library.find(make, 500, 0)!;
    expect(ofMake.length).toBeGreaterThan(1);
    expect(byMake.rows.map((r) => r.lot_key)).toEqual(expect.arrayContaining(ofMake));
    const noted = lots.find((l) => typeof l['notes'] === 'string' && /airbags/.test(l['notes']))!;
    expect(store.library.find('airbags', 50, 0)!.rows.map((r) => r.lot_key)).toEqual([noted['lot_key']]);
  });

  it('would say so if a row or a value went missing', () => {
    const db = upgraded();
    // A logged request (no other row hangs on it) deleted and a setting changed behind the upgrade's back.
    const request = table('request_log').rows[0]!;
    const setting = table('settings').rows.find((r) => r['key'] === 'theme')!;
    db.prepare('DELETE FROM request_log WHERE id = ?').run(request['id']);
    db.prepare("UPDATE settings SET value = '\"light\"' WHERE key = 'theme'").run();
    expect(setting['value']).toBe('"dark"');
    expect(lostSince(DUMP, db)).toEqual([
      `request_log row id=${JSON.stringify(request['id'])} is gone`,
      'settings row key="theme": value was "\\"dark\\"", is "\\"light\\""',
    ]);
  });

  it('lists a rewritten column only with the later migration that rewrites it', () => {
    for (const x of TRANSFORMED) {
      expect(x.version, x.why).toBeGreaterThan(150);
      expect(MIGRATIONS.map((m) => m.version)).toContain(x.version);
      expect(table(x.table).columns).toContain(x.column);
    }
  });
});

import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { SqliteStore } from '../../../src/core/db/store';
import { migrateTo, migrationFiles } from './migrationFile';

// A schema-90 file (stored lots, no market answers) gets the table of market comparables' answers per band. The lots
// already stored stay as they were and are read as comparables by the current repositories; a band asked for the
// first time has no answer.

const files = migrationFiles();

const BAND = { source: 'demo', platform: 'iaai', make: 'audi', model: 's5', year_from: 2017, year_to: 2019 };

describe('migration 100: market comparables', () => {
  it('adds market_comps to a schema-90 file; the stored lots stay and are comparables', () => {
    const path = files.at(90, (db) => {
      db.prepare(
        `INSERT INTO lots (lot_key, platform, lot_number, vin, title, year, make, model, location, state,
          last_sold_status, current_bid_usd, sale_price_usd, auction_at, normalized, raw, raw_hash,
          first_seen_at, last_observed_at)
         VALUES ('iaai:45139005', 'iaai', '45139005', 'WAUB4CF56JA126812', '2018 AUDI S5', 2018, 'AUDI', 'S5',
          'Boston - Shirley (MA)', 'finished', 'Sold', 9250, 9250, 1785850200000,
          '{"odometer": 60000, "damage": "Front end", "title_document": {"name": "MV-907A", "group": "approved"}}',
          '{}', 'h', 1, 2)`,
      ).run();
    });
    const raw = new BetterSqlite3(path);
    const before = raw.prepare('SELECT * FROM lots').all();
    expect(migrateTo(raw, path, 100)).toEqual([100]);
    expect(raw.prepare('SELECT * FROM lots').all()).toEqual(before);
    expect(raw.prepare('SELECT count(*) AS n FROM market_comps').get()).toEqual({ n: 0 });
    raw.close();

    const db = openDatabase(path);
    const s = new SqliteStore(db).sync;
    expect(s.market.get(BAND)).toBeNull();
    const found = s.comps.candidates({
      make: 'AUDI',
      model: 'S5',
      year_from: 2017,
      year_to: 2019,
      except_key: 'iaai:1',
    });
    expect(found.lots).toMatchObject([
      { lot_key: 'iaai:45139005', outcome: 'sold', sale_price_usd: 9250, title_group: 'salvage_repairable' },
    ]);
    s.market.put(BAND, 1000, ['iaai:45139005'], 1, 1);
    s.market.fail({ ...BAND, make: 'AUDI', model: 'S5' }, 2000, 'The service had a problem (HTTP 502).');
    expect(s.market.get(BAND)).toMatchObject({
      make: 'AUDI',
      fetched_at: 1000,
      lot_keys: ['iaai:45139005'],
      error: 'The service had a problem (HTTP 502).',
      error_at: 2000,
    });
    closeDatabase(db);
  });
});

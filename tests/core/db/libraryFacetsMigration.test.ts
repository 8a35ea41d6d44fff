import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { normalizeVehicle } from '../../../src/core/api/parse';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { LibraryRepo, type LibraryFilters } from '../../../src/core/db/libraryRepo';
import type { FacetCounts, LibraryFacet } from '../../../src/shared/libraryFacets';
import { realFinishedRecord } from '../api/fixtures/realRecords';
import { migrationFiles } from './migrationFile';

// The Library finds and counts lots by what a buyer sorts on (damage, title document, run condition, keys, seller
// type, export, sale result, sale date), on a real SQLite file; migration 120 indexes the lots already stored.

const files = migrationFiles();

interface Facts {
  damage: string | null;
  secondary: string | null;
  doc: string | null;
  runValue: string | null;
  runLabel: string | null;
  key: boolean | null;
  seller: string | null;
  exportOk: boolean | null;
  sold: string | null;
  soldDay: string | null;
}

/** A normalised record (the real finished IAAI record's) with the given facts. */
function record(platform: string, lot: string, x: Facts): string {
  const { raw: _raw, ...v } = normalizeVehicle(realFinishedRecord(), []);
  return JSON.stringify({
    ...v,
    platform,
    lot_number: lot,
    damage: x.damage,
    secondary_damage: x.secondary,
    run_condition: x.runValue,
    run_condition_label: x.runLabel,
    has_key: x.key,
    title_document: { ...v.title_document, name: x.doc, brand: null, export: x.exportOk },
    seller: { name: 'Seller Co', type: x.seller },
    auction: { ...v.auction, last_sold_status: x.sold, last_sold_day: x.soldDay },
  });
}

const LOTS: [key: string, facts: Facts][] = [
  [
    'copart:101',
    {
      damage: 'Hail',
      secondary: null,
      doc: 'CLEAN TITLE',
      runValue: 'RUN AND DRIVE',
      runLabel: 'Run and Drive',
      key: true,
      seller: 'insurance',
      exportOk: true,
      sold: 'Sold',
      soldDay: '2026-07-31',
    },
  ],
  [
    'iaai:102',
    {
      damage: 'Front end',
      secondary: 'Hail',
      doc: 'SALVAGE - REPAIRABLE-COLLISION',
      runValue: 'RUNS AND DRIVES',
      runLabel: 'Runs and drives',
      key: false,
      seller: 'non_insurance',
      exportOk: false,
      sold: 'Sold on Approval',
      soldDay: '2026-08-04',
    },
  ],
  [
    'iaai:103',
    {
      damage: 'Flood',
      secondary: 'Undercarriage',
      doc: 'SALVAGE',
      runValue: 'STATIONARY / NO INFORMATION',
      runLabel: 'Stationary / no information',
      key: true,
      seller: 'insurance',
      exportOk: true,
      sold: null,
      soldDay: null,
    },
  ],
  [
    'copart:104',
    {
      damage: 'Rear end',
      secondary: null,
      doc: 'REBUILT',
      runValue: 'ENGINE START PROGRAM',
      runLabel: 'Starts',
      key: null,
      seller: 'unknown',
      exportOk: null,
      sold: null,
      soldDay: null,
    },
  ],
];

/** Stores the lots as an older Lotwatch's SQL did (the triggers of the file's version index them). */
function seed(db: BetterSqlite3.Database): void {
  const ins = db.prepare(`INSERT INTO lots (lot_key, platform, lot_number, vin, title, make, model, location,
    normalized, raw, raw_hash, first_seen_at, last_observed_at) VALUES (?, ?, ?, ?, '2019 AUDI S5', 'AUDI', 'S5',
    'Dundalk (MD)', ?, '{}', 'h', 0, ?)`);
  LOTS.forEach(([key, facts], i) => {
    const [platform, lot] = key.split(':') as [string, string];
    ins.run(key, platform, lot, `WAUC4CF50KA00010${i}`, record(platform, lot, facts), i);
  });
  // A damaged record reads as no facts and never fails a search.
  ins.run('iaai:999', 'iaai', '999', null, 'not json', 9);
}

const none: LibraryFilters = { repairToValueMax: null, hasAcv: false };
const keys = (lib: LibraryRepo, q: string, f: LibraryFilters = none) =>
  lib
    .filtered(q, f, 100, 0)
    .rows.map((r) => r.lot_key)
    .sort();
const counts = (c: FacetCounts, facet: LibraryFacet) =>
  Object.fromEntries(c.find((g) => g.facet === facet)!.values.map((v) => [v.value, v.count]));

function withDb(file: string, run: (lib: LibraryRepo) => void): void {
  const db = openDatabase(file);
  try {
    run(new LibraryRepo(db));
  } finally {
    closeDatabase(db);
  }
}

describe('library facets', () => {
  it('finds "hail", "salvage" and "runs and drives" in the records, and only there', () => {
    withDb(files.at(120, seed), (lib) => {
      expect(keys(lib, 'hail')).toEqual(['copart:101', 'iaai:102']);
      expect(keys(lib, 'salvage')).toEqual(['iaai:102', 'iaai:103']);
      expect(keys(lib, 'runs and drives')).toEqual(['copart:101', 'iaai:102']);
      expect(keys(lib, 'Run and Drive')).toEqual(['copart:101', 'iaai:102']);
      expect(keys(lib, 'starts')).toEqual(['copart:104']);
      expect(keys(lib, 'salvage -hail')).toEqual(['iaai:103']);
      expect(keys(lib, 'rebuilt')).toEqual(['copart:104']);
      // The old columns are still searched, the VIN and lot number included.
      expect(keys(lib, 'audi s5')).toHaveLength(5);
      expect(keys(lib, '103')).toEqual(['iaai:103']);
      // Stemming leaves VINs and typed prefixes alone.
      expect(keys(lib, 'WAUC4CF50KA000102')).toEqual(['iaai:103']);
      expect(keys(lib, 'wauc4cf5')).toHaveLength(4);
      expect(keys(lib, 'aud')).toHaveLength(5);
      expect(keys(lib, 'salv')).toEqual(['iaai:102', 'iaai:103']);
      expect(lib.find('hail', 100, 0)!.total).toBe(2);
    });
  });

  it('counts every facet over the current query, each without its own pick', () => {
    withDb(files.at(120, seed), (lib) => {
      const all = lib.facets('', none);
      expect(counts(all, 'damage')).toEqual({ Hail: 1, 'Front end': 1, Flood: 1, 'Rear end': 1 });
      expect(counts(all, 'secondary_damage')).toEqual({ Hail: 1, Undercarriage: 1 });
      expect(counts(all, 'title_document')).toEqual({
        'CLEAN TITLE': 1,
        'SALVAGE - REPAIRABLE-COLLISION': 1,
        SALVAGE: 1,
        REBUILT: 1,
      });
      expect(counts(all, 'run_condition')).toEqual({
        'Run and Drive': 1,
        'Runs and drives': 1,
        'Stationary / no information': 1,
        Starts: 1,
      });
      expect(counts(all, 'keys')).toEqual({ yes: 2, no: 1 });
      expect(counts(all, 'seller_type')).toEqual({ insurance: 2, non_insurance: 1, unknown: 1 });
      expect(counts(all, 'export')).toEqual({ yes: 2, no: 1 });
      expect(counts(all, 'sale_result')).toEqual({ Sold: 1, 'Sold on Approval': 1 });
      expect(counts(all, 'sale_month')).toEqual({ '2026-07': 1, '2026-08': 1 });
      // Most first.
      expect(all.find((g) => g.facet === 'keys')!.values.map((v) => v.value)).toEqual(['yes', 'no']);

      const salvage = lib.facets('salvage', none);
      expect(counts(salvage, 'title_document')).toEqual({ 'SALVAGE - REPAIRABLE-COLLISION': 1, SALVAGE: 1 });
      expect(counts(salvage, 'keys')).toEqual({ yes: 1, no: 1 });

      const picked: LibraryFilters = { ...none, facets: { seller_type: ['insurance'], keys: ['yes'] } };
      expect(keys(lib, '', picked)).toEqual(['copart:101', 'iaai:103']);
      expect(keys(lib, 'hail', picked)).toEqual(['copart:101']);
      const c = lib.facets('', picked);
      // Seller type counts apply the keys pick only; keys counts apply the seller pick only.
      expect(counts(c, 'seller_type')).toEqual({ insurance: 2 });
      expect(counts(c, 'keys')).toEqual({ yes: 2 });
      expect(counts(c, 'damage')).toEqual({ Hail: 1, Flood: 1 });
      expect(lib.filtered('', picked, 100, 0).total).toBe(2);
      // Several values of one facet: any of them.
      const either: LibraryFilters = { ...none, facets: { damage: ['Hail', 'Flood'] } };
      expect(keys(lib, '', either)).toEqual(['copart:101', 'iaai:103']);
      expect(keys(lib, 'salvage', either)).toEqual(['iaai:103']);
    });
  });

  it('keeps the index in step when a record changes or a lot is removed', () => {
    const file = files.at(120, seed);
    const db = openDatabase(file);
    try {
      const lib = new LibraryRepo(db);
      const [, facts] = LOTS[3]!;
      db.prepare('UPDATE lots SET normalized = ? WHERE lot_key = ?').run(
        record('copart', '104', { ...facts, damage: 'Hail' }),
        'copart:104',
      );
      expect(keys(lib, 'hail')).toEqual(['copart:101', 'copart:104', 'iaai:102']);
      db.prepare('DELETE FROM lots WHERE lot_key = ?').run('copart:101');
      expect(keys(lib, 'hail')).toEqual(['copart:104', 'iaai:102']);
      expect(counts(lib.facets('hail', none), 'damage')).toEqual({ Hail: 1, 'Front end': 1 });
      expect(counts(lib.facets('', none), 'damage')).toEqual({ Hail: 1, 'Front end': 1, Flood: 1 });
      // FTS5's own check throws when the index disagrees with the records it was built from.
      expect(() =>
        db.prepare("INSERT INTO lots_fts(lots_fts) VALUES ('integrity-check')").run(),
      ).not.toThrow();
    } finally {
      closeDatabase(db);
    }
  });
});

describe('migration 120: the full-text index and facets of the lots already stored', () => {
  it("indexes and counts a file's lots stored at version 110", () => {
    const file = files.at(110, seed);
    withDb(file, (lib) => {
      expect(keys(lib, 'hail')).toEqual(['copart:101', 'iaai:102']);
      expect(keys(lib, 'salvage')).toEqual(['iaai:102', 'iaai:103']);
      expect(keys(lib, 'runs and drives')).toEqual(['copart:101', 'iaai:102']);
      expect(counts(lib.facets('', none), 'keys')).toEqual({ yes: 2, no: 1 });
    });
  });
});

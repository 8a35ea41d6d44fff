import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ftsQuery, plainTsQuery, tsExcludeOnly, tsQuery } from '../../../../src/core/db/ftsQuery';
import { KyselyLibraryRepo } from '../../../../src/core/db/kysely/libraryRepo';
import { KyselyLotsRepo } from '../../../../src/core/db/kysely/lotsRepo';
import type { LibraryFilters, LibraryRepo } from '../../../../src/core/db/libraryRepo';
import type { LotRow, LotsRepo } from '../../../../src/core/db/lotsRepo';
import type { Async } from '../../../../src/core/db/store';
import type { FacetCounts, LibraryFacet } from '../../../../src/shared/libraryFacets';
import type { Vehicle } from '../../../../src/shared/vehicle';
import { engines, type EngineCase, type EngineDb } from '../../../helpers/engines';
import { NO_PRICES } from '../../diff/fixtures';
import { vehicle } from '../../watch/storeFixtures';

// LibraryRepo's contract (src/core/db/libraryRepo.ts defines it): the Library's search (words, -word, OR, "quoted
// phrases"), its filters and facet counts and its default list, on the SQLite repositories, the Kysely repository over
// a SQLite file and over PostgreSQL (lots.fts, a tsvector, where SQLite has FTS5). The lots are stored through each
// engine's own LotsRepo.observe, so PostgreSQL's generated column and facet triggers index them as a real poll would.
// Each case asserts what the Library must show, then that the answer equals the SQLite store's on the same lots.

/** One engine's database with its library and lots repositories. */
interface Under {
  db: EngineDb;
  library: Async<LibraryRepo>;
  lots: Async<LotsRepo>;
  /** The engine's full-text expression for a search box text (FTS5 MATCH, or to_tsquery text). */
  expr: (text: string) => string | null;
}

async function openUnder(e: EngineCase): Promise<Under> {
  const db = await e.open();
  if (db.name === 'sqlite') {
    return { db, library: db.sqlite!.library, lots: db.sqlite!.lots, expr: ftsQuery };
  }
  const engine = db.name === 'postgres' ? 'postgres' : 'sqlite';
  return {
    db,
    library: new KyselyLibraryRepo(db.exec!, engine),
    lots: new KyselyLotsRepo(db.exec!, engine),
    expr: engine === 'postgres' ? tsQuery : ftsQuery,
  };
}

interface Facts {
  title: string;
  make: string;
  model: string;
  vin: string;
  damage: string | null;
  secondary: string | null;
  doc: string | null;
  exportOk: boolean | null;
  runLabel: string | null;
  key: boolean | null;
  seller: string | null;
  sold: string | null;
  soldDay: string | null;
  acv: number | null;
  repairToValue: number | null;
}

/** A stored record with the facts a buyer searches, filters and counts by. */
function record(key: string, x: Facts): Vehicle {
  const [platform, lot] = key.split(':') as [string, string];
  const base = vehicle();
  return vehicle({
    platform,
    lot_number: lot,
    vin: x.vin,
    title: x.title,
    make: x.make,
    model: x.model,
    damage: x.damage,
    secondary_damage: x.secondary,
    title_document: { name: x.doc, group: null, export: x.exportOk, brand: null },
    run_condition_label: x.runLabel,
    run_condition: x.runLabel?.toUpperCase() ?? null,
    has_key: x.key,
    seller: { name: 'Seller Co', type: x.seller },
    auction: { ...base.auction, last_sold_status: x.sold, last_sold_day: x.soldDay },
    pricing: { ...NO_PRICES, current_bid_usd: 500, acv_usd: x.acv, repair_to_value: x.repairToValue },
  });
}

const none: Facts = {
  title: '',
  make: '',
  model: '',
  vin: '',
  damage: null,
  secondary: null,
  doc: null,
  exportOk: null,
  runLabel: null,
  key: null,
  seller: null,
  sold: null,
  soldDay: null,
  acv: null,
  repairToValue: null,
};

/** The Library's lots, stored in this order (the last one is the most recently seen). */
const LOTS: [key: string, facts: Facts][] = [
  [
    'copart:1',
    {
      ...none,
      title: '2019 AUDI A4 QUATTRO',
      make: 'AUDI',
      model: 'A4',
      vin: 'WAUENAF40KA000001',
      damage: 'Hail',
      doc: 'CLEAN TITLE',
      exportOk: true,
      runLabel: 'Run and Drive',
      key: true,
      seller: 'insurance',
      sold: 'Sold',
      soldDay: '2026-07-31',
      acv: 20000,
      repairToValue: 0.3,
    },
  ],
  [
    'copart:2',
    {
      ...none,
      title: '2018 AUDI A4',
      make: 'AUDI',
      model: 'A4',
      vin: 'WAUENAF40JA000002',
      damage: 'Front end',
      secondary: 'Hail',
      doc: 'SALVAGE - REPAIRABLE-COLLISION',
      exportOk: false,
      runLabel: 'Runs and drives',
      key: false,
      seller: 'non_insurance',
      sold: 'Sold on Approval',
      soldDay: '2026-08-04',
      acv: 15000,
      repairToValue: 0.6,
    },
  ],
  [
    'iaai:3',
    {
      ...none,
      title: '2020 TOYOTA CAMRY SE',
      make: 'TOYOTA',
      model: 'CAMRY',
      vin: '4T1B11HK5LU000003',
      damage: 'Flood',
      secondary: 'Undercarriage',
      doc: 'SALVAGE',
      exportOk: true,
      runLabel: 'Stationary',
      key: true,
      seller: 'insurance',
    },
  ],
  [
    'iaai:4',
    {
      ...none,
      title: '2019 TOYOTA COROLLA',
      make: 'TOYOTA',
      model: 'COROLLA',
      vin: '2T1BURHE0KC000004',
      damage: 'Rear end',
      doc: 'REBUILT',
      runLabel: 'Starts',
      seller: 'unknown',
      acv: 9000,
      repairToValue: 0.2,
    },
  ],
  [
    'copart:5',
    {
      ...none,
      title: '2021 TESLA MODEL 3',
      make: 'TESLA',
      model: 'MODEL 3',
      vin: '5YJ3E1EA7KF317000',
      damage: 'Hail',
      doc: 'CLEAN TITLE',
      exportOk: true,
      key: true,
      seller: 'insurance',
    },
  ],
  [
    'copart:6',
    {
      ...none,
      title: '2017 TESLA MODEL S 3RD ROW',
      make: 'TESLA',
      model: 'MODEL S',
      vin: '5YJSA1E2XHF000006',
      damage: 'Side',
      doc: 'SALVAGE',
      key: true,
      seller: 'insurance',
      sold: 'Sold',
      soldDay: '2026-08-20',
    },
  ],
  [
    'copart:7',
    {
      ...none,
      title: '2015 FORD F-150 XLT',
      make: 'FORD',
      model: 'F-150',
      vin: '1FTEW1EF0FFA00007',
      damage: 'Vandalism',
    },
  ],
];

/** Search box text of every kind: query syntax of both engines, words, and arbitrary strings. */
const oddText = fc.oneof(
  fc
    .array(
      fc.oneof(
        fc.constantFrom('"', '\u201c', '-', ' OR ', '(', ')', '*', ':', '&', '|', '!', '<->', "'", '\\', ' '),
        fc.constantFrom('audi', 'camry', 'model', '3', 'f-150', 'é', 'the', 'and', 'a4/s4'),
        fc.string({ maxLength: 4 }),
      ),
      { maxLength: 16 },
    )
    .map((parts) => parts.join('')),
  fc.string({ maxLength: 30 }),
);

const NO_FILTER: LibraryFilters = { repairToValueMax: null, hasAcv: false };

const keys = (r: { rows: LotRow[] } | null) => r && r.rows.map((x) => x.lot_key);
const sortedKeys = (r: { rows: LotRow[]; total: number } | null) =>
  r && { keys: r.rows.map((x) => x.lot_key).sort(), total: r.total };
const counts = (c: FacetCounts, facet: LibraryFacet) =>
  Object.fromEntries(c.find((g) => g.facet === facet)!.values.map((v) => [v.value, v.count]));

describe.each(engines())('LibraryRepo contract: $name', (e) => {
  let u: Under;
  let ref: Under;
  beforeAll(async () => {
    if (e.skip) return;
    u = await openUnder(e);
    ref = await openUnder(engines()[0]!);
    for (const x of [u, ref]) {
      for (const [i, [key, facts]] of LOTS.entries())
        await x.lots.observe(record(key, facts), 1000 * (i + 1), 't');
    }
  });
  afterAll(async () => {
    if (e.skip) return;
    await u.db.close();
    await ref.db.close();
  });

  /** `q` on this engine and on the SQLite store: this engine's answer, after checking that both agree. */
  async function same<T>(q: (x: Under) => Promise<T>): Promise<T> {
    const got = await q(u);
    expect(got).toEqual(await q(ref));
    return got;
  }

  it.skipIf(e.skip)(
    'lists every lot most recently seen first, a page at a time, and counts them',
    async () => {
      expect((await same((x) => x.library.recent(4, 0))).map((r) => r.lot_key)).toEqual([
        'copart:7',
        'copart:6',
        'copart:5',
        'iaai:4',
      ]);
      expect((await same((x) => x.library.recent(4, 4))).map((r) => r.lot_key)).toEqual([
        'iaai:3',
        'copart:2',
        'copart:1',
      ]);
      expect(await same((x) => x.library.count())).toBe(7);
      // The rows are whole lot rows, the same on every engine (no engine-only column such as PostgreSQL's fts).
      expect(Object.keys((await u.library.recent(1, 0))[0]!).sort()).toEqual(
        Object.keys((await u.lots.getRow('copart:6'))!).sort(),
      );
    },
  );

  it.skipIf(e.skip)('finds words as prefixes, -word, OR and "quoted phrases"', async () => {
    const find = (text: string) => same(async (x) => sortedKeys(await x.library.find(text, 100, 0)));
    expect(await find('audi -quattro')).toEqual({ keys: ['copart:2'], total: 1 });
    expect(await find('camry OR corolla')).toEqual({ keys: ['iaai:3', 'iaai:4'], total: 2 });
    expect(await find('"model 3"')).toEqual({ keys: ['copart:5'], total: 1 });
    expect(await find('model 3')).toEqual({ keys: ['copart:5', 'copart:6'], total: 2 });
    expect(await find('toyo')).toEqual({ keys: ['iaai:3', 'iaai:4'], total: 2 });
    expect(await find('5YJ3E1')).toEqual({ keys: ['copart:5'], total: 1 });
    expect(await find('hail')).toEqual({ keys: ['copart:1', 'copart:2', 'copart:5'], total: 3 });
    expect(await find('salvage -hail')).toEqual({ keys: ['copart:6', 'iaai:3'], total: 2 });
    expect(await find('runs and drives')).toEqual({ keys: ['copart:1', 'copart:2'], total: 2 });
    expect(await find('"Run and Drive"')).toEqual({ keys: ['copart:1', 'copart:2'], total: 2 });
    expect(await find('-"model 3" tesla OR camry')).toEqual({ keys: ['copart:6', 'iaai:3'], total: 2 });
    expect(await find('zzzz')).toEqual({ keys: [], total: 0 });
    expect(await find('  -- "" ')).toBeNull();
  });

  it.skipIf(e.skip)('lists every other lot, most recently seen first, for left-out words only', async () => {
    const r = await same((x) => x.library.find('-audi -tesla', 100, 0));
    expect(keys(r)).toEqual(['copart:7', 'iaai:4', 'iaai:3']);
    expect(r!.total).toBe(3);
  });

  it.skipIf(e.skip)('pages the best matches first', async () => {
    // "audi a4 quattro" names lot 1 in three words, lot 2 in two: lot 1 is the better match on both engines.
    const best = await same(async (x) => keys(await x.library.find('audi OR quattro', 1, 0)));
    expect(best).toEqual(['copart:1']);
    expect(await same(async (x) => keys(await x.library.find('audi OR quattro', 1, 1)))).toEqual([
      'copart:2',
    ]);
    expect(await same((x) => x.library.searchCount(x.expr('audi')!))).toBe(2);
    expect(await same(async (x) => (await x.library.search(x.expr('tesla model')!, 10, 0)).length)).toBe(2);
  });

  it.skipIf(e.skip)("filters on the record's figures and facet picks, with or without words", async () => {
    const filtered = (text: string, f: Partial<LibraryFilters>) =>
      same(async (x) => {
        const r = await x.library.filtered(text, { ...NO_FILTER, ...f }, 100, 0);
        return { keys: keys(r), total: r.total };
      });
    expect(await filtered('', { repairToValueMax: 0.5 })).toEqual({ keys: ['iaai:4', 'copart:1'], total: 2 });
    expect(await filtered('', { hasAcv: true })).toEqual({
      keys: ['iaai:4', 'copart:2', 'copart:1'],
      total: 3,
    });
    expect(await filtered('audi', { repairToValueMax: 0.5 })).toEqual({ keys: ['copart:1'], total: 1 });
    expect(await filtered('-audi', { hasAcv: true })).toEqual({ keys: ['iaai:4'], total: 1 });
    expect(await filtered('', { facets: { damage: ['Hail'] } })).toEqual({
      keys: ['copart:5', 'copart:1'],
      total: 2,
    });
    expect(await filtered('toyota', { facets: { keys: ['yes'] } })).toEqual({ keys: ['iaai:3'], total: 1 });
    expect(
      await filtered('', { hasAcv: true, facets: { damage: ['Hail', 'Front end'], sale_result: ['Sold'] } }),
    ).toEqual({ keys: ['copart:1'], total: 1 });
    // No filter: the same as find, or the default list.
    expect(await filtered('camry OR corolla', {})).toEqual({ keys: expect.any(Array), total: 2 });
    expect((await filtered('', {})).total).toBe(7);
  });

  it.skipIf(e.skip)(
    "counts the facets of the current query, a facet's own picks left out of its counts",
    async () => {
      const all = await same((x) => x.library.facets('', NO_FILTER));
      expect(counts(all, 'damage')).toEqual({
        Hail: 2,
        'Front end': 1,
        Flood: 1,
        'Rear end': 1,
        Side: 1,
        Vandalism: 1,
      });
      expect(all.find((g) => g.facet === 'damage')!.values.map((v) => v.value)).toEqual([
        'Hail',
        'Flood',
        'Front end',
        'Rear end',
        'Side',
        'Vandalism',
      ]);
      expect(counts(all, 'keys')).toEqual({ yes: 4, no: 1 });
      expect(counts(all, 'sale_month')).toEqual({ '2026-07': 1, '2026-08': 2 });
      expect(counts(all, 'export')).toEqual({ yes: 3, no: 1 });
      const salvage = await same((x) => x.library.facets('salvage', NO_FILTER));
      expect(counts(salvage, 'title_document')).toEqual({
        SALVAGE: 2,
        'SALVAGE - REPAIRABLE-COLLISION': 1,
      });
      const picked = await same((x) =>
        x.library.facets('', { ...NO_FILTER, facets: { damage: ['Hail'], seller_type: ['insurance'] } }),
      );
      expect(counts(picked, 'damage')).toEqual({ Hail: 2, Flood: 1, Side: 1 });
      expect(counts(picked, 'seller_type')).toEqual({ insurance: 2 });
      const figures = await same((x) => x.library.facets('-tesla', { ...NO_FILTER, hasAcv: true }));
      expect(counts(figures, 'damage')).toEqual({ Hail: 1, 'Front end': 1, 'Rear end': 1 });
      expect(
        (await same((x) => x.library.facets('zzzz', NO_FILTER))).every((g) => g.values.length === 0),
      ).toBe(true);
    },
  );

  it.skipIf(e.skip)(
    "differs where the engines' own text processing differs (KyselyLibraryRepo says so)",
    async () => {
      const find = async (text: string) => sortedKeys(await u.library.find(text, 100, 0));
      const pg = e.name === 'postgres';
      const nothing = { keys: [], total: 0 };
      // "and" is an English stop word to PostgreSQL, left out of its index and its query: alone, it finds nothing.
      expect(await find('and')).toEqual(pg ? nothing : { keys: ['copart:1', 'copart:2'], total: 2 });
      // PostgreSQL's parser reads "F-150" as "f" and "-150", FTS5 as "f" and "150".
      expect(await find('f-150')).toEqual(pg ? nothing : { keys: ['copart:7'], total: 1 });
      // The lot's other words find it on both.
      expect(await find('ford xlt')).toEqual({ keys: ['copart:7'], total: 1 });
    },
  );

  it.skipIf(e.skip)('never fails on odd text: find, filtered and facets answer, as SQLite does', async () => {
    await fc.assert(
      fc.asyncProperty(oddText, async (text) => {
        await u.library.find(text, 5, 0);
        await u.library.filtered(text, { ...NO_FILTER, hasAcv: true }, 5, 0);
        await u.library.facets(text, NO_FILTER);
      }),
      { numRuns: 60 },
    );
  });
});

describe('tsQuery: the search box read for PostgreSQL, with the grammar of ftsQuery', () => {
  it('writes words as prefixes, -word as !, OR as |, phrases with <->', () => {
    expect(tsQuery('audi -quattro')).toBe("'audi':* & !'quattro':*");
    expect(tsQuery('camry OR corolla red')).toBe("('camry':* | 'corolla':*) & 'red':*");
    expect(tsQuery('"model 3" f-150')).toBe("('model' <-> '3') & ('f' <-> '150':*)");
    expect(tsQuery("o'brien & !x")).toBe("('o' <-> 'brien':*) & 'x':*");
    expect(tsQuery('-audi')).toBeNull();
    expect(tsExcludeOnly('-audi -"model 3"')).toBe("('audi':* | ('model' <-> '3'))");
    expect(plainTsQuery('audi -quattro OR "a4')).toBe("'audi':* & 'a4':*");
    expect(tsQuery('  -- "" ')).toBeNull();
  });
});

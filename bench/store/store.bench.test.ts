import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createCore } from '../../src/core/app';
import { postgresDatabase, sqliteDatabase } from '../../src/core/coreDatabase';
import { openDatabase } from '../../src/core/db/connection';
import { KyselyStore } from '../../src/core/db/kysely/store';
import { sqliteKysely } from '../../src/core/db/kyselySqlite';
import { diffLot } from '../../src/core/diff';
import { silentLogger } from '../../src/core/log';
import { FileSecretBox } from '../../src/core/secrets';
import type { Vehicle } from '../../src/shared/vehicle';
import type { LotState } from '../../src/shared/watch';
import { pgAvailable, testDatabase } from '../../tests/helpers/postgres';
import { tempDir } from '../../tests/helpers/tmp';

/**
 * Store benchmark, on each engine (the desktop's SQLite file, then a team's PostgreSQL database on the run's test
 * cluster when PostgreSQL is installed): ingest rate of lot records through the engine (observation, diff against the
 * stored state, timeline, full-text index), the diff rate, the library's full-text search and its default list (the
 * most recently seen lots) on BENCH_LOTS stored lots (default 200,000), and memory. Prints both side by side and writes
 * bench/results/store.json.
 */
const LOTS = Number(process.env['BENCH_LOTS'] ?? 200_000);
const PAGE = 20;
const MAKES = [
  ['TOYOTA', ['CAMRY', 'COROLLA', 'RAV4', 'TACOMA', 'HIGHLANDER']],
  ['HONDA', ['CIVIC', 'ACCORD', 'CR-V', 'PILOT']],
  ['FORD', ['F-150', 'ESCAPE', 'EXPLORER', 'MUSTANG', 'FUSION']],
  ['CHEVROLET', ['SILVERADO', 'MALIBU', 'EQUINOX', 'TAHOE']],
  ['BMW', ['3 SERIES', '5 SERIES', 'X3', 'X5']],
  ['TESLA', ['MODEL 3', 'MODEL Y', 'MODEL S']],
  ['NISSAN', ['ALTIMA', 'ROGUE', 'SENTRA']],
  ['AUDI', ['A4', 'Q5', 'S5']],
] as const;
const CITIES = [
  'Dallas (TX)',
  'Atlanta (GA)',
  'Phoenix (AZ)',
  'Chicago (IL)',
  'Miami (FL)',
  'Sacramento (CA)',
  'Newark (NJ)',
];
const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function vehicle(i: number, r: () => number, bid: number): Vehicle {
  const [make, models] = MAKES[i % MAKES.length]!;
  const model = models[Math.floor(r() * models.length)]!;
  const year = 2008 + Math.floor(r() * 18);
  let vin = '';
  for (let k = 0; k < 17; k++) vin += VIN_CHARS[Math.floor(r() * VIN_CHARS.length)];
  const lot = String(40_000_000 + i);
  const v = {
    platform: i % 2 ? 'copart' : 'iaai',
    lot_number: lot,
    vin,
    title: `${year} ${make} ${model}`,
    year,
    make,
    model,
    type: 'AUTOMOBILE',
    color: 'Black',
    fuel_type: 'Gasoline',
    transmission: 'Automatic',
    drive_type: 'FWD',
    odometer: Math.floor(r() * 200_000),
    damage: 'Front End',
    secondary_damage: null,
    body_style: 'Sedan',
    engine: { raw: '2.0L I-4', size_l: 2, hp: 158 },
    run_condition: 'RUNS AND DRIVES',
    run_condition_label: 'Runs and drives',
    has_key: true,
    title_document: { name: 'SALVAGE - REPAIRABLE', group: 'approved', export: true, brand: null },
    seller: { name: 'Insurance Co', type: 'insurance' },
    yard: { id: String(i % 400), name: null, zip: '75001', latitude: 32.9, longitude: -96.8 },
    auction: {
      state: 'open',
      auction_at: new Date(Date.UTC(2026, 5, 1) + (i % 5000) * 60_000).toISOString(),
      lot_status: 'Timed',
      lot_sub_status: 'Open',
      last_sold_status: null,
      last_sold_day: null,
      is_buy_now: false,
    },
    pricing: {
      current_bid_usd: bid,
      buy_now_usd: null,
      sale_price_usd: null,
      estimated_cost_from_usd: null,
      estimated_cost_to_usd: null,
      acv_usd: null,
      est_repair_usd: null,
      repair_to_value: null,
    },
    location: {
      display: CITIES[i % CITIES.length]!,
      state: 'TX',
      facility_id: String(i % 400),
      ship_from: null,
    },
    media: {
      thumbs_count: 10,
      has_360: false,
      photos: [`https://cs.copart.com/v1/AUTH_svc.pdoc00001/lpp/${lot}_hrs.jpg`],
    },
  };
  return {
    ...v,
    raw: { ...v, extra: { seller: 'Insurance Co', details: 'x'.repeat(200) } },
  } satisfies Vehicle;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

type Figures = {
  lots: number;
  ingest_first_sight_records_per_s: number;
  ingest_changed_records_per_s: number;
  diff_per_s: number;
  search_p50_ms: number;
  search_p95_ms: number;
  default_list_p50_ms: number;
  default_list_p95_ms: number;
  rss_mb: number;
  heap_mb: number;
};
type Engine = 'sqlite' | 'kysely-sqlite' | 'postgres';
const results: Partial<Record<Engine, Figures>> = {};
/** The engines to run (BENCH_ENGINES, comma-separated; default all three). */
const ENGINES = (process.env['BENCH_ENGINES'] ?? 'sqlite,kysely-sqlite,postgres').split(',');
const skip = (e: Engine) => !ENGINES.includes(e);

/**
 * One engine's run: a core over a fresh database of that engine, fed and asked as the app would. `kysely-sqlite` is
 * the desktop's file with the Kysely repositories instead of its own (what one implementation for both would cost).
 */
async function run(engine: Engine): Promise<Figures> {
  const t = tempDir('lotwatch-bench-');
  const dbPath = join(t.dir, 'lotwatch.sqlite');
  const clock = {
    now: () => Date.now(),
    setTimeout: (fn: () => void, ms: number) => {
      const h = setTimeout(fn, ms);
      return () => clearTimeout(h);
    },
  };
  const file = () => {
    const db = openDatabase(dbPath);
    const desktop = sqliteDatabase(db, { dbPath, dataDir: t.dir, clock });
    return { ...desktop, store: new KyselyStore(sqliteKysely(db), 'sqlite') };
  };
  const database =
    engine === 'postgres'
      ? { database: await postgresDatabase((await testDatabase('store_bench'))!, { dataDir: t.dir, clock }) }
      : engine === 'kysely-sqlite'
        ? { database: file() }
        : { db: openDatabase(dbPath) };
  const core = createCore({
    ...database,
    dbPath,
    dataDir: t.dir,
    clock,
    secrets: new FileSecretBox(join(t.dir, 'secret.key')),
    notifier: { notify() {} },
    log: silentLogger,
    shell: 'headless',
    version: 'bench',
    autoStart: false,
  });
  await core.ready;
  const r = rng(7);

  // 1. First sight of every lot, a page (20 records) per transaction, as polls write them.
  let t0 = performance.now();
  for (let i = 0; i < LOTS; i += PAGE) {
    const page: Vehicle[] = [];
    for (let k = i; k < Math.min(LOTS, i + PAGE); k++) page.push(vehicle(k, r, 100 + (k % 50) * 25));
    await core.engine.ingest(page, 'bench');
  }
  const ingestFirst = LOTS / ((performance.now() - t0) / 1000);

  // 2. A second observation of 20,000 of them with a new bid: diffed, timeline rows written.
  const r2 = rng(7);
  const N2 = Math.min(LOTS, 20_000);
  t0 = performance.now();
  for (let i = 0; i < N2; i += PAGE) {
    const page: Vehicle[] = [];
    for (let k = i; k < Math.min(N2, i + PAGE); k++) page.push(vehicle(k, r2, 100 + (k % 50) * 25 + 50));
    await core.engine.ingest(page, 'bench');
  }
  const ingestChanged = N2 / ((performance.now() - t0) / 1000);

  // 3. Pure diff rate (no store: the same on both engines, measured on each run for the machine's load).
  const a: LotState = {
    platform: 'copart',
    lot_number: '1',
    vin: 'V',
    current_bid_usd: 100,
    buy_now_usd: null,
    sale_price_usd: null,
    state: 'open',
    lot_status: 'Timed',
    lot_sub_status: 'Open',
    last_sold_status: null,
    auction_at: 1,
    observed_at: 1,
  };
  const b: LotState = { ...a, current_bid_usd: 150, state: 'live', lot_sub_status: 'Live', observed_at: 2 };
  t0 = performance.now();
  let n = 0;
  for (let i = 0; i < 500_000; i++) n += diffLot(i % 2 ? a : b, i % 2 ? b : a).length;
  const diffRate = 500_000 / ((performance.now() - t0) / 1000);
  expect(n).toBeGreaterThan(0);

  // 4. The library: full-text search, and the default list (no words: the most recently seen lots).
  const queries = [
    'toyota camry',
    'ford',
    'dallas',
    '2019 honda',
    'tesla model',
    'x5',
    '4000',
    'bmw 3 series',
    'miami',
    'rav4 2022',
  ];
  const lat: number[] = [];
  const list: number[] = [];
  let hits = 0;
  for (let round = 0; round < 20; round++) {
    for (const q of queries) {
      const s = performance.now();
      const res = await core.invoke('library.search', { q, limit: 100 });
      lat.push(performance.now() - s);
      if (res.ok) hits += (res.value as { total: number }).total;
    }
    const s = performance.now();
    const res = await core.invoke('library.search', { q: '', limit: 100 });
    list.push(performance.now() - s);
    expect(res.ok).toBe(true);
  }
  expect(hits).toBeGreaterThan(0);
  const mem = process.memoryUsage();
  await core.dispose();
  t.cleanup();
  return {
    lots: LOTS,
    ingest_first_sight_records_per_s: Math.round(ingestFirst),
    ingest_changed_records_per_s: Math.round(ingestChanged),
    diff_per_s: Math.round(diffRate),
    search_p50_ms: Number(pct(lat, 0.5).toFixed(2)),
    search_p95_ms: Number(pct(lat, 0.95).toFixed(2)),
    default_list_p50_ms: Number(pct(list, 0.5).toFixed(2)),
    default_list_p95_ms: Number(pct(list, 0.95).toFixed(2)),
    rss_mb: Math.round(mem.rss / 1048576),
    heap_mb: Math.round(mem.heapUsed / 1048576),
  };
}

it.skipIf(skip('sqlite'))(
  `store on SQLite: ingest, diff, library search and default list on ${LOTS.toLocaleString('en-US')} lots`,
  async () => {
    results.sqlite = await run('sqlite');
  },
);

it.skipIf(skip('kysely-sqlite'))(
  `store on SQLite through the Kysely repositories, ${LOTS.toLocaleString('en-US')} lots`,
  async () => {
    results['kysely-sqlite'] = await run('kysely-sqlite');
  },
);

it.skipIf(skip('postgres') || !pgAvailable())(
  `store on PostgreSQL: ingest, diff, library search and default list on ${LOTS.toLocaleString('en-US')} lots`,
  async () => {
    results.postgres = await run('postgres');
  },
);

afterAll(() => {
  const { sqlite, postgres } = results;
  const kysely = results['kysely-sqlite'];
  if (!sqlite && !kysely && !postgres) return;
  const f = (v: number | undefined, unit = '') =>
    v === undefined ? 'not run' : `${v.toLocaleString('en-US')}${unit}`;
  const rows: [string, keyof Figures, string][] = [
    [
      'ingest, first sight (observation + lot + full-text), records/s',
      'ingest_first_sight_records_per_s',
      '',
    ],
    ['ingest, changed bid (observation + diff + timeline), records/s', 'ingest_changed_records_per_s', ''],
    ['diff, lot pairs/s', 'diff_per_s', ''],
    ['library search p50', 'search_p50_ms', ' ms'],
    ['library search p95', 'search_p95_ms', ' ms'],
    ['default list (100 most recent) p50', 'default_list_p50_ms', ' ms'],
    ['default list (100 most recent) p95', 'default_list_p95_ms', ' ms'],
    ['process RSS after the run', 'rss_mb', ' MB'],
  ];
  console.log(
    [
      `store benchmark (${LOTS.toLocaleString('en-US')} lots)`,
      '| measure | SQLite (desktop) | SQLite through Kysely | PostgreSQL |',
      '|---|---|---|---|',
      ...rows.map(
        ([label, k, unit]) =>
          `| ${label} | ${f(sqlite?.[k], unit)} | ${f(kysely?.[k], unit)} | ${f(postgres?.[k], unit)} |`,
      ),
    ].join('\n'),
  );
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/store.json', JSON.stringify(results, null, 2));
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { normalizeVehicle } from '../../src/core/api/parse';
import { closeDatabase, openDatabase } from '../../src/core/db/connection';
import { LibraryRepo, type LibraryFilters } from '../../src/core/db/libraryRepo';
import { realFinishedRecord } from '../../tests/core/api/fixtures/realRecords';
import { tempDir } from '../../tests/helpers/tmp';

/**
 * Library facets benchmark: BENCH_FACET_LOTS stored lots (default 20,000, records the size of a real IAAI one with
 * varied damage, title document, run condition, keys, seller type and sale), then the Library's search with its
 * facet counts, ms per call (median of 7), for an empty box, a common word, a stemmed phrase and with picks.
 * Writes bench/results/facets.json.
 */
const LOTS = Number(process.env['BENCH_FACET_LOTS'] ?? 20_000);
const DAMAGE = ['Hail', 'Front end', 'Rear end', 'Flood', 'Side', 'All over', 'Mechanical', 'Vandalism'];
const DOCS = ['SALVAGE - REPAIRABLE-COLLISION', 'CLEAN TITLE', 'SALVAGE', 'REBUILT', 'CERT OF DESTRUCTION'];
const RUN = [
  ['RUN AND DRIVE', 'Run and Drive'],
  ['RUNS AND DRIVES', 'Runs and drives'],
  ['ENGINE START PROGRAM', 'Starts'],
  ['STATIONARY / NO INFORMATION', 'Stationary / no information'],
];
const SELLERS = ['insurance', 'non_insurance', 'unknown'];

it(`facet counts over ${LOTS} lots`, () => {
  const t = tempDir();
  const db = openDatabase(join(t.dir, 'lotwatch.sqlite'));
  try {
    const { raw: _raw, ...base } = normalizeVehicle(realFinishedRecord(), []);
    const ins =
      db.prepare(`INSERT INTO lots (lot_key, platform, lot_number, title, make, model, location, normalized,
      raw, raw_hash, first_seen_at, last_observed_at) VALUES (?, 'iaai', ?, ?, 'AUDI', 'S5', 'Dundalk (MD)', ?, '{}',
      'h', 0, ?)`);
    const t0 = performance.now();
    db.transaction(() => {
      for (let i = 0; i < LOTS; i++) {
        const [value, label] = RUN[i % RUN.length]!;
        const rec = {
          ...base,
          lot_number: String(i),
          damage: DAMAGE[i % DAMAGE.length],
          secondary_damage: DAMAGE[(i * 7) % DAMAGE.length],
          run_condition: value,
          run_condition_label: label,
          has_key: i % 3 !== 0,
          title_document: { ...base.title_document, name: DOCS[i % DOCS.length], export: i % 5 !== 0 },
          seller: { name: 'Seller', type: SELLERS[i % SELLERS.length] },
          auction: {
            ...base.auction,
            last_sold_status: i % 4 === 0 ? null : 'Sold',
            last_sold_day: `2026-0${1 + (i % 9)}-15`,
          },
        };
        ins.run(`iaai:${i}`, String(i), `2019 AUDI S5 ${i}`, JSON.stringify(rec), i);
      }
    })();
    const insertMs = performance.now() - t0;
    const lib = new LibraryRepo(db);
    const none: LibraryFilters = { repairToValueMax: null, hasAcv: false };
    const picked: LibraryFilters = { ...none, facets: { damage: ['Hail', 'Flood'], keys: ['yes'] } };
    const median = (run: () => void) => {
      const ms: number[] = [];
      for (let k = 0; k < 7; k++) {
        const s = performance.now();
        run();
        ms.push(performance.now() - s);
      }
      return Number(ms.sort((a, b) => a - b)[3]!.toFixed(1));
    };
    const cases: [string, string, LibraryFilters][] = [
      ['empty box', '', none],
      ['hail', 'hail', none],
      ['runs and drives', 'runs and drives', none],
      ['empty box, 2 picks', '', picked],
      ['salvage, 2 picks', 'salvage', picked],
    ];
    const out: Record<string, unknown> = { lots: LOTS, insert_ms: Math.round(insertMs) };
    for (const [name, q, f] of cases) {
      out[name] = {
        facets_ms: median(() => lib.facets(q, f)),
        page_ms: median(() => lib.filtered(q, f, 500, 0)),
        total: lib.filtered(q, f, 1, 0).total,
      };
    }
    expect(lib.filtered('hail', none, 1, 0).total).toBeGreaterThan(0);
    console.log(JSON.stringify(out, null, 2));
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/facets.json', JSON.stringify(out, null, 2) + '\n');
  } finally {
    closeDatabase(db);
    t.cleanup();
  }
});

import { parse } from 'csv-parse/sync';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import copartJson from '../../../data/fees/copart.json';
import iaaiJson from '../../../data/fees/iaai.json';
import { normalizeVehicle } from '../../../src/core/api/parse';
import { feeTableView, loadFeeDir } from '../../../src/core/desk/feeChoice';
import { DeskSettingsSchema } from '../../../src/shared/desk';
import { FEE_FILES, buyerFees, landedCost } from '../../../src/shared/fees';
import { feeTableFor } from '../../../src/shared/feeTable';
import { realOpenRecord } from '../api/fixtures/realRecords';
import { coresPerTest } from '../../helpers/core';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';
import { tempDir } from '../../helpers/tmp';

// Fees by the lot: the table comes from the lot's title document and the buyer's membership, the breakdown names
// it and why, a missing title document pays the stricter table, IAAI public fees are said to be unknown, and a
// broken fee file stops the desk with its name instead of a number.

type Json = Record<string, unknown>;

/** A Copart lot in the real service's dialect: the real-shaped record, on Copart, with this title document. */
function copartRecord(titleDocument: string | null, bid: number): Json {
  const r = realOpenRecord();
  const doc = r['sale_document'] as Json;
  return {
    ...r,
    platform: 'copart',
    platform_id: 1,
    pricing: { ...(r['pricing'] as Json), current_bid_usd: bid },
    sale_document: titleDocument === null ? null : { ...doc, name: titleDocument },
  };
}

/** The title document's name as the normalised record carries it. */
function titleOf(raw: Json): string | null {
  const w: string[] = [];
  return normalizeVehicle(raw, w).title_document?.name ?? null;
}

describe('the fee table of a lot', () => {
  it('charges a clean-title and a salvage-title Copart lot at the same bid from their two tables', () => {
    const clean = copartRecord('CLEAR', 2450);
    const salvage = copartRecord('SALVAGE CERTIFICATE', 2450);
    const a = feeTableFor('copart', titleOf(clean), 'standard_secured');
    const b = feeTableFor('copart', titleOf(salvage), 'standard_secured');
    if (!a.ok || !b.ok) throw new Error('both lots have a table');
    expect(a.table_id).toBe('standard_clean_secured');
    expect(b.table_id).toBe('standard_non_clean_secured');
    // data/fees/copart.json at $2,450: clean buyer fee 480 + live bid fee 99 + gate 79 + environmental 15 +
    // title 20; non-clean 570 + 110 + 95 + 15 + 20.
    expect(buyerFees(2450, a.schedule).lines.map((l) => [l.id, l.usd])).toEqual([
      ['buyer_fee', 480],
      ['bid_fee', 99],
      ['gate_fee', 79],
      ['environmental_fee', 15],
      ['title_fee', 20],
    ]);
    expect(buyerFees(2450, a.schedule).total_usd).toBe(693);
    expect(buyerFees(2450, b.schedule).total_usd).toBe(810);
    expect(a.reason).toBe('Copart clean title table, because the title document is CLEAR');
    expect(b.reason).toBe('Copart non-clean title table, because the title document is SALVAGE CERTIFICATE');
    expect([a.stricter, b.stricter]).toEqual([false, false]);
  });

  it('picks the stricter table for a missing or unplaced title document, and says so', () => {
    const missing = feeTableFor('copart', titleOf(copartRecord(null, 2450)), 'standard_unsecured');
    const billOfSale = feeTableFor('copart', 'BILL OF SALE', 'standard_secured');
    if (!missing.ok || !billOfSale.ok) throw new Error('a stricter table applies');
    expect(missing.table_id).toBe('standard_non_clean_unsecured');
    expect(missing.reason).toBe(
      'stricter table (Copart non-clean title table): the title document is not known',
    );
    expect(missing.stricter).toBe(true);
    expect(billOfSale.table_id).toBe('standard_non_clean_secured');
    expect(billOfSale.reason).toBe(
      'stricter table (Copart non-clean title table): the title document BILL OF SALE is neither a clean title nor a known salvage one',
    );
  });

  it('names a stricter table that is never cheaper than the other at any whole-dollar price to $100,000', () => {
    for (const file of Object.values(FEE_FILES)) {
      for (const [kind, m] of Object.entries(file!.memberships)) {
        const strict = file!.schedules[m[m.stricter]]!;
        const other = file!.schedules[m[m.stricter === 'clean' ? 'non_clean' : 'clean']]!;
        const cheaper: number[] = [];
        for (let p = 0; p <= 100_000 && cheaper.length < 3; p += 1) {
          if (buyerFees(p, strict).total_usd < buyerFees(p, other).total_usd) cheaper.push(p);
        }
        expect({ kind, cheaper }).toEqual({ kind, cheaper: [] });
      }
    }
  });

  it('charges IAAI licensed buyers one table for every title, and gives a public buyer no number', () => {
    const rec = realOpenRecord();
    const licensed = feeTableFor('iaai', titleOf(rec), 'licensed_standard_volume');
    if (!licensed.ok) throw new Error('licensed fees are known');
    expect(licensed.table_id).toBe('licensed_standard_volume');
    expect(licensed.reason).toBe('IAAI licensed, standard volume table, the same for every title document');
    // data/fees/iaai.json at the record's bid of $6,600: buyer fee 845 + live bid fee 145 + service 105 +
    // environmental 15 + title handling 20.
    expect(buyerFees(6600, licensed.schedule).total_usd).toBe(1130);
    const pub = feeTableFor('iaai', titleOf(rec), 'public');
    expect(pub.ok).toBe(false);
    expect(pub.reason).toBe(
      'IAAI fees for a non-licensed / public membership are not known: data/fees/iaai.json has no published table for it, so Lotwatch gives no fee number.',
    );
    expect(feeTableView(pub, 'iaai')).toMatchObject({ schedule: null, table_id: null, reason: pub.reason });
  });
});

describe('a fee file that fails its schema', () => {
  it('is refused with the file and what is wrong, read from a folder, and gives no table', () => {
    const t = tempDir();
    try {
      const bad = structuredClone(iaaiJson) as { schedules: Record<string, { tiers: Json[] }> };
      // The $200 row stretched over the $300 row: the $300 row (index 4) now overlaps it.
      bad.schedules['licensed_standard_volume']!.tiers[3] = { from_usd: 250, to_usd: 349.99, fee_usd: 137.5 };
      writeFileSync(join(t.dir, 'iaai.json'), JSON.stringify(bad));
      writeFileSync(join(t.dir, 'copart.json'), '{ "platform": "copart", ');
      const loads = loadFeeDir(t.dir);
      const iaai = join(t.dir, 'iaai.json');
      expect(loads.iaai).toEqual({
        ok: false,
        path: iaai,
        problem: `${iaai} does not match the fee file schema (schedules.licensed_standard_volume.tiers.4.from_usd: tiers overlap or are out of order)`,
      });
      expect(loads.copart.ok).toBe(false);
      expect(!loads.copart.ok && loads.copart.problem).toMatch(/copart\.json is not JSON/);
      const choice = feeTableFor('iaai', 'SALVAGE - REPAIRABLE-COLLISION', 'licensed_standard_volume', loads);
      expect(choice.ok).toBe(false);
      expect(choice.reason).toContain(`No IAAI fees: the fee file is broken. ${iaai} does not match`);
      expect(choice.reason).toContain('Lotwatch gives no fee number until then.');
    } finally {
      t.cleanup();
    }
  });

  it('refuses a membership that names a table the file does not have', () => {
    const t = tempDir();
    try {
      const bad = structuredClone(copartJson) as { memberships: Record<string, { clean: string }> };
      bad.memberships['standard_secured']!.clean = 'standard_clean_wired';
      mkdirSync(join(t.dir, 'x'));
      writeFileSync(join(t.dir, 'x', 'copart.json'), JSON.stringify(bad));
      writeFileSync(join(t.dir, 'x', 'iaai.json'), JSON.stringify(iaaiJson));
      const loads = loadFeeDir(join(t.dir, 'x'));
      expect(!loads.copart.ok && loads.copart.problem).toContain(
        'memberships.standard_secured.clean: names the table "standard_clean_wired", which is not in schedules',
      );
      expect(loads.iaai.ok).toBe(true);
    } finally {
      t.cleanup();
    }
  });
});

describe('the membership setting', () => {
  it('reads an older saved fee table as the membership it meant', () => {
    const old = DeskSettingsSchema.parse({
      membership: { copart: 'standard_clean_unsecured', iaai: 'licensed_high_volume' },
    });
    expect(old.membership).toEqual({ copart: 'standard_unsecured', iaai: 'licensed_high_volume' });
    expect(DeskSettingsSchema.parse({}).membership).toEqual({
      copart: 'standard_secured',
      iaai: 'licensed_standard_volume',
    });
    const refused = DeskSettingsSchema.safeParse({ membership: { copart: 'gold', iaai: 'public' } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('Choose a Copart membership Lotwatch lists.');
  });
});

// Through core, against the sandbox over HTTP: the desk picks each lot's table and names it, keeps an older saved
// setting readable, and stops with the broken file's name instead of a number.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
let sb: Sandbox;
sandboxPerFile(
  { seed: 7, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0 },
  (started) => (sb = started),
);
const startCore = coresPerTest();

type Found = { lots: { lot_key: string; current_bid_usd: number | null }[] };
type DeskLot = {
  desk: { landed_cost_usd: number | null };
  fee_table: { schedule: unknown; table_id: string | null; reason: string; stricter: boolean };
};

describe("the desk's fee table", () => {
  it('prices each Copart lot from the table of its title document and names it', async () => {
    const { value, db } = await startCore({ sandbox: sb });
    // A desk row saved before membership kinds existed: the fee table itself.
    db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run(
      'desk',
      JSON.stringify({
        membership: { copart: 'standard_non_clean_secured', iaai: 'licensed_standard_volume' },
        port: 'Savannah',
        omit_fees: [],
        custom_fees: [],
        own_lines: [{ id: 'ocean', label: 'Ocean freight', usd: 1150 }],
      }),
      0,
    );
    const settings = await value<{ desk: { membership: unknown; own_lines: unknown[] } }>('settings.get');
    expect(settings.desk.membership).toEqual({
      copart: 'standard_secured',
      iaai: 'licensed_standard_volume',
    });
    expect(settings.desk.own_lines).toHaveLength(1);

    const seen = new Map<string, string>();
    for (const doc of ['CLEAR', 'SALVAGE', 'BILL OF SALE']) {
      const found = await value<Found>('vehicles.search', {
        params: { platform: 'copart', sale_document_type: doc, per_page: 5 },
      });
      const lot = found.lots.find((l) => l.current_bid_usd !== null)!;
      const d = await value<DeskLot>('desk.lot', { lot_key: lot.lot_key });
      const detail = await value<{ record: { title_document?: { name?: string } } }>('lots.get', {
        lot_key: lot.lot_key,
      });
      const name = detail.record.title_document!.name!;
      const expected = feeTableFor('copart', name, 'standard_secured');
      if (!expected.ok) throw new Error('Copart standard fees are known');
      expect(d.fee_table).toMatchObject({ table_id: expected.table_id, reason: expected.reason });
      expect(d.desk.landed_cost_usd).toBe(
        landedCost({
          bid_usd: lot.current_bid_usd!,
          schedule: expected.schedule,
          shipping_usd: null,
          lines: [{ id: 'ocean', label: 'Ocean freight', usd: 1150 }],
        }).total_usd,
      );
      seen.set(doc, expected.table_id);
    }
    expect(Object.fromEntries(seen)).toEqual({
      CLEAR: 'standard_clean_secured',
      SALVAGE: 'standard_non_clean_secured',
      'BILL OF SALE': 'standard_non_clean_secured',
    });
  });

  it('gives no landed cost for an IAAI lot under a public membership, and says why', async () => {
    const { value } = await startCore({ sandbox: sb });
    await value('settings.update', {
      desk: { membership: { copart: 'standard_secured', iaai: 'public' } },
    });
    const found = await value<Found>('vehicles.search', { params: { platform: 'iaai', per_page: 5 } });
    const lot = found.lots.find((l) => l.current_bid_usd !== null)!;
    const d = await value<DeskLot>('desk.lot', { lot_key: lot.lot_key });
    expect(d.desk.landed_cost_usd).toBeNull();
    expect(d.fee_table.schedule).toBeNull();
    expect(d.fee_table.reason).toMatch(/^IAAI fees for a non-licensed \/ public membership are not known/);
  });

  it('stops with the broken fee file named and no fee number, in the desk and the CSV', async () => {
    const t = tempDir();
    try {
      const bad = structuredClone(copartJson) as { version: string };
      bad.version = 'July 2025';
      writeFileSync(join(t.dir, 'copart.json'), JSON.stringify(bad));
      writeFileSync(join(t.dir, 'iaai.json'), JSON.stringify(iaaiJson));
      const { value } = await startCore({ sandbox: sb, feeFiles: loadFeeDir(t.dir) });
      const found = await value<Found>('vehicles.search', { params: { platform: 'copart', per_page: 5 } });
      const lot = found.lots.find((l) => l.current_bid_usd !== null)!;
      const d = await value<DeskLot>('desk.lot', { lot_key: lot.lot_key });
      expect(d.desk.landed_cost_usd).toBeNull();
      expect(d.fee_table.schedule).toBeNull();
      expect(d.fee_table.reason).toContain(
        `No Copart fees: the fee file is broken. ${join(t.dir, 'copart.json')} does not match the fee file schema (version:`,
      );
      const csv = await value<{ csv: string }>('library.export', { lot_keys: [lot.lot_key] });
      const rows = parse(csv.csv, { columns: true }) as Record<string, string>[];
      expect(rows.map((r) => [r['lot_key'], r['buyer_fees_usd'], r['landed_cost_usd']])).toEqual([
        [lot.lot_key, '', ''],
      ]);
    } finally {
      t.cleanup();
    }
  });
});

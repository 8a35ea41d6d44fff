import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { normalizeVehicle } from '../../../src/core/api/parse';
import type { LotRow } from '../../../src/core/db/lotsRepo';
import { CSV_COLUMNS, csvRow, csvText } from '../../../src/core/desk/csv';
import type { LotDesk } from '../../../src/shared/ipc/contract';
import { realFinishedRecord } from '../api/fixtures/realRecords';

const DESK = {
  port: null,
  shipping_usd: null,
  landed_cost_usd: null,
  landed_excludes: [],
  max_bid_usd: null,
  max_bid_excludes: [],
  tags: [],
} as unknown as LotDesk;

function rowOf(normalized: string, location: string | null): LotRow {
  return {
    lot_key: 'iaai:45139005',
    platform: 'iaai',
    lot_number: '45139005',
    vin: null,
    title: '2019 AUDI S5',
    year: 2019,
    make: 'AUDI',
    model: 'S5',
    location,
    current_bid_usd: null,
    buy_now_usd: null,
    sale_price_usd: null,
    state: 'finished',
    lot_status: null,
    lot_sub_status: null,
    last_sold_status: 'Sold',
    auction_at: null,
    normalized,
    raw: '',
    raw_z: null,
    raw_hash: '',
    content_hash: null,
    pruned_at: null,
    notes: '',
    tags: '',
    first_seen_at: 0,
    last_observed_at: 0,
  };
}

const exported = (r: LotRow) =>
  (parse(csvText([csvRow(r, DESK, null)]), { columns: true }) as Record<string, string>[])[0]!;

describe('CSV yard column', () => {
  it('names the yard of a real record, whose facility has an empty office_name', () => {
    const { raw: _raw, ...v } = normalizeVehicle(realFinishedRecord(), []);
    const row = exported(rowOf(JSON.stringify(v), 'Boston - Shirley (MA)'));
    expect(CSV_COLUMNS).toContain('yard');
    expect(row['yard']).toBe('Boston - Shirley (MA)');
    expect(row['yard_zip']).toBe('01464');
  });

  it('keeps the facility’s own name when the record has one, and the row’s location for an unreadable record', () => {
    const { raw: _raw, ...v } = normalizeVehicle(
      { ...realFinishedRecord(), facility: { id: 1, name: 'DALLAS SOUTH', zip: '75241' } },
      [],
    );
    expect(exported(rowOf(JSON.stringify(v), 'TX - DALLAS'))['yard']).toBe('DALLAS SOUTH');
    expect(exported(rowOf('not json', 'TX - DALLAS'))['yard']).toBe('TX - DALLAS');
  });
});

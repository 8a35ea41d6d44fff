// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MarketComps } from '../../../src/renderer/src/features/lot/MarketComps';
import type { CompView, MethodOutput } from '../../../src/shared/ipc/contract';
import { errResult, okResult } from '../fakeBridge';
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';
import { feeTable, HOUR, NOW } from './fixtures';

// The lot page's comparables panel: the band and what asking costs, the statistics with sold and sold on approval
// apart, the lot's estimates, the bid range or its refusal, the ranked list with its reasons, lot numbers and VINs
// whole, and in Demo mode the first visit asks at once.

frozenAtNow();

type DeskData = MethodOutput<'desk.lot'>;

const comp = (over: Partial<CompView>): CompView => ({
  lot_key: 'iaai:45139005',
  platform: 'iaai',
  lot_number: '45139005',
  vin: 'WAUB4CF56JA126812',
  title: '2018 AUDI S5 3.0T PREMIUM PLUS',
  year: 2018,
  location: 'Boston - Shirley (MA)',
  odometer: 61_000,
  damage: 'Front end',
  title_group: 'salvage_repairable',
  title_document: 'SALVAGE - REPAIRABLE-COLLISION',
  run_condition_label: 'Runs and drives',
  has_key: true,
  outcome: 'sold',
  sale_price_usd: 8000,
  last_bid_usd: 8000,
  sold_at: NOW - 48 * HOUR,
  same_damage: true,
  same_title_group: true,
  same_run_condition: true,
  same_keys: true,
  same_odometer_band: true,
  year_delta: 0,
  odometer_delta_mi: 1000,
  reasons: ['same damage: Front end', 'same title group: salvage, repairable', 'same year'],
  attempts: 1,
  ...over,
});

const market = (over: Partial<NonNullable<DeskData['market']>> = {}): NonNullable<DeskData['market']> => ({
  platform: 'iaai',
  make: 'AUDI',
  model: 'S5',
  year_from: 2017,
  year_to: 2019,
  fetched_at: null,
  found: 0,
  requests: 0,
  fresh: false,
  error: null,
  error_at: null,
  ...over,
});

function data(over: Partial<DeskData> = {}): DeskData {
  return {
    desk: {
      notes: '',
      tags: [],
      port: 'Savannah',
      shipping_usd: null,
      landed_cost_usd: null,
      landed_excludes: [],
      max_bid_usd: null,
      max_bid_excludes: [],
    },
    tags_in_use: [],
    shipping: [],
    comps: {
      comps: [
        comp({}),
        comp({
          lot_key: 'iaai:45139006',
          lot_number: '45139006',
          vin: 'WAUB4CF56JA126899',
          outcome: 'sold_on_approval',
          sale_price_usd: 6000,
          attempts: 2,
          reasons: ['same year'],
        }),
        comp({
          lot_key: 'iaai:45139007',
          lot_number: '45139007',
          vin: 'WAUB4CF56JA126777',
          outcome: 'ended_unsold',
          sale_price_usd: null,
          last_bid_usd: 4000,
          reasons: ['1 year older'],
        }),
      ],
      stats: {
        count: 3,
        priced: 2,
        median_usd: 7000,
        p25_usd: 6500,
        p75_usd: 7500,
        min_usd: 6000,
        max_usd: 8000,
        sold: { count: 1, median_usd: 8000, p25_usd: 8000, p75_usd: 8000, min_usd: 8000, max_usd: 8000 },
        sold_on_approval: {
          count: 1,
          median_usd: 6000,
          p25_usd: 6000,
          p75_usd: 6000,
          min_usd: 6000,
          max_usd: 6000,
        },
      },
      skipped: 0,
    },
    market: market({ fetched_at: NOW - HOUR, found: 12, requests: 1, fresh: true }),
    bid_range: {
      low_usd: 6500,
      high_usd: 7000,
      landed_low_usd: 7400,
      landed_high_usd: 7950,
      shipping_included: false,
      target_usd: null,
      capped: false,
      rests_on: ['iaai:45139005', 'iaai:45139006'],
      priced: 2,
      title_group: 'salvage_repairable',
      other_titles_left_out: 0,
      refusal: null,
    },
    estimates: {
      service_from_usd: 1450,
      service_to_usd: 15_000,
      acv_usd: 18_349,
      repair_usd: 20_821,
      repair_to_value: 20_821 / 18_349,
    },
    fee_table: feeTable('iaai', 'SALVAGE - REPAIRABLE-COLLISION', 'licensed_standard_volume'),
    ...over,
  };
}

describe('the comparables panel', () => {
  it('says which figure repair to value lacks when only one of the two is known', () => {
    installFake();
    const d = data();
    render(
      <MarketComps
        lotKey="iaai:1"
        data={{ ...d, estimates: { ...d.estimates, acv_usd: null, repair_to_value: null } }}
        demo={false}
        onFetched={() => undefined}
      />,
    );
    const est = screen.getByText(/This lot:/).textContent!;
    expect(est).toContain("IAAI's estimated repair cost $20,821 · repair to value unknown (no ACV)");
  });

  it('says how many prices of other title groups the statistics count and the bid range leaves out', () => {
    installFake();
    const d = data();
    render(
      <MarketComps
        lotKey="iaai:1"
        data={{
          ...d,
          // Three prices paid, one of them of a clean title: the range rests on the other two.
          comps: { ...d.comps, stats: { ...d.comps.stats, count: 3, priced: 3 } },
          bid_range: { ...d.bid_range, other_titles_left_out: 1 },
        }}
        demo={false}
        onFetched={() => undefined}
      />,
    );
    expect(screen.getByText(/of these 3 prices is of another or unknown title group/).textContent).toBe(
      "1 of these 3 prices is of another or unknown title group than this lot's (salvage, repairable): counted here, left out of the bid range.",
    );
    expect(screen.getByText(/Rests on 2 comparables/).textContent).toContain(
      '1 sale of another or unknown title group left out',
    );
  });

  it('shows the statistics apart, the estimates, the bid range, the reasons, and that a visit today is free', () => {
    installFake();
    render(<MarketComps lotKey="iaai:1" data={data()} demo={false} onFetched={() => undefined} />);
    expect(screen.getByText(/0 requests: fetched today at/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh sold comparables' })).toHaveProperty('disabled', true);
    expect(screen.getByText(/3 comparable sales \(a relisted car once\) · 2 with a price paid/)).toBeTruthy();
    expect(screen.getByText(/^Sold: 1/).textContent).toContain('$8,000');
    expect(screen.getByText(/^Sold on approval \(the seller/).textContent).toContain('$6,000');
    const est = screen.getByText(/This lot:/).textContent!;
    expect(est).toContain('$1,450–$15,000 (its own guess of the price, not a repair cost)');
    expect(est).toContain('ACV) $18,349');
    expect(est).toContain('repair cost $20,821');
    expect(est).toContain('repair 113% of ACV');
    const range = screen.getByText(/Bid up to/).textContent!;
    expect(range).toContain('$6,500–$7,000');
    expect(range).toContain('excluding shipping');
    const rests = screen.getByText(/Rests on 2 comparables/).textContent!;
    expect(rests).toContain(
      "Rests on 2 comparables in this lot's title group (salvage, repairable) with a price paid: lot 45139005, 45139006.",
    );
    expect(rests).not.toContain('left out');
    const rows = within(screen.getByRole('table', { name: 'Comparable sales' })).getAllByRole('row');
    expect(rows[1]!.textContent).toContain('IAAI #45139005 · WAUB4CF56JA126812');
    expect(within(rows[1]!).getByRole('list', { name: 'Why it matches' }).textContent).toContain(
      'same title group: salvage, repairable',
    );
    expect(rows[2]!.textContent).toContain('2 attempts of this VIN, counted once');
    expect(rows[3]!.textContent).toContain('bid $4,000, not paid');
  });

  it('says why the landed cost is unknown when the membership has no known fees, and that the target is not applied', () => {
    installFake();
    const pub = data({
      fee_table: feeTable('iaai', 'SALVAGE - REPAIRABLE-COLLISION', 'public'),
      bid_range: { ...data().bid_range, landed_low_usd: null, landed_high_usd: null, target_usd: 9000 },
    });
    render(<MarketComps lotKey="iaai:1" data={pub} demo={false} onFetched={() => undefined} />);
    const range = screen.getByText(/Bid up to/).textContent!;
    expect(range).toContain(
      'landed cost unknown: IAAI fees for a non-licensed / public membership are not known: data/fees/iaai.json has no published table for it, so Lotwatch gives no fee number. Your target landed cost is not applied.',
    );
  });

  it('refuses a bid range below 2 priced comparables, and asks the service for 1 request', async () => {
    const fake = installFake({
      handlers: {
        'desk.marketComps': async () =>
          okResult({ requests: 1, cached: false, fetched_at: NOW, found: 0, pages: 1, warning: null }),
      },
    });
    let reloads = 0;
    const refused = data({
      market: market(),
      bid_range: {
        ...data().bid_range,
        low_usd: null,
        high_usd: null,
        landed_low_usd: null,
        landed_high_usd: null,
        priced: 1,
        refusal: 'Only 1 comparable with a price paid: Lotwatch gives no bid range without at least 2.',
      },
    });
    render(<MarketComps lotKey="iaai:1" data={refused} demo={false} onFetched={() => reloads++} />);
    expect(screen.getByText(/No bid range\./).parentElement!.textContent).toContain(
      'No bid range. Only 1 comparable with a price paid',
    );
    expect(screen.queryByText(/Bid up to/)).toBeNull();
    expect(screen.getByText('1 request, up to 2')).toBeTruthy();
    expect(inputsOf(fake, 'desk.marketComps')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Find sold comparables' }));
    expect(await screen.findByText(/No comparables found \(1 request\)/)).toBeTruthy();
    expect(inputsOf(fake, 'desk.marketComps')).toEqual([{ lot_key: 'iaai:1' }]);
    expect(reloads).toBe(1);
  });

  it('in Demo mode asks at once on the first visit, and says why it failed', async () => {
    const fake = installFake({
      handlers: {
        'desk.marketComps': async () =>
          errResult('server', 'The auction data service had a problem (HTTP 502).', { retryable: true }),
      },
    });
    const stale = data({ market: market({ fetched_at: NOW - 30 * HOUR, found: 12, requests: 1 }) });
    render(<MarketComps lotKey="iaai:1" data={stale} demo onFetched={() => undefined} />);
    await waitFor(() => expect(inputsOf(fake, 'desk.marketComps')).toHaveLength(1));
    expect(await screen.findByText(/HTTP 502/)).toBeTruthy();
  });

  it('names a stored failure and the answer it kept, without asking again', () => {
    const fake = installFake();
    const failed = data({
      market: market({
        fetched_at: NOW - 30 * HOUR,
        found: 12,
        requests: 1,
        error: 'The auction data service had a problem (HTTP 502).',
        error_at: NOW - 60_000,
      }),
    });
    render(<MarketComps lotKey="iaai:2" data={failed} demo onFetched={() => undefined} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The last search for sold lots failed today at');
    expect(alert.textContent).toContain('HTTP 502');
    expect(alert.textContent).toMatch(/The answer of .* is kept\./);
    expect(screen.getByText(/1 request, up to 2/)).toBeTruthy();
    expect(inputsOf(fake, 'desk.marketComps')).toEqual([]);
  });
});

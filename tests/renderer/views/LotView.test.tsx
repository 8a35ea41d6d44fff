// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../../src/renderer/src/app/App';
import { createAppStore } from '../../../src/renderer/src/app/appStore';
import { LotView } from '../../../src/renderer/src/features/lot/LotView';
import type { MethodOutput } from '../../../src/shared/ipc/contract';
import type { Result } from '../../../src/shared/ipc/errors';
import { errResult, okResult, type FakeHandlers } from '../fakeBridge';
import { change, HOUR, lotDetail, lotSummary, MINUTE, NOW } from './fixtures';
import { parseVehicleDetail } from '../../../src/core/api/parse';
import { realFinishedRecord } from '../../core/api/fixtures/realRecords';

frozenAtNow('');

const KEY = 'copart:45416833';

/** The stored copy of the lot, as vehicles.get answers when the service cannot be reached. */
const stored: MethodOutput<'vehicles.get'> = lotDetail({
  offline: true,
  summary: lotSummary({
    lot_key: KEY,
    title: '2019 TESLA MODEL 3',
    current_bid_usd: 1450,
    last_observed_at: NOW - 5 * MINUTE,
  }),
  timeline: [
    change({
      id: 1,
      kind: 'new_match',
      field: null,
      before: null,
      after: null,
      observed_at: NOW - 3 * HOUR,
      search_id: 7,
    }),
    // A bid change from 1,200 to 1,450 an hour ago (the fixture's).
    change({ id: 2, lot_key: KEY }),
    change({
      id: 3,
      kind: 'status_changed',
      field: 'auction.state',
      before: 'upcoming',
      after: 'open',
      observed_at: NOW - 2 * HOUR,
    }),
  ],
  bids: [
    [NOW - 3 * HOUR, 1200],
    [NOW - 2 * HOUR, 1200],
    [NOW - 1 * HOUR, 1450],
  ],
  observations: 3,
});

/** The sections that load at once in Demo mode answer empty, so the page has no unrelated errors. */
const quietSections: FakeHandlers = {
  'vehicles.history': () => okResult({ sales: [], meta: null }),
  'vehicles.related': () => okResult({ lots: [] }),
};

describe('LotView', () => {
  it('shows the stored copy when vehicles.get answers offline: badge, title, bid and the change list', async () => {
    const fake = installFake({ handlers: { ...quietSections, 'vehicles.get': () => okResult(stored) } });
    render(<LotView lotKey={KEY} />);
    expect(await screen.findByRole('heading', { name: '2019 TESLA MODEL 3' })).toBeTruthy();
    expect(inputsOf(fake, 'vehicles.get')).toEqual([{ id: KEY, refresh: true }]);

    const badge = screen.getByText(/^Offline · stored/);
    expect(badge.textContent).toBe('Offline · stored 5 minutes ago');
    const price = screen.getByText('Current bid').closest('.price-main');
    expect(price?.textContent).toContain('$1,450');

    const timeline = screen.getByRole('region', { name: 'Timeline' });
    expect(within(timeline).getByRole('figure').getAttribute('aria-label')).toBe(
      'Bid over time: 3 observations, from $1,200 to $1,450',
    );
    const changes = within(timeline)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('span')?.textContent);
    // Newest first, each in words.
    expect(changes).toEqual([
      'Bid: $1,200 → $1,450',
      'Status: Upcoming → Open',
      'New match in a saved search',
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows no offline badge when the lot came fresh from the service', async () => {
    installFake({
      handlers: { ...quietSections, 'vehicles.get': () => okResult({ ...stored, offline: false }) },
    });
    render(<LotView lotKey={KEY} />);
    await screen.findByRole('heading', { name: '2019 TESLA MODEL 3' });
    expect(screen.queryByText(/Offline · stored/)).toBeNull();
  });

  it('shows an error notice with the message, never a stack trace, when vehicles.get fails', async () => {
    let answer: Result<MethodOutput<'vehicles.get'>> = errResult(
      'network',
      'The service is out of reach and this lot is not stored on this computer.',
      { retryable: true },
    );
    const fake = installFake({ handlers: { ...quietSections, 'vehicles.get': () => answer } });
    render(<LotView lotKey={KEY} />);
    const notice = await screen.findByRole('alert');
    expect(
      within(notice).getByText('The service is out of reach and this lot is not stored on this computer.'),
    ).toBeTruthy();
    expect(notice.textContent).toContain('Check the connection');
    expect(notice.textContent).not.toMatch(/\bat \S+ \(|Error:|\.tsx?:\d+/);
    expect(screen.queryByRole('heading', { level: 2 })).toBeNull();

    // A retryable error offers Try again, which calls vehicles.get again.
    answer = okResult(stored);
    fireEvent.click(within(notice).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: '2019 TESLA MODEL 3' })).toBeTruthy();
    expect(inputsOf(fake, 'vehicles.get')).toHaveLength(2);
    // The lot's own notice goes (the page's other sections answer for themselves; this fake leaves the desk unanswered).
    await waitFor(() =>
      expect(
        screen.queryByText('The service is out of reach and this lot is not stored on this computer.'),
      ).toBeNull(),
    );
  });

  it('opens from the #/lot/<lot_key> hash inside the app frame', async () => {
    window.location.hash = `#/lot/${encodeURIComponent(KEY)}`;
    const fake = installFake({ handlers: { ...quietSections, 'vehicles.get': () => okResult(stored) } });
    render(<App store={createAppStore(fake.bridge)} api={fake.bridge} />);
    expect(await screen.findByRole('heading', { name: '2019 TESLA MODEL 3' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Lot');
    expect(inputsOf(fake, 'vehicles.get')[0]).toEqual({ id: KEY, refresh: true });
  });
});

describe('LotView with a record in the real service dialect', () => {
  it('shows the sale result and what a buyer decides on: damage, colour, fuel, drive, title, run condition, keys, seller', async () => {
    const { data: record, raw } = (() => {
      const r = parseVehicleDetail({ ok: true, data: realFinishedRecord() });
      if (!r.ok) throw new Error(r.reason);
      return r.value;
    })();
    const { raw: _raw, ...normalized } = record;
    const detail = lotDetail({
      offline: false,
      summary: lotSummary({
        lot_key: 'iaai:45139005',
        platform: 'iaai',
        lot_number: '45139005',
        title: record.title,
        current_bid_usd: 9250,
        sale_price_usd: 9250,
        state: 'finished',
        lot_status: null,
        lot_sub_status: null,
        last_sold_status: 'Sold',
      }),
      record: normalized as Record<string, unknown>,
      raw,
    });
    installFake({ handlers: { ...quietSections, 'vehicles.get': () => okResult(detail) } });
    render(<LotView lotKey="iaai:45139005" />);
    await screen.findByRole('heading', { name: '2018 AUDI S5 3.0T PREMIUM PLUS' });
    expect(screen.getByText('Sold for').closest('.price-main')?.textContent).toContain('$9,250');
    const vehicle = screen.getByRole('region', { name: 'Vehicle' });
    const fact = (label: string) =>
      within(vehicle).getByText(label).closest('.fact')?.querySelector('dd')?.textContent;
    expect(fact('Damage')).toBe('Front end');
    expect(fact('Secondary damage')).toBe('Left Front');
    expect(fact('Color')).toBe('Gray');
    expect(fact('Fuel')).toBe('Gasoline');
    expect(fact('Drive')).toBe('All Wheel Drive');
    expect(fact('Title document')).toBe('SALVAGE - REPAIRABLE-COLLISION');
    expect(fact('Run condition')).toBe('Runs and drives');
    expect(fact('Keys')).toBe('Yes');
    expect(fact('Seller')).toBe('Mapfre Usa (insurance)');
    expect(fact('Odometer')).toContain('139,084');
    expect(fact('Ships from')).toBe('Norfolk');
    expect(fact('State (location)')).toBe('MA');
  });

  it('never says "Sold" for a lot that ended unsold', async () => {
    const detail = lotDetail({
      summary: lotSummary({
        state: 'finished',
        lot_status: null,
        lot_sub_status: null,
        last_sold_status: null,
        sale_price_usd: null,
        current_bid_usd: 4100,
      }),
    });
    installFake({
      handlers: { ...quietSections, 'vehicles.get': () => okResult({ ...detail, offline: false }) },
    });
    render(<LotView lotKey={KEY} />);
    await screen.findByRole('heading', { name: '2019 TESLA MODEL 3' });
    expect(screen.getByText('Ended unsold · last bid').closest('.price-main')?.textContent).toContain(
      '$4,100',
    );
    expect(screen.queryByText(/^Sold/)).toBeNull();
  });

  it('says "No bids yet" on a related lot nobody has bid on, never "$0"', async () => {
    const related = (lot_number: string, current_bid_usd: number | null) => ({
      ...lotSummary({
        lot_key: `copart:${lot_number}`,
        lot_number,
        title: `2020 TESLA MODEL 3 ${lot_number}`,
        current_bid_usd,
        auction_at: NOW + 2 * HOUR,
      }),
      odometer: null,
      damage: null,
      color: null,
      fuel_type: null,
      transmission: null,
      drive_type: null,
      type: null,
      photos: [],
    });
    installFake({
      handlers: {
        ...quietSections,
        'vehicles.get': () => okResult(stored),
        'vehicles.related': () =>
          okResult({ lots: [related('50313048', 0), related('50313049', null), related('50313050', 2500)] }),
      },
    });
    render(<LotView lotKey={KEY} />);
    const section = await screen.findByRole('region', { name: 'Related lots' });
    const cards = await within(section).findAllByRole('link');
    expect(cards.map((c) => c.textContent)).toEqual([
      expect.stringMatching(/50313048.*No bids yet · in 2 hours/),
      expect.stringMatching(/50313049.*No bids yet · in 2 hours/),
      expect.stringMatching(/50313050.*\$2,500 · in 2 hours/),
    ]);
    expect(section.textContent).not.toContain('$0');
  });
});

describe('LotView price and sale time', () => {
  it('a lot nobody has bid on reads "No bids yet", never "$0"; a past sale time without a result says so', async () => {
    const detail = lotDetail({
      offline: false,
      summary: lotSummary({ current_bid_usd: 0, auction_at: NOW - 2 * HOUR }),
    });
    installFake({ handlers: { ...quietSections, 'vehicles.get': () => okResult(detail) } });
    render(<LotView lotKey={KEY} />);
    await screen.findByRole('heading', { name: '2019 TESLA MODEL 3' });
    expect(screen.getByText('Current bid').closest('.price-main')?.textContent).toBe(
      'Current bidNo bids yet',
    );
    const auction = screen.getByText('Auction').closest('.fact')?.querySelector('dd')?.textContent;
    expect(auction).toContain('sale time passed, waiting for the result');
    expect(screen.getByText('Current bid').closest('.lot-price')?.textContent).not.toContain('$0');
  });
});

describe('LotView sale history', () => {
  it('reads sale dates as dates ("May 14, 2024"), never ISO text', async () => {
    // Demo mode loads the sale history at once.
    installFake({
      settings: { demoMode: true },
      handlers: {
        ...quietSections,
        'vehicles.get': () => okResult(stored),
        'vehicles.history': () =>
          okResult({
            sales: [
              {
                platform: 'copart',
                lot_number: null,
                date: '2024-05-14T10:00:00Z',
                price: 6100,
                status: 'Sold',
                outcome: 'sold',
              },
            ],
            meta: null,
          }),
      },
    });
    render(<LotView lotKey={KEY} />);
    const section = await screen.findByRole('region', { name: 'Sale history' });
    const row = await within(section).findByRole('row', { name: /Copart/ });
    expect(row.textContent).toContain('May 14, 2024');
    expect(section.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});

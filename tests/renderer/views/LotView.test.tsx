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
import { exportBlock } from '../../../src/shared/exportBlock';

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
  'vehicles.attempts': () => okResult(attempts([])),
  'vehicles.related': () => okResult({ lots: [] }),
};

/** A `vehicles.attempts` answer with these attempts and facts, from the store unless `asked`. */
function attempts(
  list: MethodOutput<'vehicles.attempts'>['attempts'],
  over: Partial<MethodOutput<'vehicles.attempts'>> = {},
): MethodOutput<'vehicles.attempts'> {
  return {
    vin: '5YJ3E1EA0KF000001',
    attempts: list,
    signals: {
      attempts: list.length,
      relists: Math.max(0, list.length - 1),
      approval_returns: 0,
      bid_trend: null,
      days_on_market: null,
      facts: [],
    },
    asked: { history: false, ended_search: false },
    requests: 0,
    notice: null,
    ...over,
  };
}

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

  it('Watch this lot asks for this lot by its number and platform, so a copy just read is used', async () => {
    const fake = installFake({
      handlers: {
        ...quietSections,
        'vehicles.get': () => okResult({ ...stored, offline: false }),
        'watchlist.add': () => errResult('not_found', 'There is no Copart lot 45416833.'),
      },
    });
    render(<LotView lotKey={KEY} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Watch this lot' }));
    await waitFor(() =>
      expect(inputsOf(fake, 'watchlist.add')).toEqual([{ target: '45416833', platform: 'copart' }]),
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
  it('marks a title the service says cannot be exported, in the header and beside the title document', async () => {
    const rec: Record<string, unknown> = {
      ...realFinishedRecord(),
      details: { attributes: { TitleBrand: 'REPAIRABLE-COLLISION' } },
    };
    (rec['sale_document'] as Record<string, unknown>)['export'] = false;
    const r = parseVehicleDetail({ ok: true, data: rec });
    if (!r.ok) throw new Error(r.reason);
    const { raw: _raw, ...normalized } = r.value.data;
    const block = exportBlock(r.value.data.title_document);
    installFake({
      handlers: {
        ...quietSections,
        'vehicles.get': () =>
          okResult(
            lotDetail({
              summary: lotSummary({
                lot_key: 'iaai:45139005',
                title: r.value.data.title,
                export_block: block,
              }),
              record: normalized as Record<string, unknown>,
            }),
          ),
      },
    });
    render(<LotView lotKey="iaai:45139005" />);
    await screen.findByRole('heading', { name: '2018 AUDI S5 3.0T PREMIUM PLUS' });
    const mark = document.querySelector('.lot-sub .lw-export-mark');
    expect(mark?.textContent).toContain('Not exportable');
    expect(mark?.getAttribute('title')).toBe(
      'The service marks this title document as not exportable: the car cannot leave the US on it.',
    );
    const vehicle = screen.getByRole('region', { name: 'Vehicle' });
    const fact = (label: string) =>
      within(vehicle).getByText(label).closest('.fact')?.querySelector('dd')?.textContent;
    expect(fact('Title document')).toBe('SALVAGE - REPAIRABLE-COLLISION · brand REPAIRABLE-COLLISION');
    expect(fact('Export')).toBe(block?.text);
  });

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

describe("LotView: a VIN's every attempt", () => {
  const attempt = (
    over: Partial<MethodOutput<'vehicles.attempts'>['attempts'][number]>,
  ): MethodOutput<'vehicles.attempts'>['attempts'][number] => ({
    number: 1,
    platform: 'copart',
    lot_number: '41000001',
    lot_key: null,
    day: '2024-05-14',
    auction_at: null,
    bid_usd: null,
    price_usd: null,
    outcome: 'open',
    basis: 'confirmed',
    sources: ['store'],
    ...over,
  });
  const three = [
    attempt({
      number: 1,
      outcome: 'sold_on_approval',
      price_usd: 6600,
      sources: ['store', 'history'],
      lot_key: 'copart:41000001',
    }),
    attempt({
      number: 2,
      platform: 'iaai',
      lot_number: null,
      day: '2024-05-28',
      outcome: 'sold_on_approval',
      price_usd: 6200,
      sources: ['history'],
    }),
    attempt({
      number: 3,
      lot_number: '41000003',
      day: '2024-06-02',
      outcome: 'relisted',
      basis: 'inferred',
      bid_usd: 5100,
    }),
    attempt({ number: 4, lot_number: '45416833', lot_key: KEY, day: null, bid_usd: 1450 }),
  ];

  it('shows each attempt with its date, platform, lot, bid, outcome, mark and sources, and the signals as facts', async () => {
    let asked = false;
    const fake = installFake({
      settings: { demoMode: false },
      handlers: {
        ...quietSections,
        'vehicles.get': () => okResult(stored),
        'vehicles.attempts': () =>
          okResult(
            attempts(three, {
              ...(asked ? { asked: { history: true, ended_search: true }, requests: 2 } : {}),
              signals: {
                attempts: 4,
                relists: 3,
                approval_returns: 2,
                bid_trend: 'falling',
                days_on_market: 40,
                facts: [
                  '4th attempt; last one came back at $5,100',
                  'Sold on approval two times and listed again',
                ],
              },
            }),
          ),
      },
    });
    render(<LotView lotKey={KEY} />);
    const section = await screen.findByRole('region', { name: 'Sale history' });
    const table = await within(section).findByRole('table', { name: 'Every attempt of this VIN' });
    // Offline: read from the store, nothing spent until asked.
    expect(inputsOf(fake, 'vehicles.attempts')).toEqual([{ id: KEY, ask: false }]);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows).toEqual([
      '1May 14, 2024Copart41000001$6,600Sold on approval confirmedLotwatch, Sale history',
      '2May 28, 2024IAAInot given$6,200Sold on approval confirmedSale history',
      '3Jun 2, 2024Copart41000003bid $5,100Came back (relisted) inferredLotwatch',
      '4date not knownCopart45416833bid $1,450Open confirmedLotwatch',
    ]);
    // The earlier stored lot opens; the lot on screen is marked, not linked.
    expect(within(table).getByRole('link', { name: '41000001' }).getAttribute('href')).toContain('41000001');
    expect(within(table).getAllByRole('row')[4]!.getAttribute('aria-current')).toBe('true');
    expect(within(section).getByRole('list', { name: 'Seller signals' }).textContent).toContain(
      '4th attempt; last one came back at $5,100',
    );
    expect(within(section).getByText('inferred').getAttribute('title')).toMatch(/^Lotwatch concluded this/);
    expect(section.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(section.textContent).not.toContain('unsold');

    // Asking the service says its cost on the button and what it spent afterwards.
    const ask = within(section).getByRole('button', {
      name: /^Ask the service \(1 request, 2 when its sale history is empty\)$/,
    });
    asked = true;
    fireEvent.click(ask);
    await within(section).findByText(
      /^Asked the service: 2 requests \(its sale history was empty, so an Ended search by VIN too\)\./,
    );
    expect(inputsOf(fake, 'vehicles.attempts').at(-1)).toEqual({ id: KEY, ask: true });
  });

  it('asks the service at once in Demo mode, and says a failing service in the notice', async () => {
    const fake = installFake({
      settings: { demoMode: true },
      handlers: {
        ...quietSections,
        'vehicles.get': () => okResult(stored),
        'vehicles.attempts': () =>
          okResult(
            attempts([attempt({ number: 1, lot_key: KEY, lot_number: '45416833' })], {
              asked: { history: true, ended_search: false },
              requests: 1,
              notice:
                'The service did not answer (Vehicle API request failed.); the attempts below are what Lotwatch stored.',
            }),
          ),
      },
    });
    render(<LotView lotKey={KEY} />);
    const section = await screen.findByRole('region', { name: 'Sale history' });
    await within(section).findByText(/^The service did not answer/);
    expect(inputsOf(fake, 'vehicles.attempts')).toEqual([{ id: KEY, ask: true }]);
  });
});

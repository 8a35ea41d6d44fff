// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WatchView } from '../../../src/shared/ipc/contract';
import { WatchlistView } from '../../../src/renderer/src/features/watchlist/WatchlistView';
import { errResult, okResult } from '../fakeBridge';
import { lotSummary, NOW, watch } from './fixtures';

frozenAtNow('#/watchlist');

const tesla = watch();
const sold = watch({
  id: 2,
  vin: '5YJ3E1EA7KF317000',
  lot_key: 'iaai:39120001',
  lot: lotSummary({
    lot_key: 'iaai:39120001',
    platform: 'iaai',
    lot_number: '39120001',
    vin: '5YJ3E1EA7KF317000',
    title: '2020 FORD F-150 XLT',
    current_bid_usd: 18_000,
    sale_price_usd: 18_750,
    state: 'ended',
    lot_status: 'Sold',
    lot_sub_status: 'Ended',
  }),
});

/** Opens the row menu of the watch titled `title` and picks "Check now". */
function checkNowFromMenu(title: string): void {
  fireEvent.click(within(rowOf(title)).getByRole('button', { name: `Actions for ${title}` }));
  fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Check now' }));
}

/** The text of one cell: the row of the lot, the column of the header. */
function cell(title: string, header: string): string | null | undefined {
  const table = screen.getByRole('table', { name: 'Watched vehicles' });
  const at = within(table)
    .getAllByRole('columnheader')
    .findIndex((h) => h.textContent === header);
  if (at < 0) throw new Error(`no column ${header}`);
  return rowOf(title).querySelectorAll('td')[at]?.textContent;
}

function rowOf(title: string): HTMLElement {
  const row = screen.getByRole('button', { name: title }).closest('tr');
  if (!row) throw new Error(`no row for ${title}`);
  return row;
}

describe('WatchlistView', () => {
  it('lists the watches from watchlist.list with their bid and state', async () => {
    installFake({ handlers: { 'watchlist.list': () => okResult([tesla, sold]) } });
    render(<WatchlistView />);
    const table = await screen.findByRole('table', { name: 'Watched vehicles' });
    // header row + one row per watch
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const open = rowOf('2019 TESLA MODEL 3');
    expect(open.textContent).toContain('$12,300');
    expect(open.textContent).toContain('Open');
    expect(open.textContent).toContain('#45416833');
    // A sold lot shows its sale price and its sale result, not the last bid and the raw state.
    const done = rowOf('2020 FORD F-150 XLT');
    expect(done.textContent).toContain('$18,750');
    expect(done.textContent).not.toContain('$18,000');
    expect(within(done).getByText('Sold')).toBeTruthy();
    expect(screen.getByText('2 watched')).toBeTruthy();
  });

  it('adds a target with the typed text and reloads the list', async () => {
    const added = watch({
      id: 3,
      lot_key: 'copart:50112233',
      lot: lotSummary({ lot_key: 'copart:50112233', lot_number: '50112233', title: '2018 BMW X5' }),
    });
    let list: WatchView[] = [tesla];
    const fake = installFake({
      handlers: {
        'watchlist.list': () => okResult(list),
        'watchlist.add': () => {
          list = [tesla, added];
          return okResult(added);
        },
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    const input = screen.getByRole('textbox', {
      name: 'VIN, lot number or lot-page URL',
    }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'https://www.copart.com/lot/50112233' } });
    fireEvent.click(screen.getByRole('button', { name: 'Watch' }));
    expect(await screen.findByText('Now watching 2018 BMW X5.')).toBeTruthy();
    expect(inputsOf(fake, 'watchlist.add')).toEqual([
      { target: 'https://www.copart.com/lot/50112233', label: '' },
    ]);
    expect(input.value).toBe('');
    expect(await screen.findByRole('button', { name: '2018 BMW X5' })).toBeTruthy();
  });

  it('marks the target field invalid with the refusal message and keeps the typed text', async () => {
    const fake = installFake({
      handlers: {
        'watchlist.list': () => okResult([tesla]),
        'watchlist.add': () =>
          errResult('not_found', 'Nothing found.', { fields: { target: ['No lot or VIN matches 12345.'] } }),
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    const input = screen.getByRole('textbox', {
      name: 'VIN, lot number or lot-page URL',
    }) as HTMLInputElement;
    expect(input.getAttribute('aria-invalid')).toBeNull();
    fireEvent.change(input, { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Watch' }));
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    const message = screen.getByText('No lot or VIN matches 12345.');
    expect(input.getAttribute('aria-describedby')).toBe(message.id);
    expect(input.value).toBe('12345');
    expect(inputsOf(fake, 'watchlist.add')).toHaveLength(1);
    // The field message replaces the general notice; nothing was added.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Now watching/)).toBeNull();
  });

  it('asks for confirmation before removing the examples', async () => {
    const examples = [
      watch({ id: 11, is_example: true, label: 'Example' }),
      watch({
        id: 12,
        is_example: true,
        label: 'Example',
        kind: 'vin',
        vin: '3FA6P0H74HR100001',
        lot_key: null,
        lot: null,
      }),
    ];
    let list: WatchView[] = [tesla, ...examples];
    const fake = installFake({
      handlers: {
        'watchlist.list': () => okResult(list),
        'examples.remove': () => {
          list = [tesla];
          return okResult({ searches: 1, watches: 2, calls: 1 });
        },
      },
    });
    render(<WatchlistView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove examples (2)' }));
    const ask = screen.getByRole('group', { name: 'Remove all example watches and searches?' });
    expect(inputsOf(fake, 'examples.remove')).toHaveLength(0);

    // Cancel steps back without removing anything.
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(inputsOf(fake, 'examples.remove')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Remove examples (2)' }));
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Remove all example watches and searches?' })).getByRole(
        'button',
        { name: 'Remove examples' },
      ),
    );
    expect(
      await screen.findByText('Removed 2 example watches, 1 example search and 1 example watched call.'),
    ).toBeTruthy();
    expect(inputsOf(fake, 'examples.remove')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: /Remove examples/ })).toBeNull());
  });
});

describe('WatchlistView: one add, one message', () => {
  it('a new add clears the previous add\'s message: "Now watching" never stands beside the next add\'s "not found"', async () => {
    const rav4 = watch({
      id: 4,
      lot_key: 'copart:50445566',
      lot: lotSummary({ lot_key: 'copart:50445566', lot_number: '50445566', title: '2022 TOYOTA RAV4 LE' }),
    });
    let list: WatchView[] = [tesla];
    installFake({
      handlers: {
        'watchlist.list': () => okResult(list),
        'watchlist.add': (input) => {
          if (input?.target === '50445566') {
            list = [tesla, rav4];
            return okResult(rav4);
          }
          if (input?.target === '99999999')
            return errResult('not_found', 'Not found. Check the lot number and try again.');
          return errResult('not_found', 'Nothing found.', {
            fields: { target: [`No lot or VIN matches ${input?.target ?? ''}.`] },
          });
        },
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    const input = screen.getByRole('textbox', {
      name: 'VIN, lot number or lot-page URL',
    }) as HTMLInputElement;
    const add = async (target: string) => {
      fireEvent.change(input, { target: { value: target } });
      fireEvent.click(screen.getByRole('button', { name: 'Watch' }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Watch' })).toBeTruthy());
    };

    await add('50445566');
    expect(await screen.findByText('Now watching 2022 TOYOTA RAV4 LE.')).toBeTruthy();

    // A general refusal: the error alone.
    await add('99999999');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Not found');
    expect(screen.queryByText(/Now watching/)).toBeNull();

    // Success again clears that error.
    list = [tesla];
    await add('50445566');
    expect(await screen.findByText('Now watching 2022 TOYOTA RAV4 LE.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();

    // A field refusal: the field message alone.
    await add('12345');
    expect(await screen.findByText('No lot or VIN matches 12345.')).toBeTruthy();
    expect(screen.queryByText(/Now watching/)).toBeNull();
  });

  it("a check after a failed add clears the add's error", async () => {
    installFake({
      handlers: {
        'watchlist.list': () => okResult([tesla]),
        'watchlist.add': () =>
          errResult('server', 'The auction data service had a problem (HTTP 502).', { retryable: true }),
        'watchlist.checkNow': () =>
          okResult({ status: 'ok', requests: 1, changes: 0, alerts: 0, error: null }),
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    fireEvent.change(screen.getByRole('textbox', { name: 'VIN, lot number or lot-page URL' }), {
      target: { value: '50445566' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Watch' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    checkNowFromMenu('2019 TESLA MODEL 3');
    expect(await screen.findByText('Checked 2019 TESLA MODEL 3: 0 changes.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('WatchlistView: a check that fails', () => {
  it('says the check failed and why, never "Checked: 0 changes" beside the error', async () => {
    installFake({
      handlers: {
        'watchlist.list': () => okResult([tesla]),
        'watchlist.checkNow': () =>
          okResult({
            status: 'error',
            requests: 1,
            changes: 0,
            alerts: 0,
            error: {
              code: 'unauthorized',
              message: 'The service refused the API key. Enter a valid key in Settings.',
            },
          }),
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    checkNowFromMenu('2019 TESLA MODEL 3');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Could not check 2019 TESLA MODEL 3: The service refused the API key. Enter a valid key in Settings.',
    );
    expect(screen.queryByText(/Checked 2019 TESLA MODEL 3/)).toBeNull();
  });
});

describe('WatchlistView: lots whose sale is over or due', () => {
  const ended = (id: number, title: string, over: Parameters<typeof lotSummary>[0]) =>
    watch({
      id,
      lot_key: `copart:${50_000_000 + id}`,
      last_checked_at: NOW - 10 * 60_000,
      next_check_at: NOW + 24 * 60 * 60_000,
      lot: lotSummary({
        lot_key: `copart:${50_000_000 + id}`,
        lot_number: String(50_000_000 + id),
        title,
        auction_at: NOW - 26 * 60 * 60_000,
        ...over,
      }),
    });
  const sale = (title: string) => cell(title, 'Sale');
  const checked = (title: string) => cell(title, 'Checked');

  it('an ended lot shows its sale result, never "started" or a "next" countdown', async () => {
    const watches = [
      ended(21, '2021 HONDA CIVIC SOLD', {
        state: 'finished',
        lot_status: null,
        lot_sub_status: null,
        last_sold_status: 'Sold',
        current_bid_usd: 4250,
        sale_price_usd: 4250,
      }),
      ended(22, '2018 FORD ESCAPE UNSOLD', {
        state: 'finished',
        lot_status: null,
        lot_sub_status: null,
        last_sold_status: null,
        current_bid_usd: 2100,
        sale_price_usd: null,
      }),
      ended(23, '2017 KIA SOUL APPROVAL', {
        state: 'finished',
        lot_status: null,
        lot_sub_status: null,
        last_sold_status: 'Sold on Approval',
        current_bid_usd: 3300,
        sale_price_usd: null,
      }),
      ended(24, '2016 MAZDA 3 PAST', {
        state: 'open',
        lot_status: 'Timed',
        lot_sub_status: 'Open',
        current_bid_usd: 0,
      }),
      ended(25, '2015 MAZDA 6 JUST PAST', {
        auction_at: NOW - 5 * 60_000,
        state: 'open',
        lot_status: 'Timed',
        lot_sub_status: 'Open',
        current_bid_usd: 0,
      }),
    ];
    installFake({ handlers: { 'watchlist.list': () => okResult([tesla, ...watches]) } });
    render(<WatchlistView />);
    const table = await screen.findByRole('table', { name: 'Watched vehicles' });
    expect(within(table).queryByRole('columnheader', { name: 'Auction in' })).toBeNull();

    expect(sale('2021 HONDA CIVIC SOLD')).toContain('Sold for $4,250');
    expect(sale('2018 FORD ESCAPE UNSOLD')).toContain('Ended unsold');
    expect(sale('2017 KIA SOUL APPROVAL')).toContain('Sold on approval at $3,300');
    expect(sale('2016 MAZDA 3 PAST')).toBe('Sale time passedno result yet');
    // Minutes after the sale time the lots are going on the block in turn: under way, not yet late.
    expect(sale('2015 MAZDA 6 JUST PAST')).toBe('Sale under wayresult to follow');
    // Two short lines that fit the column; the whole sentence is the cell's tooltip.
    expect(within(rowOf('2016 MAZDA 3 PAST')).getByTitle('Sale time passed, no result yet')).toBeTruthy();
    // The open lot still counts down to its sale.
    expect(sale('2019 TESLA MODEL 3')).toMatch(/^in 1d 2h[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M$/);

    // After the sale: when it was checked, and no "next in 24 hours" for a sold lot.
    expect(checked('2021 HONDA CIVIC SOLD')).toBe('10 min agoafter the sale');
    expect(checked('2018 FORD ESCAPE UNSOLD')).toBe('10 min agoafter the sale · looks for a relist in 1 d');
    for (const t of ['2021 HONDA CIVIC SOLD', '2018 FORD ESCAPE UNSOLD', '2017 KIA SOUL APPROVAL']) {
      expect(rowOf(t).textContent).not.toMatch(/started|next in/);
    }
    // Past its sale time without a result, the lot is still checked until the result comes.
    expect(rowOf('2016 MAZDA 3 PAST').textContent).not.toContain('started');
    // A lot nobody bid on reads "No bids yet" (open) or "No bids" (ended), never "$0".
    expect(cell('2016 MAZDA 3 PAST', 'Bid')).toBe('No bids yet');
    expect(table.textContent).not.toContain('$0');
    expect(checked('2019 TESLA MODEL 3')).toBe('10 min agonext in 20 min');
  });

  it('a check that is overdue says so, never "next 5 minutes ago"', async () => {
    installFake({
      handlers: {
        'watchlist.list': () => okResult([watch({ next_check_at: NOW - 5 * 60_000, last_checked_at: null })]),
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    expect(checked('2019 TESLA MODEL 3')).toBe('Not checked yetnext check due now');
  });

  it('a Demo example outside Demo mode (no next check from core) says it is checked only in Demo mode', async () => {
    installFake({
      handlers: {
        'watchlist.list': () =>
          okResult([
            watch({ is_example: true, waits_for_demo: true, label: 'Example', next_check_at: null }),
          ]),
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    expect(checked('2019 TESLA MODEL 3')).toBe('10 min agoonly in Demo mode');
  });

  it('promises no next check while watching is on hold, and reloads the rows when the state changes', async () => {
    let lists = 0;
    const fake = installFake({
      handlers: {
        'watchlist.list': () => {
          lists++;
          return okResult([watch({ next_check_at: NOW + 5 * 60_000, last_checked_at: null })]);
        },
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    expect(checked('2019 TESLA MODEL 3')).toBe('Not checked yetnext in 5 min');
    const before = lists;
    act(() =>
      fake.emit({ name: 'watching.changed', payload: { kind: 'quota_spent', until: NOW + 86_400_000 } }),
    );
    await waitFor(() => expect(checked('2019 TESLA MODEL 3')).toBe('Not checked yetchecks on hold'));
    expect(lists).toBeGreaterThan(before);
    act(() => fake.emit({ name: 'watching.changed', payload: { kind: 'running' } }));
    await waitFor(() => expect(checked('2019 TESLA MODEL 3')).toBe('Not checked yetnext in 5 min'));
  });
});

describe('WatchlistView: landed cost and max bid without shipping', () => {
  it('says "excluding shipping" where the numbers stand, and nothing when shipping is in', async () => {
    const gap = { part: 'shipping' as const, port: 'Savannah', reason: 'no_price' as const };
    const noShip = watch({
      lot: lotSummary({ current_bid_usd: 2000 }),
      desk: {
        notes: '',
        tags: [],
        port: 'Savannah',
        shipping_usd: null,
        landed_cost_usd: 2070,
        landed_excludes: [gap],
        max_bid_usd: 3555,
        max_bid_excludes: ['shipping'],
      },
    });
    const shipped = watch({
      id: 2,
      lot_key: 'iaai:39120001',
      lot: lotSummary({
        lot_key: 'iaai:39120001',
        platform: 'iaai',
        title: '2020 FORD F-150 XLT',
        current_bid_usd: 2000,
      }),
      desk: {
        notes: '',
        tags: [],
        port: 'LA',
        shipping_usd: 720,
        landed_cost_usd: 2790,
        landed_excludes: [],
        max_bid_usd: 3000,
        max_bid_excludes: [],
      },
    });
    installFake({ handlers: { 'watchlist.list': () => okResult([noShip, shipped]) } });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    const row = rowOf('2019 TESLA MODEL 3');
    expect(cell('2019 TESLA MODEL 3', 'Landed')).toBe('$2,070excl. shipping');
    expect(cell('2019 TESLA MODEL 3', 'Max bid')).toBe('$3,555excl. shipping');
    expect(
      within(row).getByTitle(/worked out from your costs in Settings, excluding shipping\.$/),
    ).toBeTruthy();
    expect(row.textContent).not.toContain('+ship');
    expect(
      within(row).getByTitle('No price for Savannah: the service does not price it for this lot.'),
    ).toBeTruthy();
    const other = rowOf('2020 FORD F-150 XLT');
    expect(cell('2020 FORD F-150 XLT', 'Landed')).toBe('$2,790');
    expect(cell('2020 FORD F-150 XLT', 'Max bid')).toBe('$3,000from costs');
    expect(other.textContent).not.toContain('excluding');
  });
});

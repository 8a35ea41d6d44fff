// @vitest-environment jsdom
import { inputsOf, installFake, render } from './fakeApi';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchView } from '../../../src/shared/ipc/contract';
import { WatchlistView } from '../../../src/renderer/src/features/watchlist/WatchlistView';
import { errResult, okResult } from '../fakeBridge';
import { lotSummary, NOW, watch } from './fixtures';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  window.location.hash = '#/watchlist';
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

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
    const added = watch({ id: 3, lot_key: 'copart:50112233', lot: lotSummary({ lot_key: 'copart:50112233', lot_number: '50112233', title: '2018 BMW X5' }) });
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
    const input = screen.getByRole('textbox', { name: 'VIN, lot number or lot-page URL' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'https://www.copart.com/lot/50112233' } });
    fireEvent.click(screen.getByRole('button', { name: 'Watch' }));
    expect(await screen.findByText('Now watching 2018 BMW X5.')).toBeTruthy();
    expect(inputsOf(fake, 'watchlist.add')).toEqual([{ target: 'https://www.copart.com/lot/50112233', label: '' }]);
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
    const input = screen.getByRole('textbox', { name: 'VIN, lot number or lot-page URL' }) as HTMLInputElement;
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
    const examples = [watch({ id: 11, is_example: true, label: 'Example' }), watch({ id: 12, is_example: true, label: 'Example', kind: 'vin', vin: '3FA6P0H74HR100001', lot_key: null, lot: null })];
    let list: WatchView[] = [tesla, ...examples];
    const fake = installFake({
      handlers: {
        'watchlist.list': () => okResult(list),
        'examples.remove': () => {
          list = [tesla];
          return okResult({ searches: 1, watches: 2 });
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
    fireEvent.click(within(screen.getByRole('group', { name: 'Remove all example watches and searches?' })).getByRole('button', { name: 'Remove examples' }));
    expect(await screen.findByText('Removed 2 example watches and 1 example search.')).toBeTruthy();
    expect(inputsOf(fake, 'examples.remove')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: /Remove examples/ })).toBeNull());
  });
});

// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WatchView } from '../../../src/shared/ipc/contract';
import { WatchlistView } from '../../../src/renderer/src/features/watchlist/WatchlistView';
import { okResult } from '../fakeBridge';
import { HOUR, lotSummary, NOW, watch } from './fixtures';

frozenAtNow('#/watchlist');

/** A watch of an open Copart lot `n`, titled `title`, bid `bid` USD, selling `inHours` from NOW. */
function lot(
  n: number,
  title: string,
  bid: number,
  inHours: number,
  over: Partial<WatchView> = {},
): WatchView {
  return watch({
    id: n,
    vin: null,
    lot_key: `copart:${50_000_000 + n}`,
    lot: lotSummary({
      lot_key: `copart:${50_000_000 + n}`,
      lot_number: String(50_000_000 + n),
      title,
      vin: null,
      current_bid_usd: bid,
      auction_at: NOW + inHours * HOUR,
    }),
    ...over,
  });
}

const watches = [
  lot(1, 'A 2019 HONDA CIVIC', 3_000, 30),
  lot(2, 'B 2020 FORD ESCAPE', 1_000, 2),
  lot(3, 'C 2018 KIA SOUL', 2_000, 50),
];

/** The table row of the watch titled `title`. */
function rowOf(title: string): HTMLElement {
  const row = screen.getByRole('button', { name: title }).closest('tr');
  if (!row) throw new Error(`no row for ${title}`);
  return row;
}

/** The vehicle titles of the table's data rows, top to bottom. */
function titles(): string[] {
  const table = screen.getByRole('table', { name: 'Watched vehicles' });
  return [...table.querySelectorAll('tbody tr[aria-rowindex] .wl-title')].map((e) => e.textContent ?? '');
}

describe('WatchlistView: the table', () => {
  it('sorts by bid from its column header, both ways', async () => {
    installFake({ handlers: { 'watchlist.list': () => okResult(watches) } });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    expect(titles()).toEqual(['A 2019 HONDA CIVIC', 'B 2020 FORD ESCAPE', 'C 2018 KIA SOUL']);
    fireEvent.click(screen.getByRole('button', { name: 'Bid' }));
    const asc = titles();
    fireEvent.click(screen.getByRole('button', { name: /^Bid/ }));
    const desc = titles();
    // One direction is low to high, the other high to low (react-table starts numbers descending).
    expect([asc, desc]).toEqual(
      expect.arrayContaining([
        ['B 2020 FORD ESCAPE', 'C 2018 KIA SOUL', 'A 2019 HONDA CIVIC'],
        ['A 2019 HONDA CIVIC', 'C 2018 KIA SOUL', 'B 2020 FORD ESCAPE'],
      ]),
    );
    expect(screen.getByRole('columnheader', { name: /Bid/ }).getAttribute('aria-sort')).toMatch(
      /ascending|descending/,
    );
  });

  it('groups by sale day on demand, a heading per day with its count', async () => {
    const sameDay = lot(4, 'D 2017 MAZDA 3', 500, 3);
    installFake({ handlers: { 'watchlist.list': () => okResult([...watches, sameDay]) } });
    render(<WatchlistView />);
    const table = await screen.findByRole('table', { name: 'Watched vehicles' });
    expect(table.querySelectorAll('tr.lw-group-row')).toHaveLength(0);
    const toggle = screen.getByRole('button', { name: 'Group by sale day' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const headings = [...table.querySelectorAll('tr.lw-group-row')].map((r) => r.textContent);
    expect(headings).toHaveLength(3);
    expect(headings[0]).toMatch(/· 2 watches$/);
    expect(headings[1]).toMatch(/· 1 watch$/);
    // Rows follow their day: the two sales of today first, then tomorrow's, then the day after's.
    expect(titles()).toEqual([
      'B 2020 FORD ESCAPE',
      'D 2017 MAZDA 3',
      'A 2019 HONDA CIVIC',
      'C 2018 KIA SOUL',
    ]);
    fireEvent.click(toggle);
    expect(table.querySelectorAll('tr.lw-group-row')).toHaveLength(0);
  });

  it('opens the row menu from the keyboard, moves with the arrows and closes with Escape back on its button', async () => {
    const fake = installFake({
      handlers: {
        'watchlist.list': () => okResult(watches),
        'watchlist.checkNow': () =>
          okResult({ status: 'ok', requests: 1, changes: 0, alerts: 0, error: null }),
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    const button = screen.getByRole('button', { name: 'Actions for B 2020 FORD ESCAPE' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const menu = screen.getByRole('menu', { name: 'Actions for B 2020 FORD ESCAPE' });
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Check now',
      'Rules',
      'Pause checks',
      'Open lot',
      'Remove…',
    ]);
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement).toBe(items[4]);
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBeNull();

    // Picking "Check now" checks that watch.
    fireEvent.click(button);
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Check now' }));
    await screen.findByText('Checked B 2020 FORD ESCAPE: 0 changes.');
    expect(inputsOf(fake, 'watchlist.checkNow')).toEqual([{ id: 2 }]);
  });

  it("pauses one watch from its menu, and the paused row's menu offers to resume it", async () => {
    let list = watches;
    const fake = installFake({
      handlers: {
        'watchlist.list': () => okResult(list),
        'watchlist.bulk': (i) => {
          const input = i as { action: string; ids: number[] };
          list = list.map((w) => (input.ids.includes(w.id) ? { ...w, paused: input.action === 'pause' } : w));
          return okResult({ changed: 1, skipped: 0 });
        },
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    const button = screen.getByRole('button', { name: 'Actions for A 2019 HONDA CIVIC' });
    fireEvent.click(button);
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Pause checks' }));
    await screen.findByText('Paused 1 watch.');
    expect(inputsOf(fake, 'watchlist.bulk')).toEqual([{ action: 'pause', ids: [1] }]);
    await waitFor(() => expect(within(rowOf('A 2019 HONDA CIVIC')).getByText('Paused')).toBeTruthy());
    fireEvent.click(button);
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Resume checks' }));
    await screen.findByText('Resumed 1 watch.');
  });

  it('keeps an open row menu open while the list refreshes after a check', async () => {
    let loads = 0;
    const fake = installFake({
      handlers: {
        'watchlist.list': () => {
          loads++;
          return okResult(watches.map((w) => ({ ...w, last_checked_at: NOW - loads * 1000 })));
        },
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    const button = screen.getByRole('button', { name: 'Actions for C 2018 KIA SOUL' });
    fireEvent.click(button);
    const first = within(screen.getByRole('menu')).getAllByRole('menuitem')[0];
    expect(document.activeElement).toBe(first);
    act(() =>
      fake.emit({
        name: 'poll.finished',
        payload: { target: 'watch:1', at: NOW, status: 'ok', requests: 1, changes: 0, alerts: 0 },
      }),
    );
    await waitFor(() => expect(loads).toBe(2));
    expect(screen.getByRole('button', { name: 'Actions for C 2018 KIA SOUL' })).toBe(button);
    expect(screen.getByRole('menu')).toBeTruthy();
    expect(document.activeElement).toBe(first);
  });

  it('removes one watch from its menu only after the question is answered', async () => {
    const fake = installFake({
      handlers: {
        'watchlist.list': () => okResult(watches),
        'watchlist.remove': () => okResult({ ok: true }),
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    const button = screen.getByRole('button', { name: 'Actions for C 2018 KIA SOUL' });
    fireEvent.click(button);
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Remove…' }));
    const ask = screen.getByRole('group', { name: 'Stop watching C 2018 KIA SOUL?' });
    fireEvent.keyDown(within(ask).getByRole('button', { name: 'Remove' }), { key: 'Escape' });
    expect(screen.queryByRole('group', { name: /Stop watching/ })).toBeNull();
    expect(inputsOf(fake, 'watchlist.remove')).toEqual([]);

    fireEvent.click(button);
    fireEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Remove…' }));
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Stop watching C 2018 KIA SOUL?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    await waitFor(() => expect(inputsOf(fake, 'watchlist.remove')).toEqual([{ id: 3 }]));
  });

  it('pauses, tags and removes the selected watches in one call each', async () => {
    let list = watches;
    const fake = installFake({
      handlers: {
        'watchlist.list': () => okResult(list),
        'watchlist.bulk': (i) => {
          const input = i as { action: string; ids: number[] };
          if (input.action === 'pause')
            list = list.map((w) => (input.ids.includes(w.id) ? { ...w, paused: true } : w));
          if (input.action === 'remove') list = list.filter((w) => !input.ids.includes(w.id));
          return okResult({ changed: input.ids.length, skipped: 0 });
        },
      },
    });
    render(<WatchlistView />);
    await screen.findByRole('table', { name: 'Watched vehicles' });
    expect(screen.queryByRole('group', { name: 'Selected watches' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select A 2019 HONDA CIVIC' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select C 2018 KIA SOUL' }));
    const all = screen.getByRole('checkbox', { name: 'Select every watch' }) as HTMLInputElement;
    expect(all.indeterminate).toBe(true);
    const bar = screen.getByRole('group', { name: 'Selected watches' });
    expect(bar.textContent).toContain('2 selected');

    fireEvent.click(within(bar).getByRole('button', { name: 'Pause' }));
    await screen.findByText('Paused 2 watches.');
    expect(inputsOf(fake, 'watchlist.bulk')[0]).toEqual({ action: 'pause', ids: [1, 3] });
    await waitFor(() =>
      expect(
        screen.getByRole('table', { name: 'Watched vehicles' }).querySelectorAll('.wl-row-paused'),
      ).toHaveLength(2),
    );

    fireEvent.click(within(bar).getByRole('button', { name: 'Tag…' }));
    fireEvent.change(within(bar).getByRole('textbox', { name: 'Tags (comma-separated)' }), {
      target: { value: 'export, Export , auction day' },
    });
    fireEvent.click(within(bar).getByRole('button', { name: 'Add tags' }));
    await screen.findByText('Tagged 2 watches.');
    expect(inputsOf(fake, 'watchlist.bulk')[1]).toEqual({
      action: 'tag',
      ids: [1, 3],
      tags: ['export', 'auction day'],
    });

    fireEvent.click(within(bar).getByRole('button', { name: 'Remove…' }));
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Stop watching 2 watches?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    await screen.findByText('Removed 2 watches.');
    expect(inputsOf(fake, 'watchlist.bulk')[2]).toEqual({ action: 'remove', ids: [1, 3] });
    await waitFor(() => expect(titles()).toEqual(['B 2020 FORD ESCAPE']));
    expect(screen.queryByRole('group', { name: 'Selected watches' })).toBeNull();
  });

  it('says why a landed cost or a max bid is unknown instead of a number', async () => {
    const vinOnly = watch({
      id: 9,
      kind: 'vin',
      lot_key: null,
      lot: null,
      desk: null,
      vin: '1HGCM82633A004352',
    });
    installFake({ handlers: { 'watchlist.list': () => okResult([vinOnly]) } });
    render(<WatchlistView />);
    const table = await screen.findByRole('table', { name: 'Watched vehicles' });
    expect(within(table).getByTitle(/Unknown: the lot has not been fetched yet/).textContent).toBe('–');
    expect(within(table).getByTitle(/No max bid/).textContent).toBe('–');
    // The VIN shows whole.
    expect(within(table).getByText('1HGCM82633A004352')).toBeTruthy();
  });
});

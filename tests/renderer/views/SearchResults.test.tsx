// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render, testStore } from './fakeApi';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchView } from '../../../src/renderer/src/features/search/SearchView';
import type { MethodOutput } from '../../../src/shared/ipc/contract';
import type { Result } from '../../../src/shared/ipc/errors';
import { errResult, okResult } from '../fakeBridge';
import { HOUR, NOW, vehicleRow } from './fixtures';

frozenAtNow('#/search');
afterEach(() => {
  vi.restoreAllMocks();
  document.head.querySelectorAll('style[data-test]').forEach((s) => s.remove());
});

type Page = MethodOutput<'vehicles.search'>;

/**
 * search.css as written. Vitest hands a test every CSS import empty (even `?raw`), and the renderer's types know
 * no Node, so the file is read through a dynamic import of node:fs.
 */
async function searchCss(): Promise<string> {
  const fs = (await import(/* @vite-ignore */ `node:${'fs'}`)) as {
    readFileSync: (path: string, enc: 'utf8') => string;
  };
  return fs.readFileSync('src/renderer/src/features/search/search.css', 'utf8');
}

/** A page of `n` lots, numbered from 50000001. */
function page(n: number): Page {
  return {
    lots: Array.from({ length: n }, (_, i) =>
      vehicleRow({
        lot_key: `copart:${50_000_001 + i}`,
        lot_number: String(50_000_001 + i),
        title: `2020 TOYOTA CAMRY ${i + 1}`,
      }),
    ),
    meta: { per_page: 20, next_cursor: 'c2', prev_cursor: null },
    warnings: [],
  };
}

/** A fake core whose searches answer, in turn, with the given results. */
function answering(...answers: Result<Page>[]) {
  let i = 0;
  return installFake({
    handlers: {
      'vehicles.filters': () => errResult('network', 'Offline.', { retryable: true }),
      'vehicles.search': () => answers[Math.min(i++, answers.length - 1)] ?? okResult(page(0)),
    },
  });
}

const results = () => screen.getByRole('region', { name: 'Results' });

async function searchAndWait(fake: ReturnType<typeof answering>, count: number) {
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(count));
  await waitFor(() => expect(results().getAttribute('aria-busy')).toBe('false'));
}

/**
 * Searches once with `rows` as the answer and returns the results table. jsdom lays nothing out, so the table's
 * scroller is given a height for its virtualized rows to render.
 */
async function showRows(rows: Page['lots']): Promise<HTMLElement> {
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this.classList.contains('rt-scroll') ? 600 : 0;
  });
  const fake = answering(okResult({ lots: rows, meta: null, warnings: [] }));
  render(<SearchView store={testStore()} />);
  await searchAndWait(fake, 1);
  return within(results()).getByRole('table', { name: 'Search results' });
}

const serverError = errResult('server', 'The auction data service had a problem (HTTP 502).', {
  retryable: true,
});

describe('Search: a new search replaces the previous one, results and message', () => {
  it('a failing search (502) shows its error alone: the earlier lots and "Page 1 · 20 lots" are gone', async () => {
    const fake = answering(okResult(page(20)), serverError);
    render(<SearchView store={testStore()} />);
    await searchAndWait(fake, 1);
    expect(within(results()).getByText('Page 1 · 20 lots')).toBeTruthy();
    expect(within(results()).getByRole('table', { name: 'Search results' })).toBeTruthy();

    await searchAndWait(fake, 2);
    const notice = within(results()).getByRole('alert');
    expect(notice.textContent).toContain('HTTP 502');
    expect(within(results()).queryByText(/Page 1/)).toBeNull();
    expect(within(results()).queryByRole('table')).toBeNull();
    expect(within(results()).queryByText(/2020 TOYOTA CAMRY/)).toBeNull();
  });

  it('a search the service refuses (validation) shows the refusal alone, without the earlier lots', async () => {
    const fake = answering(
      okResult(page(20)),
      errResult('validation', 'The service refused some filters.', {
        fields: { 'params.year_from': ['Year from: enter a year such as 2018.'] },
      }),
    );
    render(<SearchView store={testStore()} />);
    await searchAndWait(fake, 1);
    expect(within(results()).getByText('Page 1 · 20 lots')).toBeTruthy();

    await searchAndWait(fake, 2);
    expect(within(results()).getByRole('alert')).toBeTruthy();
    expect(within(results()).queryByText(/Page 1/)).toBeNull();
    expect(within(results()).queryByRole('table')).toBeNull();
    expect(screen.getByRole('spinbutton', { name: 'Year from' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('a new search clears the old error at once, then shows only its own lots', async () => {
    let answer: (r: Result<Page>) => void = () => undefined;
    let calls = 0;
    const fake = installFake({
      handlers: {
        'vehicles.filters': () => errResult('network', 'Offline.', { retryable: true }),
        'vehicles.search': () =>
          ++calls === 1 ? serverError : new Promise<Result<Page>>((resolve) => (answer = resolve)),
      },
    });
    render(<SearchView store={testStore()} />);
    await searchAndWait(fake, 1);
    expect(within(results()).getByRole('alert')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(2));
    // While the new search runs, the old error no longer stands.
    expect(await within(results()).findByText('Searching…')).toBeTruthy();
    expect(within(results()).queryByRole('alert')).toBeNull();

    answer(okResult(page(3)));
    expect(await within(results()).findByText('Page 1 · 3 lots')).toBeTruthy();
    expect(within(results()).queryByRole('alert')).toBeNull();
  });

  it('a failing next page does not leave the page before it under the error', async () => {
    const fake = answering(okResult(page(20)), serverError);
    render(<SearchView store={testStore()} />);
    await searchAndWait(fake, 1);
    fireEvent.click(screen.getByRole('button', { name: 'Next →' }));
    await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(2));
    expect(await within(results()).findByRole('alert')).toBeTruthy();
    expect(within(results()).queryByText(/Page \d/)).toBeNull();
    expect(within(results()).queryByRole('table')).toBeNull();
  });
});

describe('Search results: the current bid', () => {
  it('a lot nobody has bid on reads "No bids yet", never "$0"', async () => {
    const rows = [
      vehicleRow({
        lot_key: 'copart:50000001',
        lot_number: '50000001',
        title: 'NO BID ZERO',
        current_bid_usd: 0,
        auction_at: NOW + 2 * HOUR,
      }),
      vehicleRow({
        lot_key: 'copart:50000002',
        lot_number: '50000002',
        title: 'NO BID NULL',
        current_bid_usd: null,
        auction_at: NOW + 2 * HOUR,
      }),
      vehicleRow({
        lot_key: 'copart:50000003',
        lot_number: '50000003',
        title: 'WITH BID',
        current_bid_usd: 4250,
        auction_at: NOW + 2 * HOUR,
      }),
    ];
    const table = await showRows(rows);
    const bid = (title: string) =>
      within(table).getByText(title).closest('tr')?.querySelector('.rt-c-bid')?.textContent;
    expect(bid('NO BID ZERO')).toBe('No bids yet');
    expect(bid('NO BID NULL')).toBe('No bids yet');
    expect(bid('WITH BID')).toBe('$4,250');
    expect(table.textContent).not.toContain('$0');
  });
});

describe('Search results: the sale time', () => {
  it('an open lot past its sale time reads "Sale under way", then "Sale time passed", never "Open · 7 minutes ago"', async () => {
    const rows = [
      vehicleRow({
        lot_key: 'copart:50000001',
        lot_number: '50000001',
        title: 'ON THE BLOCK',
        auction_at: NOW - 7 * 60_000,
      }),
      vehicleRow({
        lot_key: 'copart:50000003',
        lot_number: '50000003',
        title: 'PAST OPEN',
        auction_at: NOW - 45 * 60_000,
      }),
      vehicleRow({
        lot_key: 'copart:50000002',
        lot_number: '50000002',
        title: 'STILL AHEAD',
        auction_at: NOW + 2 * HOUR,
      }),
    ];
    const table = await showRows(rows);
    const sale = (title: string) =>
      within(table).getByText(title).closest('tr')?.querySelector('.rt-sale time')?.textContent;
    expect(sale('ON THE BLOCK')).toBe('Sale under way');
    expect(sale('PAST OPEN')).toBe('Sale time passed');
    expect(sale('STILL AHEAD')).toBe('in 2 hours');
    expect(table.textContent).not.toContain('ago');
  });
});

describe('Search results: keyboard', () => {
  it('Alt+R jumps from the search form to the first result, and the page says so', async () => {
    const table = await showRows(page(3).lots);
    await within(table).findByText('2020 TOYOTA CAMRY 1');
    screen.getByRole('button', { name: 'Search' }).focus();
    fireEvent.keyDown(document.activeElement!, { key: 'r', code: 'KeyR', altKey: true });
    // The first row itself (the page's own text holds the title too, so a text match alone would pass on the page).
    expect(document.activeElement?.matches('tr.rt-row')).toBe(true);
    expect(table.contains(document.activeElement)).toBe(true);
    expect(document.activeElement?.textContent).toContain('2020 TOYOTA CAMRY 1');
    expect(results().textContent).toContain('Alt+R to the results');
  });
});

describe('Search results: whole words', () => {
  it('wraps a long title and damage instead of cutting them with "…"; the VIN and lot number stay whole', async () => {
    const style = document.createElement('style');
    style.dataset['test'] = '';
    style.textContent = await searchCss();
    document.head.append(style);
    const title = '2021 MERCEDES-BENZ GLE-CLASS GLE 350 4MATIC SPORT UTILITY 4D WITH A VERY LONG TRIM NAME';
    const row = vehicleRow({
      lot_key: 'copart:50000001',
      lot_number: '50000001',
      title,
      vin: '4JGFB4KB1MA123456',
      damage: 'FRONT END AND UNDERCARRIAGE, MECHANICAL',
      auction_at: NOW + 2 * HOUR,
    });
    const table = await showRows([row]);
    const cell = (await within(table).findByText(title)).closest('td')!;
    for (const el of [
      cell,
      cell.querySelector('.rt-title')!,
      cell.querySelector('.rt-damage')!,
      cell.querySelector('.rt-sub')!,
    ]) {
      const cs = getComputedStyle(el);
      expect(cs.textOverflow).not.toBe('ellipsis');
      expect(cs.whiteSpace).not.toBe('nowrap');
      expect(cs.overflow).not.toBe('hidden');
    }
    expect(getComputedStyle(cell.querySelector('.rt-vin')!).whiteSpace).toBe('nowrap');
    const lot = within(table).getByText('50000001').closest('td')!;
    expect(getComputedStyle(lot).textOverflow).not.toBe('ellipsis');
  });
});

describe('Search results: records the parser could only partly read', () => {
  it("say so in one plain line, never with the parser's record paths", async () => {
    const fake = answering(
      okResult({
        lots: [vehicleRow({ title: 'PARTLY READ' })],
        meta: null,
        warnings: ['data.0.media.photos: expected an array', 'data.0.odometer: not a number'],
      }),
    );
    render(<SearchView store={testStore()} />);
    await searchAndWait(fake, 1);
    expect(
      screen.getByText(/Some details of these lots came in a form Lotwatch could not read/),
    ).toBeTruthy();
    expect(document.body.textContent).not.toContain('data.0');
  });
});

describe('Search filters: damage checkboxes', () => {
  it('are normal square checkboxes whose labels wrap, never a shrunken dot or a label cut with "…"', async () => {
    const style = document.createElement('style');
    style.dataset['test'] = 'search.css';
    style.textContent = await searchCss();
    document.head.append(style);
    installFake({
      handlers: {
        'vehicles.filters': () =>
          okResult({
            data: {
              damages: [
                { value: 'Minor Dent/Scratches', count: 12 },
                { value: 'Mechanical', count: 30 },
                { value: 'Repossession', count: 4 },
              ],
            },
            fetched_at: NOW,
            cached: false,
          }),
      },
    });
    render(<SearchView store={testStore()} />);
    const group = screen.getByRole('group', { name: 'Damage' });
    const minor = await within(group).findByRole('checkbox', { name: /Minor Dent\/Scratches/ });
    for (const box of within(group).getAllByRole('checkbox')) {
      const cs = getComputedStyle(box);
      // Not the text-field look (rounded corners, padding) that made it a tiny circle; it never shrinks.
      expect(cs.borderRadius).not.toBe('6px');
      expect(cs.paddingLeft).not.toBe('7px');
      expect(cs.flexShrink).toBe('0');
      expect(cs.width).toBe('16px');
      expect(cs.height).toBe('16px');
      const label = box.closest('label')?.querySelector('span');
      if (!label) throw new Error('no label');
      const ls = getComputedStyle(label);
      expect(ls.textOverflow).not.toBe('ellipsis');
      expect(ls.whiteSpace).not.toBe('nowrap');
    }
    expect(minor.closest('label')?.textContent).toContain('Minor Dent/Scratches');
  });
});

describe('Search: the last search is kept while another view or a lot is open', () => {
  it('going back shows the same filters, page and lots with no request, and says how old the page is', async () => {
    const store = testStore();
    const fake = answering(okResult(page(20)), okResult(page(20)));
    const first = render(<SearchView store={store} />);
    const text = () =>
      screen.getByRole('searchbox', { name: 'Lot number, VIN or title' }) as HTMLInputElement;
    fireEvent.change(text(), { target: { value: 'CAMRY' } });
    await searchAndWait(fake, 1);
    fireEvent.click(within(results()).getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(within(results()).getByText('Page 2 · 20 lots')).toBeTruthy());
    // The buyer changes a filter without searching again, then opens a lot: the view closes.
    fireEvent.change(text(), { target: { value: 'CAMRY SE' } });
    first.unmount();

    // Back five minutes later: the same page and lots, the form as left, nothing sent.
    vi.setSystemTime(NOW + 5 * 60_000);
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
      return this.classList.contains('rt-scroll') ? 600 : 0;
    });
    render(<SearchView store={store} />);
    expect(within(results()).getByText('Page 2 · 20 lots · read 5 minutes ago')).toBeTruthy();
    expect(within(results()).getAllByText(/^2020 TOYOTA CAMRY \d+$/).length).toBeGreaterThan(5);
    expect(text().value).toBe('CAMRY SE');
    expect(inputsOf(fake, 'vehicles.search')).toHaveLength(2);
  });

  it('a saved search opened since starts the form from its filters, not from the kept search', async () => {
    const store = testStore();
    const fake = answering(okResult(page(20)));
    const first = render(<SearchView store={store} />);
    await searchAndWait(fake, 1);
    first.unmount();
    store.getState().openSearchDraft({ id: 4, name: 'Hondas', params: { s: 'CIVIC' } });
    render(<SearchView store={store} />);
    expect(within(results()).getByText('Set filters and press Search')).toBeTruthy();
    expect(
      (screen.getByRole('searchbox', { name: 'Lot number, VIN or title' }) as HTMLInputElement).value,
    ).toBe('CIVIC');
  });
});

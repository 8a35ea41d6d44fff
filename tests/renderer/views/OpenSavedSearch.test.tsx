// @vitest-environment jsdom
import { forwardingBridge, frozenAtNow, inputsOf, installFake, render, testStore } from './fakeApi';
import { fireEvent, render as renderBare, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MethodInput, SavedSearchView } from '../../../src/shared/ipc/contract';
import { App } from '../../../src/renderer/src/app/App';
import { SearchView } from '../../../src/renderer/src/features/search/SearchView';
import { SEARCH_PARAM_NAMES } from '../../../src/shared/vehicleParams';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { realFiltersData } from '../../shared/fixtures/realFilters';
import { errResult, okResult } from '../fakeBridge';
import { NOW, savedSearch } from './fixtures';

frozenAtNow();

/** A saved search with filters in every kind of field: text, range, single choice, multi choice, flag. */
const hondas = savedSearch({
  id: 12,
  name: 'Hondas for export',
  params: {
    make: 'HONDA',
    model: 'CIVIC',
    year_from: 2016,
    odometer_to: 80000,
    platform: 'iaai',
    damage: ['Hail', 'Water'],
    run_cond: 'STATIONARY',
    today_only: true,
  },
  schedule: '*/20 * * * *',
  max_pages: 3,
  rules: AlertRulesSchema.parse({ max_price_usd: 9000 }),
});

/** A fake core: the saved searches `list()` answers, offline filter metadata, every search an empty page. */
function fakeCore(list: () => SavedSearchView[], over: Parameters<typeof installFake>[0] = {}) {
  return installFake({
    ...over,
    handlers: {
      'searches.list': () => okResult(list()),
      'vehicles.filters': () => errResult('network', 'Offline.', { retryable: true }),
      'vehicles.search': () => okResult({ lots: [], meta: null, warnings: [] }),
      'searches.update': (i) => okResult({ ...hondas, ...i, rules: AlertRulesSchema.parse(i?.rules ?? {}) }),
      ...over.handlers,
    },
  });
}

const textbox = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const spin = (name: string) => screen.getByRole('spinbutton', { name }) as HTMLInputElement;
const combo = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const check = (group: string, name: string) =>
  within(screen.getByRole('group', { name: group })).getByRole('checkbox', { name }) as HTMLInputElement;

/** Opens the Search view on `search` through the store, as the Saved searches view does. */
function openInSearch(search: SavedSearchView) {
  const store = testStore();
  store.getState().openSearchDraft(search);
  render(<SearchView store={store} />);
  return store;
}

describe('a saved search opened in the Search form', () => {
  it('"Open in Search" shows the Search view with the saved filters, and runs nothing', async () => {
    const fake = fakeCore(() => [hondas]);
    window.location.hash = '#/saved';
    const store = testStore();
    renderBare(<App store={store} api={forwardingBridge()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open Hondas for export in Search' }));

    expect(await screen.findByRole('form', { name: 'Search filters' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Search');
    expect(window.location.hash).toBe('#/search');
    expect(
      within(screen.getByRole('region', { name: 'Editing a saved search' })).getByText('Hondas for export'),
    ).toBeTruthy();
    // The metadata could not load, so make and model are text fields; the rest as saved.
    await screen.findByText(/lists of filter choices could not be loaded/);
    expect(textbox('Make').value).toBe('HONDA');
    expect(textbox('Model').value).toBe('CIVIC');
    expect(spin('Year from').value).toBe('2016');
    expect(spin('Year to').value).toBe('');
    expect(spin('Odometer (mi) to').value).toBe('80000');
    expect(combo('Platform').value).toBe('iaai');
    expect(check('Damage', 'Hail').checked).toBe(true);
    expect(check('Damage', 'Water').checked).toBe(true);
    expect(check('Damage', 'Fire').checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'Only auctions today' }) as HTMLInputElement).checked).toBe(
      true,
    );
    fireEvent.click(screen.getByText('More filters'));
    expect(combo('Run condition').value).toBe('STATIONARY');

    // Opening spends no request of the quota: no search was asked for.
    expect(inputsOf(fake, 'vehicles.search')).toEqual([]);
    expect(store.getState().searchDraft).toMatchObject({ id: 12, name: 'Hondas for export' });
  });

  it('Save changes sends the edited filters to searches.update, with the search as it is now otherwise', async () => {
    // Since it was opened, the search was paused from Saved searches: saving the filters must not resume it.
    const now = { ...hondas, paused: true };
    const fake = fakeCore(() => [now]);
    const store = openInSearch(hondas);
    await screen.findByText(/lists of filter choices could not be loaded/);
    fireEvent.change(spin('Year from'), { target: { value: '2018' } });
    fireEvent.change(spin('Price (USD) to'), { target: { value: '7500' } });
    fireEvent.click(check('Damage', 'Water'));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Saved the filters of “Hondas for export”.')).toBeTruthy();
    const sent: (MethodInput<'searches.update'> | undefined)[] = inputsOf(fake, 'searches.update');
    expect(sent).toEqual([
      {
        id: 12,
        name: 'Hondas for export',
        params: {
          make: 'HONDA',
          model: 'CIVIC',
          platform: 'iaai',
          run_cond: 'STATIONARY',
          year_from: 2018,
          price_max: 7500,
          odometer_to: 80000,
          damage: ['Hail'],
          today_only: true,
        },
        // The form's damage holds nothing Lotwatch filters itself: the saved refinement is none.
        refine: {},
        schedule: '*/20 * * * *',
        max_pages: 3,
        paused: true,
        rules: hondas.rules,
      },
    ]);
    expect(store.getState().searchDraft?.params).toMatchObject({ year_from: 2018, price_max: 7500 });
    expect(inputsOf(fake, 'vehicles.search')).toEqual([]);
  });

  it('Save as new… creates another search from the edited filters and leaves the opened one alone', async () => {
    const fake = fakeCore(() => [hondas], {
      handlers: {
        'searches.create': (i) =>
          okResult(savedSearch({ id: 13, name: i?.name ?? '', params: i?.params ?? {} })),
      },
    });
    openInSearch(hondas);
    await screen.findByText(/lists of filter choices could not be loaded/);
    fireEvent.change(textbox('Model'), { target: { value: 'ACCORD' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save as new…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this search' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Accords' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save search' }));
    expect(await screen.findByRole('dialog', { name: 'Search saved' })).toBeTruthy();
    expect(inputsOf(fake, 'searches.create')[0]).toMatchObject({
      name: 'Accords',
      params: { make: 'HONDA', model: 'ACCORD', year_from: 2016 },
    });
    expect(inputsOf(fake, 'searches.update')).toEqual([]);
    expect(inputsOf(fake, 'vehicles.search')).toEqual([]);
  });

  it('a refused filter is highlighted on its field and nothing is saved', async () => {
    const fake = fakeCore(() => [hondas], {
      handlers: {
        'searches.update': () =>
          errResult('bad_input', 'params.year_from: Must be a year from 1900.', {
            fields: { 'params.year_from': ['Must be a year from 1900.'] },
          }),
      },
    });
    const store = openInSearch(hondas);
    await screen.findByText(/lists of filter choices could not be loaded/);
    fireEvent.change(spin('Year from'), { target: { value: '1850' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Not saved: correct the highlighted filters.')).toBeTruthy();
    expect(spin('Year from').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Must be a year from 1900.')).toBeTruthy();
    expect(inputsOf(fake, 'searches.update')).toHaveLength(1);
    expect(store.getState().searchDraft?.params).toEqual(hondas.params);
  });

  it('a search deleted meanwhile is not re-created by Save changes', async () => {
    const fake = fakeCore(() => []);
    openInSearch(hondas);
    await screen.findByText(/lists of filter choices could not be loaded/);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/“Hondas for export” is no longer a saved search/)).toBeTruthy();
    expect(inputsOf(fake, 'searches.update')).toEqual([]);
  });

  it('Search runs the edited filters only when pressed; Stop editing returns to plain saving', async () => {
    const fake = fakeCore(() => [hondas]);
    const store = openInSearch(hondas);
    await screen.findByText(/lists of filter choices could not be loaded/);
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(1));
    expect(inputsOf(fake, 'vehicles.search')[0]?.params).toMatchObject({
      make: 'HONDA',
      damage: ['Hail', 'Water'],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Stop editing' }));
    expect(store.getState().searchDraft).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Save this search…' })).toBeTruthy();
    // The filters stay in the form.
    expect(textbox('Make').value).toBe('HONDA');
  });
});

describe('the rendered search form', () => {
  it('has one field for each parameter of SEARCH_PARAMS but cursor, per_page and auction_type', async () => {
    fakeCore(() => [], {
      handlers: {
        'vehicles.filters': () => okResult({ data: realFiltersData(), fetched_at: NOW, cached: false }),
      },
    });
    render(<SearchView store={testStore()} />);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Make' })).toBeTruthy());
    const form = screen.getByRole('form', { name: 'Search filters' });
    const names = new Set([...form.querySelectorAll('[name]')].map((el) => el.getAttribute('name')));
    expect([...names].sort()).toEqual(
      SEARCH_PARAM_NAMES.filter((n) => !['cursor', 'per_page', 'auction_type'].includes(n)).sort(),
    );
  });

  it('shows saved values the service does not list (or no metadata), ticked, so none is sent unseen', async () => {
    const fake = fakeCore(() => []);
    openInSearch(savedSearch({ params: { color: ['ORANGE'], cylinders: [6], damage: ['Hail'] } }));
    await screen.findByText(/lists of filter choices could not be loaded/);
    fireEvent.click(screen.getByText('More filters'));
    expect(check('Color', 'ORANGE').checked).toBe(true);
    expect(check('Cylinders', '6').checked).toBe(true);
    fireEvent.click(check('Color', 'ORANGE'));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(1));
    expect(inputsOf(fake, 'vehicles.search')[0]?.params).toEqual({ cylinders: [6], damage: ['Hail'] });
  });

  it('a saved single choice the service does not list stays selected (seller_type dealer)', async () => {
    const fake = fakeCore(() => [], {
      handlers: {
        'vehicles.filters': () => okResult({ data: realFiltersData(), fetched_at: NOW, cached: false }),
      },
    });
    openInSearch(savedSearch({ params: { make: 'AUDI', seller_type: 'dealer' } }));
    await waitFor(() => expect(combo('Make').value).toBe('AUDI'));
    fireEvent.click(screen.getByText('More filters'));
    expect(combo('Seller').value).toBe('dealer');
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(1));
    expect(inputsOf(fake, 'vehicles.search')[0]?.params).toEqual({ make: 'AUDI', seller_type: 'dealer' });
  });
});

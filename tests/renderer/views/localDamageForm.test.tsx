// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render, testStore } from './fakeApi';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SearchView } from '../../../src/renderer/src/features/search/SearchView';
import type { MethodInput } from '../../../src/shared/ipc/contract';
import { LOCAL_FILTER_NOTE } from '../../../src/shared/localRefinements';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { realFiltersData } from '../../shared/fixtures/realFilters';
import { okResult } from '../fakeBridge';
import { NOW, savedSearch } from './fixtures';

frozenAtNow('#/search');

/** A fake core with the real filters body, an empty search page and a search that saves as asked. */
function fakeCore() {
  return installFake({
    handlers: {
      'vehicles.filters': () => okResult({ data: realFiltersData(), fetched_at: NOW, cached: false }),
      'vehicles.search': () => okResult({ lots: [], meta: null, warnings: [], refined_out: 3 }),
      'searches.create': (i: MethodInput<'searches.create'> | undefined) =>
        okResult(
          savedSearch({
            id: 7,
            name: i?.name ?? '',
            params: i?.params ?? {},
            refine: i?.refine ?? {},
            rules: AlertRulesSchema.parse({}),
          }),
        ),
    },
  });
}

const damageBox = (name: string) =>
  within(screen.getByRole('group', { name: 'Damage' })).getByRole('checkbox', { name }) as HTMLInputElement;

/** Waits for the metadata's damage list (its "Vandalism" is one the service lists but cannot search). */
const loaded = () => waitFor(() => expect(damageBox('Vandalism')).toBeTruthy());

describe('Search form · damage the service cannot search', () => {
  it('marks the local choices with one line saying why, and what it costs in pages', async () => {
    fakeCore();
    render(<SearchView store={testStore()} />);
    await loaded();
    const note = screen.getByText(/^Filtered by Lotwatch: the service cannot search this damage\./);
    expect(note.textContent).toContain('reads more pages');
    expect(damageBox('Front end').getAttribute('aria-describedby')).toBe(note.id);
    expect(damageBox('Front end').title).toBe(LOCAL_FILTER_NOTE);
    expect(damageBox('Hail').getAttribute('aria-describedby')).toBeNull();
  });

  it('"Front end" is never sent: the search goes without damage and Lotwatch keeps the lots that have it', async () => {
    const fake = fakeCore();
    render(<SearchView store={testStore()} />);
    await loaded();
    fireEvent.click(damageBox('Front end'));
    fireEvent.click(damageBox('Hail'));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(1));
    const sent = inputsOf(fake, 'vehicles.search')[0]!;
    expect(sent.params).toEqual({});
    expect(sent.refine).toEqual({ damage: ['Hail', 'Front end'] });
    expect(await screen.findByText(/3 lots of this page left out by Lotwatch's own/)).toBeTruthy();
  });

  it('specification damage alone is sent as damage, with no refinement', async () => {
    const fake = fakeCore();
    render(<SearchView store={testStore()} />);
    await loaded();
    fireEvent.click(damageBox('Hail'));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(1));
    expect(inputsOf(fake, 'vehicles.search')[0]).toEqual({ params: { damage: ['Hail'] } });
  });

  it('saving keeps "Front end" as the saved search refinement and says the pages it costs', async () => {
    const fake = fakeCore();
    render(<SearchView store={testStore()} />);
    await loaded();
    fireEvent.click(damageBox('Front end'));
    fireEvent.click(screen.getByRole('button', { name: 'Save this search…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this search' });
    expect(
      within(dialog).getByText(/“Front end” is filtered by Lotwatch, not by the service/).textContent,
    ).toContain('a run needs more pages to find the same number of matches');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save search' }));
    expect(await screen.findByRole('dialog', { name: 'Search saved' })).toBeTruthy();
    const input = inputsOf(fake, 'searches.create')[0]!;
    expect(input.params).toEqual({});
    expect(input.refine).toEqual({ damage: ['Front end'] });
  });
});

describe('Saved search opened in Search · its local damage', () => {
  it('shows the refinement ticked among the damage choices, and Save changes keeps it as the refinement', async () => {
    const search = savedSearch({
      id: 12,
      name: 'Front-end Kias',
      params: { make: 'KIA' },
      refine: { damage: ['Front end'] },
      rules: AlertRulesSchema.parse({}),
    });
    const fake = installFake({
      handlers: {
        'vehicles.filters': () => okResult({ data: realFiltersData(), fetched_at: NOW, cached: false }),
        'searches.list': () => okResult([search]),
        'searches.update': (i: MethodInput<'searches.update'> | undefined) =>
          okResult({ ...search, params: i?.params ?? {}, refine: i?.refine ?? {} }),
      },
    });
    const store = testStore();
    store.getState().openSearchDraft(search);
    render(<SearchView store={store} />);
    await loaded();
    expect(damageBox('Front end').checked).toBe(true);
    fireEvent.click(damageBox('Rear end'));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(inputsOf(fake, 'searches.update')).toHaveLength(1));
    const sent = inputsOf(fake, 'searches.update')[0]!;
    expect(sent.params).toEqual({ make: 'KIA' });
    expect(sent.refine).toEqual({ damage: ['Front end', 'Rear end'] });
  });
});

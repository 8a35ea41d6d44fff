// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render, testStore } from './fakeApi';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildQuery, checkSearchParams } from '../../../src/core/api/validate';
import { SearchView } from '../../../src/renderer/src/features/search/SearchView';
import { LOCAL_DAMAGE_KINDS, LOCAL_FILTER_NOTE } from '../../../src/shared/localRefinements';
import { SEARCH_ENUMS } from '../../../src/shared/vehicleParams';
import { realFiltersData } from '../../shared/fixtures/realFilters';
import { errResult, okResult } from '../fakeBridge';
import { NOW } from './fixtures';

frozenAtNow('#/search');

/** A fake core answering vehicles.filters with `data` (or an error) and every search with an empty page. */
function withFilters(data: Record<string, unknown> | 'offline') {
  return installFake({
    handlers: {
      'vehicles.filters': () =>
        data === 'offline'
          ? errResult('network', 'Offline.', { retryable: true })
          : okResult({ data, fetched_at: NOW, cached: false }),
      'vehicles.search': () => okResult({ lots: [], meta: null, warnings: [] }),
    },
  });
}

/** Submits the form and returns the parameters core was asked to search with. */
async function search(fake: ReturnType<typeof withFilters>): Promise<Record<string, unknown>> {
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(1));
  return inputsOf(fake, 'vehicles.search')[0]?.params ?? {};
}

/** Waits until the metadata is in the form: the Make field has become a list. */
const metaLoaded = () => waitFor(() => expect(screen.getByRole('combobox', { name: 'Make' })).toBeTruthy());
const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const optionValues = (el: HTMLSelectElement) => [...el.options].map((o) => o.value);
const checkbox = (group: string, name: string | RegExp) =>
  within(screen.getByRole('group', { name: group })).getByRole('checkbox', { name }) as HTMLInputElement;

describe('Search filters fed the real /vehicles/filters body', () => {
  it('sends the type, make and model by name: type=AUTOMOBILE&make=AUDI&model=S5, never an id', async () => {
    const fake = withFilters(realFiltersData());
    render(<SearchView store={testStore()} />);
    await waitFor(() => expect(optionValues(select('Make'))).toEqual(['', 'AUDI', 'BMW', 'TOYOTA']));
    fireEvent.click(screen.getByText('More filters'));
    expect(optionValues(select('Vehicle type'))).toEqual(['', 'AUTOMOBILE', 'MOTORCYCLE', 'TRUCK']);
    fireEvent.change(select('Vehicle type'), { target: { value: 'AUTOMOBILE' } });
    fireEvent.change(select('Make'), { target: { value: 'AUDI' } });
    // The model list is the make's own.
    await waitFor(() => expect(optionValues(select('Model'))).toEqual(['', 'A4', 'Q5', 'S5']));
    fireEvent.change(select('Model'), { target: { value: 'S5' } });

    const params = await search(fake);
    expect(params).toEqual({ type: 'AUTOMOBILE', make: 'AUDI', model: 'S5' });
    expect(buildQuery(checkSearchParams(params))).toBe('?type=AUTOMOBILE&make=AUDI&model=S5');
  });

  it('a model of another make is cleared when the make changes', async () => {
    const fake = withFilters(realFiltersData());
    render(<SearchView store={testStore()} />);
    await waitFor(() => expect(optionValues(select('Make'))).toContain('AUDI'));
    fireEvent.change(select('Make'), { target: { value: 'AUDI' } });
    await waitFor(() => expect(optionValues(select('Model'))).toContain('S5'));
    fireEvent.change(select('Model'), { target: { value: 'S5' } });
    fireEvent.change(select('Make'), { target: { value: 'BMW' } });
    await waitFor(() => expect(optionValues(select('Model'))).toEqual(['', 'M3', 'X5']));
    expect(select('Model').value).toBe('');
    expect(await search(fake)).toEqual({ make: 'BMW' });
  });

  it('sends only values the specification allows; other damage is offered as filtered by Lotwatch, others disabled', async () => {
    withFilters(realFiltersData());
    render(<SearchView store={testStore()} />);
    await metaLoaded();
    const damage = within(screen.getByRole('group', { name: 'Damage' })).getAllByRole(
      'checkbox',
    ) as HTMLInputElement[];
    const sendable = damage.filter((c) => c.title !== LOCAL_FILTER_NOTE);
    expect(sendable.map((c) => c.value)).toEqual(['Mechanical', 'Hail', 'Water', 'Fire', 'Theft']);
    for (const c of sendable) expect(SEARCH_ENUMS.damage).toContain(c.value);
    // What the service lists but cannot search, then the records' primary damage words: kept by Lotwatch itself.
    expect(damage.filter((c) => c.title === LOCAL_FILTER_NOTE).map((c) => c.value)).toEqual([
      'Vandalism',
      'Biohazard',
      'Burn',
      ...LOCAL_DAMAGE_KINDS,
    ]);
    expect(damage.every((c) => !c.disabled)).toBe(true);

    fireEvent.click(screen.getByText('More filters'));
    const drive = within(screen.getByRole('group', { name: 'Drive' })).getAllByRole(
      'checkbox',
    ) as HTMLInputElement[];
    expect(drive.map((c) => [c.value, c.disabled])).toEqual([
      ['AWD', false],
      ['FWD', false],
      ['RWD', false],
      ['4x4 w/Front Whl Drv', true],
    ]);
    const run = select('Run condition');
    expect([...run.options].map((o) => [o.value, o.textContent, o.disabled])).toEqual([
      ['', 'Any', false],
      ['RUNS AND DRIVES', 'Run & Drive', false],
      ['ENGINE START PROGRAM', 'Engine Start Program', false],
      ['STATIONARY', 'Stationary', false],
      ['NO INFORMATION', 'No information', false],
    ]);
    expect([...select('Seller').options].filter((o) => o.disabled).map((o) => o.value)).toEqual(['unknown']);
    const cylinders = within(screen.getByRole('group', { name: 'Cylinders' })).getAllByRole(
      'checkbox',
    ) as HTMLInputElement[];
    expect(cylinders.map((c) => c.value)).toEqual(['1', '2', '3', '4', '5', '6', '8', '10', '12']);
  });

  it('every enabled choice, all picked at once, passes the validator and is sent in the spec spelling', async () => {
    const fake = withFilters(realFiltersData());
    render(<SearchView store={testStore()} />);
    await metaLoaded();
    fireEvent.click(screen.getByText('More filters'));
    for (const group of ['Damage', 'Color', 'Fuel', 'Transmission', 'Drive', 'Cylinders']) {
      for (const c of within(screen.getByRole('group', { name: group })).getAllByRole(
        'checkbox',
      ) as HTMLInputElement[]) {
        // A damage Lotwatch filters itself is never sent (its own test: localDamageForm.test.tsx).
        if (c.title !== LOCAL_FILTER_NOTE) fireEvent.click(c);
      }
    }
    fireEvent.change(select('Run condition'), { target: { value: 'RUNS AND DRIVES' } });
    fireEvent.change(select('Seller'), { target: { value: 'non_insurance' } });
    fireEvent.change(select('Keys'), { target: { value: 'With' } });
    fireEvent.change(select('Sale type'), { target: { value: 'Buy Now' } });
    fireEvent.change(select('State'), { target: { value: 'TX' } });
    fireEvent.change(select('Sale document'), { target: { value: 'CLEAR' } });

    const params = await search(fake);
    // The order of a multi parameter's values does not matter to the service.
    for (const v of Object.values(params))
      if (Array.isArray(v)) v.sort((a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0));
    expect(params).toEqual({
      lot_status: 'Buy Now',
      run_cond: 'RUNS AND DRIVES',
      has_key: 'With',
      loc_state: 'TX',
      sale_document_type: 'CLEAR',
      seller_type: 'non_insurance',
      color: ['BLACK', 'BLUE', 'GRAY', 'RED', 'SILVER', 'WHITE'],
      fuel_type: ['Diesel', 'Electric', 'Gasoline', 'Hybrid'],
      transmission: ['Automatic', 'Manual'],
      cylinders: [1, 2, 3, 4, 5, 6, 8, 10, 12],
      drive_type: ['AWD', 'FWD', 'RWD'],
      damage: ['Fire', 'Hail', 'Mechanical', 'Theft', 'Water'],
    });
    expect(() => checkSearchParams(params)).not.toThrow();
  });

  it('shows the listed ranges as placeholders and a hint the inputs are described by', async () => {
    withFilters(realFiltersData());
    render(<SearchView store={testStore()} />);
    const yearFrom = screen.getByRole('spinbutton', { name: 'Year from' }) as HTMLInputElement;
    await waitFor(() => expect(yearFrom.placeholder).toBe('from 1998'));
    expect((screen.getByRole('spinbutton', { name: 'Year to' }) as HTMLInputElement).placeholder).toBe(
      'to 2026',
    );
    const hint = screen.getByText('Listed: 1998–2026');
    expect(yearFrom.getAttribute('aria-describedby')).toBe(hint.id);
    expect(screen.getByText('Listed: 0–180,000')).toBeTruthy();
    expect(screen.getByText('Listed: 0.6–8.4')).toBeTruthy();
  });
});

describe('Search filters without metadata, and with the specification-style body', () => {
  it('offline: the spec lists are offered, make and model are typed', async () => {
    const fake = withFilters('offline');
    render(<SearchView store={testStore()} />);
    expect(await screen.findByText(/lists of filter choices could not be loaded/)).toBeTruthy();
    const damage = within(screen.getByRole('group', { name: 'Damage' })).getAllByRole(
      'checkbox',
    ) as HTMLInputElement[];
    expect(damage.map((c) => c.value)).toEqual([...SEARCH_ENUMS.damage, ...LOCAL_DAMAGE_KINDS]);
    expect(damage.every((c) => !c.disabled)).toBe(true);
    fireEvent.click(screen.getByText('More filters'));
    expect(optionValues(select('Run condition')).slice(1)).toEqual([...SEARCH_ENUMS.run_cond]);
    expect(screen.queryByRole('group', { name: 'Cylinders' })).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: 'Make' }), { target: { value: 'AUDI' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Model' }), { target: { value: 'S5' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Vehicle type' }), {
      target: { value: 'AUTOMOBILE' },
    });
    fireEvent.click(checkbox('Damage', 'Hail'));
    expect(await search(fake)).toEqual({ type: 'AUTOMOBILE', make: 'AUDI', model: 'S5', damage: ['Hail'] });
  });

  it('the specification-style body still fills makes, models, types and counts', async () => {
    const fake = withFilters({
      makes: [
        { value: 'HONDA', count: 12 },
        { value: 'TOYOTA', count: 30 },
      ],
      models: {
        TOYOTA: [
          { value: 'CAMRY', count: 10 },
          { value: 'COROLLA', count: 20 },
        ],
      },
      types: [{ value: 'AUTOMOBILE', count: 40 }],
      damages: [{ value: 'Hail', count: 1234 }],
      cylinders: [{ value: '4', count: 30 }],
      year: { min: 2004, max: 2025 },
    });
    render(<SearchView store={testStore()} />);
    await waitFor(() => expect(optionValues(select('Make'))).toEqual(['', 'HONDA', 'TOYOTA']));
    fireEvent.change(select('Make'), { target: { value: 'TOYOTA' } });
    await waitFor(() => expect(optionValues(select('Model'))).toEqual(['', 'CAMRY', 'COROLLA']));
    fireEvent.change(select('Model'), { target: { value: 'COROLLA' } });
    expect(within(screen.getByRole('group', { name: 'Damage' })).getByText('1,234')).toBeTruthy();
    // A single checkbox still gives a list.
    fireEvent.click(checkbox('Damage', /^Hail/));
    fireEvent.click(screen.getByText('More filters'));
    fireEvent.click(checkbox('Cylinders', '4'));
    expect(screen.getByText('Listed: 2004–2025')).toBeTruthy();
    expect(await search(fake)).toEqual({
      make: 'TOYOTA',
      model: 'COROLLA',
      damage: ['Hail'],
      cylinders: [4],
    });
  });
});

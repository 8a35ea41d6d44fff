// @vitest-environment jsdom
import { inputsOf, installFake, render } from './fakeApi';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LibraryView, repairFilterOf } from '../../../src/renderer/src/features/library/LibraryView';
import { okResult } from '../fakeBridge';
import { lotSummary } from './fixtures';

afterEach(cleanup);

// The Library's filters on the record's estimates: they run in the store (library.search), so they count every
// stored lot; the list shows each lot's repair to value, or that it is unknown.
describe('LibraryView · repair to value and ACV filters', () => {
  it('sends the filters to library.search and shows each lot’s repair to value', async () => {
    const fake = installFake({
      handlers: {
        'library.search': () =>
          okResult({
            lots: [
              lotSummary({ lot_key: 'iaai:70000001', title: 'CHEAP REPAIR', repair_to_value: 0.25 }),
              lotSummary({ lot_key: 'copart:50314744', title: 'NO FIGURES', repair_to_value: null }),
            ],
            total: 2,
          }),
      },
    });
    render(<LibraryView />);
    expect(await screen.findByText('25%')).toBeTruthy();
    expect(screen.getByText('unknown')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Repair cost at most this % of ACV' }), {
      target: { value: '40' },
    });
    await waitFor(() =>
      expect(inputsOf(fake, 'library.search').at(-1)).toMatchObject({ repair_to_value_max_percent: 40 }),
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Has ACV' }));
    await waitFor(() =>
      expect(inputsOf(fake, 'library.search').at(-1)).toMatchObject({
        repair_to_value_max_percent: 40,
        has_acv: true,
      }),
    );
    expect(
      await screen.findByText(
        /2 lots in the library with repair at most 40% of ACV and an ACV \(unknown figures left out\)/,
      ),
    ).toBeTruthy();
  });

  it('says a percentage it cannot use, and searches without it', async () => {
    const fake = installFake({ handlers: { 'library.search': () => okResult({ lots: [], total: 0 }) } });
    render(<LibraryView />);
    const box = await screen.findByRole('textbox', { name: 'Repair cost at most this % of ACV' });
    fireEvent.change(box, { target: { value: 'lots' } });
    expect(await screen.findByText('Enter a whole percentage from 1 to 1,000.')).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(inputsOf(fake, 'library.search').every((i) => i?.repair_to_value_max_percent === undefined)).toBe(
      true,
    );
  });

  it('reads the box as a whole percent', () => {
    expect(repairFilterOf('')).toBeNull();
    expect(repairFilterOf(' 40 % ')).toBe(40);
    expect(repairFilterOf('0')).toBeNaN();
    expect(repairFilterOf('12.5')).toBeNaN();
    expect(repairFilterOf('1001')).toBeNaN();
  });
});

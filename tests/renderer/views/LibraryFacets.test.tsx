// @vitest-environment jsdom
import { inputsOf, installFake, render } from './fakeApi';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { facetValueText } from '../../../src/renderer/src/features/library/FacetPanel';
import { LibraryView } from '../../../src/renderer/src/features/library/LibraryView';
import { LIBRARY_FACETS, type FacetCounts } from '../../../src/shared/libraryFacets';
import { okResult } from '../fakeBridge';
import { lotSummary } from './fixtures';

afterEach(cleanup);

/** The store's counts: damage and keys carry values, every other facet none. */
const COUNTS: FacetCounts = LIBRARY_FACETS.map((facet) => ({
  facet,
  values:
    facet === 'damage'
      ? [
          { value: 'Hail', count: 12 },
          { value: 'Front end', count: 7 },
        ]
      : facet === 'keys'
        ? [{ value: 'yes', count: 15 }]
        : [],
}));

describe('LibraryView · Refine', () => {
  it('lists each facet’s values with their counts, asks for counts and sends the ticked values', async () => {
    const fake = installFake({
      handlers: {
        'library.search': () => okResult({ lots: [lotSummary()], total: 19, facets: COUNTS }),
      },
    });
    render(<LibraryView />);
    const damage = await screen.findByRole('group', { name: 'Primary damage' });
    expect(within(damage).getByRole('checkbox', { name: /Hail/ })).toBeTruthy();
    expect(damage.textContent).toContain('12');
    expect(screen.getByRole('group', { name: 'Keys' }).textContent).toContain('Keys present');
    // A facet whose records say nothing is not shown.
    expect(screen.queryByRole('group', { name: 'Seller type' })).toBeNull();
    expect(inputsOf(fake, 'library.search')[0]).toMatchObject({ with_facets: true });
    fireEvent.click(within(damage).getByRole('checkbox', { name: /Hail/ }));
    await waitFor(() =>
      expect(inputsOf(fake, 'library.search').at(-1)).toMatchObject({ facets: { damage: ['Hail'] } }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(inputsOf(fake, 'library.search').at(-1)?.facets).toBeUndefined());
  });

  it('says yes/no facets, seller types and sale months in words', () => {
    expect(facetValueText('keys', 'no')).toBe('No keys');
    expect(facetValueText('export', 'yes')).toBe('Exportable');
    expect(facetValueText('seller_type', 'non_insurance')).toBe('Non-insurance');
    expect(facetValueText('sale_month', '2026-08')).toBe('Aug 2026');
    expect(facetValueText('damage', 'Hail')).toBe('Hail');
  });
});

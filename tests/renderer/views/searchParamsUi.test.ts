import { describe, expect, it } from 'vitest';
import { MORE_FIELDS } from '../../../src/renderer/src/features/search/FilterPanel';
import {
  ALL_FIELDS,
  FLAG_FIELDS,
  MULTI_FIELDS,
  NUMBER_FIELDS,
} from '../../../src/renderer/src/features/search/params';
import { paramHint } from '../../../src/renderer/src/features/console/ConsoleView';
import { paramsSummary } from '../../../src/renderer/src/features/saved/SavedSearchesView';
import { SEARCH_PARAM_NAMES, searchParam } from '../../../src/shared/vehicleParams';

describe('the renderer says the GET /vehicles parameters through SEARCH_PARAMS', () => {
  it('the search form has a field for every parameter but cursor, per_page and auction_type', () => {
    expect([...ALL_FIELDS].sort()).toEqual(
      SEARCH_PARAM_NAMES.filter((n) => !['cursor', 'per_page', 'auction_type'].includes(n)).sort(),
    );
    expect(MULTI_FIELDS).toEqual(['color', 'fuel_type', 'transmission', 'cylinders', 'drive_type', 'damage']);
    expect(FLAG_FIELDS).toEqual(['today_only', 'sale_document_pending', 'has_shipping_price']);
    expect(NUMBER_FIELDS).toContain('radius');
    for (const n of MORE_FIELDS) expect(ALL_FIELDS).toContain(n);
  });

  it('a saved search is described in phrases, "All open lots" without filters', () => {
    expect(
      paramsSummary({ make: 'TESLA', model: 'MODEL 3', year_from: 2019, year_to: 2022, odometer_to: 80000 }),
    ).toBe('TESLA MODEL 3 · 2019–2022 · odometer under 80,000 mi');
    expect(paramsSummary({})).toBe('All open lots');
    expect(paramsSummary({ make: '', color: [] })).toBe('All open lots');
  });

  it('the console hints show allowed values, the type and the default', () => {
    const hint = (n: string) => {
      const d = searchParam(n);
      if (!d) throw new Error(n);
      return paramHint(d);
    };
    expect(hint('lot_status')).toBe('All | Timed | Buy Now; default All');
    expect(hint('per_page')).toBe('integer 1–20; default 20');
    expect(hint('auction_date_from')).toBe('YYYY-MM-DD');
    expect(hint('today_only')).toBe('true | false; default false');
    expect(hint('make')).toBe('');
  });
});

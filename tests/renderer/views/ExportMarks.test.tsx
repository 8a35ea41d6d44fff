// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render, testStore } from './fakeApi';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AlertsView } from '../../../src/renderer/src/features/alerts/AlertsView';
import { LibraryView } from '../../../src/renderer/src/features/library/LibraryView';
import { PlanView } from '../../../src/renderer/src/features/plan/PlanView';
import { SaveSearchDialog } from '../../../src/renderer/src/features/search/SaveSearchDialog';
import { SearchView } from '../../../src/renderer/src/features/search/SearchView';
import { WatchlistView } from '../../../src/renderer/src/features/watchlist/WatchlistView';
import { draftToRules, rulesToDraft } from '../../../src/renderer/src/components/watch/RulesFields';
import { exportBlock, type ExportBlock } from '../../../src/shared/exportBlock';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { errResult, okResult } from '../fakeBridge';
import { alert, HOUR, lotSummary, NOW, savedSearch, vehicleRow, watch } from './fixtures';

// The export mark wherever a lot appears. The blocks are what core sends: exportBlock of title documents shaped as
// the real service's `sale_document` (and as the sandbox sends them): a relisted Durango's certificate of
// destruction (never exportable), a salvage Camry the service marks not exportable, and a clean Civic.

frozenAtNow('#/search');
afterEach(() => vi.restoreAllMocks());

const COD = exportBlock({ name: 'CERTIFICATE OF DESTRUCTION', export: false, brand: null })!;
const NOT_EXPORTABLE = exportBlock({
  name: 'SALVAGE - REPAIRABLE-COLLISION',
  export: false,
  brand: 'REPAIRABLE',
})!;
const CLEAN = exportBlock({ name: 'CLEAR', export: true, brand: null });

const LOTS = [
  { key: 'copart:50314744', number: '50314744', title: '2014 DODGE DURANGO SXT', block: COD },
  { key: 'iaai:41200017', number: '41200017', title: '2018 TOYOTA CAMRY LE', block: NOT_EXPORTABLE },
  { key: 'copart:50400001', number: '50400001', title: '2019 HONDA CIVIC EX', block: CLEAN },
] as const;

const summaries = () =>
  LOTS.map((l, i) =>
    lotSummary({
      lot_key: l.key,
      platform: l.key.split(':')[0],
      lot_number: l.number,
      vin: `1C4RDJAG5EC97300${i}`,
      title: l.title,
      export_block: l.block,
    }),
  );

/** The mark inside `el`: its words and its tooltip, or null when there is none. */
function markIn(el: HTMLElement): { words: string; why: string } | null {
  const m = el.querySelector<HTMLElement>('.lw-export-mark');
  if (!m) return null;
  const why = m.getAttribute('title') ?? '';
  return {
    words: (m.textContent ?? '')
      .replace(why, '')
      .replace(/[⚠.\s]+$/u, '')
      .replace(/^⚠\s*/u, ''),
    why,
  };
}

const expected = (b: ExportBlock) => ({ words: b.label, why: b.text });

describe('the export mark: words and why, never colour alone', () => {
  it('search results mark the certificate of destruction and the not-exportable lot, not the clean one', async () => {
    // jsdom lays nothing out: give the table's scroller a height so the virtualized rows render.
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
      return this.classList.contains('rt-scroll') ? 600 : 0;
    });
    const fake = installFake({
      handlers: {
        'vehicles.filters': () => errResult('network', 'Offline.', { retryable: true }),
        'vehicles.search': () =>
          okResult({
            lots: summaries().map((s) => vehicleRow(s)),
            meta: { per_page: 20, next_cursor: null, prev_cursor: null },
            warnings: [],
          }),
      },
    });
    render(<SearchView store={testStore()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(1));
    const table = await screen.findByRole('table', { name: 'Search results' });
    const row = (title: string) => within(table).getByText(title).closest('tr')!;
    expect(markIn(row('2014 DODGE DURANGO SXT'))).toEqual(expected(COD));
    expect(COD.text).toContain('Certificate of destruction');
    expect(COD.text).toContain('The service also marks it not exportable.');
    expect(markIn(row('2018 TOYOTA CAMRY LE'))).toEqual(expected(NOT_EXPORTABLE));
    expect(markIn(row('2019 HONDA CIVIC EX'))).toBeNull();
  });

  it('the watchlist and the plan mark the watched lots the same way', async () => {
    const watches = summaries().map((lot, i) =>
      watch({ id: i + 1, lot_key: lot.lot_key, vin: lot.vin, lot: { ...lot, auction_at: NOW + 3 * HOUR } }),
    );
    installFake({ handlers: { 'watchlist.list': () => okResult(watches) } });
    const { unmount } = render(<WatchlistView />);
    const row = async (title: string) => (await screen.findByRole('button', { name: title })).closest('tr')!;
    expect(markIn(await row('2014 DODGE DURANGO SXT'))).toEqual(expected(COD));
    expect(markIn(await row('2018 TOYOTA CAMRY LE'))).toEqual(expected(NOT_EXPORTABLE));
    expect(markIn(await row('2019 HONDA CIVIC EX'))).toBeNull();
    unmount();

    render(<PlanView />);
    const planRow = async (title: string) =>
      (await screen.findByRole('link', { name: title })).closest('tr')!;
    expect(markIn(await planRow('2014 DODGE DURANGO SXT'))).toEqual(expected(COD));
    expect(markIn(await planRow('2018 TOYOTA CAMRY LE'))).toEqual(expected(NOT_EXPORTABLE));
    expect(markIn(await planRow('2019 HONDA CIVIC EX'))).toBeNull();
  });

  it('the alerts inbox marks each blocked lot, beside the alert text that says it', async () => {
    const alerts = LOTS.map((l, i) =>
      alert({
        id: i + 1,
        lot_key: l.key,
        title: `${l.title} · new match`,
        body: `Bid $1,200${l.block ? ` · Export blocked: ${l.block.label}` : ''} · ${l.key.replace(':', ' lot ')} · Saved search “Exports”`,
        kind: 'new_match',
        lot_export_block: l.block,
      }),
    );
    installFake({
      handlers: {
        'alerts.list': () => okResult({ alerts, unread: alerts.length }),
        'lots.get': () => errResult('not_found', 'Not stored.'),
      },
    });
    render(<AlertsView />);
    const group = async (title: string) =>
      (await screen.findByText(`${title} · new match`)).closest('section') as HTMLElement;
    const durango = await group('2014 DODGE DURANGO SXT');
    expect(markIn(durango.querySelector('header')!)).toEqual(expected(COD));
    expect(durango.textContent).toContain('Export blocked: Certificate of destruction');
    expect(markIn((await group('2018 TOYOTA CAMRY LE')).querySelector('header')!)).toEqual(
      expected(NOT_EXPORTABLE),
    );
    expect(markIn((await group('2019 HONDA CIVIC EX')).querySelector('header')!)).toBeNull();
  });

  it('the library marks them and filters on them: exportable, export blocked, any title', async () => {
    installFake({ handlers: { 'library.search': () => okResult({ lots: summaries(), total: 3 }) } });
    render(<LibraryView />);
    const table = await screen.findByRole('table', { name: 'Library lots' });
    const row = (title: string) => within(table).getByRole('button', { name: title }).closest('tr')!;
    expect(markIn(row('2014 DODGE DURANGO SXT'))).toEqual(expected(COD));
    expect(markIn(row('2019 HONDA CIVIC EX'))).toBeNull();
    const titles = () =>
      [...screen.getByRole('table', { name: 'Library lots' }).querySelectorAll('button.lw-link')].map(
        (b) => b.textContent,
      );
    const filter = screen.getByRole('combobox', { name: 'Title' });
    fireEvent.change(filter, { target: { value: 'blocked' } });
    await waitFor(() => expect(titles()).toEqual(['2014 DODGE DURANGO SXT', '2018 TOYOTA CAMRY LE']));
    fireEvent.change(filter, { target: { value: 'exportable' } });
    await waitFor(() => expect(titles()).toEqual(['2019 HONDA CIVIC EX']));
    expect(screen.getByText(/1 after filters/)).toBeTruthy();
    fireEvent.change(filter, { target: { value: '' } });
    await waitFor(() => expect(titles()).toHaveLength(3));
  });
});

describe('"exportable title" in the rules forms', () => {
  it('the rules form keeps and sends it', () => {
    const rules = AlertRulesSchema.parse({ exportable_only: true });
    const draft = rulesToDraft(rules);
    expect(draft.exportable_only).toBe(true);
    expect(draftToRules({ ...draft, exportable_only: false }, rules)['exportable_only']).toBe(false);
  });

  it('saving a search can ask for exportable titles only', async () => {
    const fake = installFake({ handlers: { 'searches.create': () => okResult(savedSearch()) } });
    render(<SaveSearchDialog params={{ make: 'DODGE' }} onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('checkbox', { name: /Exportable title only/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save search' }));
    await waitFor(() => expect(inputsOf(fake, 'searches.create')).toHaveLength(1));
    expect(inputsOf(fake, 'searches.create')[0]).toMatchObject({ rules: { exportable_only: true } });
  });
});

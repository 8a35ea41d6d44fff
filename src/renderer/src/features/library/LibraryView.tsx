import {
  createColumnHelper,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { LotSummary } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { useApi } from '../../api/ApiContext';
import { openLot } from '../../app/navigation';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ExportMark } from '../../components/ExportMark';
import { EmptyState, Progress } from '../../components/watch/common';
import { LwTable, type LwColumnMeta } from '../../components/watch/LwTable';
import { auctionStatus, bidText, dateTime, platformName, relative, usd } from '../../lib/format';
import { ratioPercent } from '../../../../shared/estimates';
import { hasFacetPick, type FacetCounts, type FacetSelection } from '../../../../shared/libraryFacets';
import { FacetPanel } from './FacetPanel';
import { useCaller } from '../../lib/useCall';
import './library.css';
import { appNow } from '../../lib/clock';

const PAGE = 500;

/** Saves text as a file through a Blob and a temporary download link. */
export function downloadText(text: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The Library's title filter: every lot, the lots whose title blocks nothing, or the blocked ones (exportBlock). */
type TitleFilter = '' | 'exportable' | 'blocked';

/** Whether a lot passes the title filter: `exportable` = no block known, `blocked` = its title blocks export. */
export function passesTitleFilter(l: LotSummary, f: TitleFilter): boolean {
  return f === '' || (f === 'blocked') === (l.export_block !== null);
}

/** A lot's status for filtering and display: its sale result once the auction is over, else its auction state. */
function statusOf(l: LotSummary): string {
  return auctionStatus(l).label;
}

const col = createColumnHelper<LotSummary>();

/** The repair-to-value filter's text as a whole percent 1 to 1,000, null when empty; NaN when it is not one. */
export function repairFilterOf(text: string): number | null {
  const t = text.trim().replace(/%$/, '').trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : Number.NaN;
}

/** What the search box understands beyond plain words (core's ftsQuery), said beside it. */
export const LIBRARY_SEARCH_HINT =
  '-word to leave out · OR for either · "model 3" in quotes for words together';

/**
 * The library: full-text search over every lot Lotwatch has fetched, read from the local database, so it
 * works with the network off. Filter and sort the loaded rows, select some, export them as CSV.
 */
export function LibraryView() {
  const api = useApi();
  const call = useCaller();
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const [lots, setLots] = useState<LotSummary[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [platform, setPlatform] = useState('');
  const [status, setStatus] = useState('');
  const [hasSale, setHasSale] = useState(false);
  const [titleFilter, setTitleFilter] = useState<TitleFilter>('');
  const [repairText, setRepairText] = useState('');
  const [hasAcv, setHasAcv] = useState(false);
  // Facet picks and counts run in the store over every stored lot of the search, like the figures' filters.
  const [picks, setPicks] = useState<FacetSelection>({});
  const [facetCounts, setFacetCounts] = useState<FacetCounts | null>(null);
  const picksOn = hasFacetPick(picks);
  const repairMax = repairFilterOf(repairText);
  const repairInvalid = repairMax !== null && Number.isNaN(repairMax);
  // The figures' filters run in the store (library.search), so they count every stored lot, not the loaded page;
  // the percentage settles for a moment, as the search box's text does, before the store is asked.
  const typedRepair = repairMax === null || repairInvalid ? null : repairMax;
  const [repairFilter, setRepairFilter] = useState<number | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setRepairFilter(typedRepair), 250);
    return () => clearTimeout(t);
  }, [typedRepair]);
  const [sorting, setSorting] = useState<SortingState>([{ id: 'last_seen', desc: true }]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const anchor = useRef<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportNote, setExportNote] = useState<string | null>(null);
  const seq = useRef(0);

  // Typing settles for a moment before the search runs.
  useEffect(() => {
    const t = setTimeout(() => setQuery(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);

  const load = useCallback(
    async (term: string, offset: number) => {
      const my = ++seq.current;
      setLoading(true);
      const r = await api.invoke('library.search', {
        q: term,
        limit: PAGE,
        offset,
        ...(repairFilter !== null ? { repair_to_value_max_percent: repairFilter } : {}),
        ...(hasAcv ? { has_acv: true } : {}),
        ...(picksOn ? { facets: picks } : {}),
        ...(offset === 0 ? { with_facets: true } : {}),
      });
      if (my !== seq.current) return;
      setLoading(false);
      if (r.ok) {
        setError(null);
        setTotal(r.value.total);
        if (r.value.facets) setFacetCounts(r.value.facets);
        setLots((prev) => (offset === 0 ? r.value.lots : [...prev, ...r.value.lots]));
      } else setError(r.error);
    },
    [api, repairFilter, hasAcv, picks, picksOn],
  );
  useEffect(() => {
    // The search is the effect's job: it syncs the list with the query.
    void load(query, 0);
    setSelected(new Set());
  }, [load, query]);

  const statuses = useMemo(() => [...new Set(lots.map(statusOf))].sort(), [lots]);
  const platforms = useMemo(() => [...new Set(lots.map((l) => l.platform))].sort(), [lots]);
  const filtered = useMemo(
    () =>
      lots.filter(
        (l) =>
          (!platform || l.platform === platform) &&
          (!status || statusOf(l) === status) &&
          (!hasSale || l.sale_price_usd !== null) &&
          passesTitleFilter(l, titleFilter),
      ),
    [lots, platform, status, hasSale, titleFilter],
  );

  const table = useReactTable({
    data: filtered,
    columns: useMemo(
      () => [
        col.display({
          id: 'select',
          size: 36,
          header: () => <SelectAllBox />,
          cell: ({ row }) => (
            <input
              type="checkbox"
              aria-label={`Select ${row.original.title ?? row.original.lot_key}`}
              checked={selected.has(row.original.lot_key)}
              onClick={(e) => toggle(row.original.lot_key, e)}
              onChange={() => undefined}
            />
          ),
        }),
        col.accessor((l) => l.title ?? '', {
          id: 'vehicle',
          header: 'Vehicle',
          meta: { className: 'wrap' } satisfies LwColumnMeta,
          cell: ({ row: { original: l } }) => (
            <div className="lib-vehicle">
              <button type="button" className="lw-link" onClick={() => openLot(l.lot_key)}>
                {l.title ?? l.lot_key}
              </button>
              <div className="lw-sub">{l.vin ? `VIN ${l.vin}` : 'No VIN'}</div>
              <ExportMark block={l.export_block} />
              {(l.notes || l.tags.length > 0) && (
                <div className="lw-sub lib-notes" title={l.notes}>
                  {l.tags.map((t) => (
                    <span key={t} className="lw-badge tag">
                      {t}
                    </span>
                  ))}
                  {l.notes && <span className="lib-note-text">{l.notes}</span>}
                </div>
              )}
            </div>
          ),
        }),
        col.accessor((l) => `${l.platform}:${l.lot_number}`, {
          id: 'lot',
          header: 'Lot',
          meta: { className: 'nowrap' } satisfies LwColumnMeta,
          cell: ({ row: { original: l } }) => (
            <>
              {platformName(l.platform)} <span className="lw-sub">#{l.lot_number}</span>
            </>
          ),
        }),
        col.accessor((l) => l.location ?? '', {
          id: 'location',
          header: 'Location',
          meta: { className: 'wrap' } satisfies LwColumnMeta,
          cell: (c) => c.getValue() || '–',
        }),
        col.accessor((l) => l.current_bid_usd ?? -1, {
          id: 'bid',
          header: 'Bid',
          meta: { className: 'num' } satisfies LwColumnMeta,
          cell: ({ row: { original: l } }) => bidText(l.current_bid_usd, l.outcome !== 'open'),
        }),
        col.accessor((l) => l.buy_now_usd ?? -1, {
          id: 'buy_now',
          header: 'Buy now',
          meta: { className: 'num' } satisfies LwColumnMeta,
          cell: ({ row: { original: l } }) => usd(l.buy_now_usd),
        }),
        col.accessor((l) => l.sale_price_usd ?? -1, {
          id: 'sale',
          header: 'Sold for',
          meta: { className: 'num' } satisfies LwColumnMeta,
          cell: ({ row: { original: l } }) => usd(l.sale_price_usd),
        }),
        col.accessor((l) => l.repair_to_value ?? -1, {
          id: 'repair_to_value',
          header: 'Repair ÷ ACV',
          meta: { className: 'num' } satisfies LwColumnMeta,
          cell: ({ row: { original: l } }) =>
            l.repair_to_value != null ? (
              ratioPercent(l.repair_to_value)
            ) : (
              <span className="muted" title="The record has no ACV or no estimated repair cost">
                unknown
              </span>
            ),
        }),
        col.accessor(statusOf, {
          id: 'status',
          header: 'Status',
          cell: ({ row: { original: l } }) => (
            <>
              <span className="lib-status">{statusOf(l)}</span>
              {auctionStatus(l).saleType && <span className="lw-sub"> · {auctionStatus(l).saleType}</span>}
            </>
          ),
        }),
        col.accessor((l) => l.auction_at ?? 0, {
          id: 'auction',
          header: 'Auction',
          meta: { className: 'nowrap' } satisfies LwColumnMeta,
          cell: ({ row: { original: l } }) => dateTime(l.auction_at),
        }),
        col.accessor((l) => l.last_observed_at, {
          id: 'last_seen',
          header: 'Fetched',
          meta: { className: 'nowrap' } satisfies LwColumnMeta,
          cell: ({ row: { original: l } }) => (
            <span title={dateTime(l.last_observed_at)}>{relative(l.last_observed_at, appNow())}</span>
          ),
        }),
      ],
      // The cells read the current selection.
      // eslint-disable-next-line react-hooks/exhaustive-deps
      [selected, filtered],
    ),
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (l) => l.lot_key,
  });
  const rows = table.getRowModel().rows;

  /** Toggles one row; with Shift, sets every row between the last clicked one and this one. */
  function toggle(key: string, e: MouseEvent) {
    const keys = rows.map((r) => r.original.lot_key);
    const next = new Set(selected);
    const on = !selected.has(key);
    const from = anchor.current ? keys.indexOf(anchor.current) : -1;
    const to = keys.indexOf(key);
    if (e.shiftKey && from >= 0 && to >= 0) {
      const [a, b] = from < to ? [from, to] : [to, from];
      for (const k of keys.slice(a, b + 1)) {
        if (on) next.add(k);
        else next.delete(k);
      }
    } else if (on) next.add(key);
    else next.delete(key);
    anchor.current = key;
    setSelected(next);
  }

  const shownKeys = filtered.map((l) => l.lot_key);
  const allShownSelected = shownKeys.length > 0 && shownKeys.every((k) => selected.has(k));
  const someShownSelected = shownKeys.some((k) => selected.has(k));
  function SelectAllBox() {
    return (
      <input
        type="checkbox"
        aria-label="Select all shown lots"
        checked={allShownSelected}
        ref={(el) => {
          if (el) el.indeterminate = someShownSelected && !allShownSelected;
        }}
        onChange={() => setSelected(allShownSelected ? new Set() : new Set(shownKeys))}
      />
    );
  }

  const exportCsv = async () => {
    const keys = selected.size > 0 ? [...selected] : shownKeys;
    setExporting(true);
    setExportNote(null);
    const r = await call('library.export', { lot_keys: keys });
    setExporting(false);
    if (r.ok) {
      setError(null);
      downloadText(r.value.csv, 'lotwatch-export.csv');
      setExportNote(`Exported ${r.value.rows} lot${r.value.rows === 1 ? '' : 's'} to lotwatch-export.csv.`);
    } else setError(r.error);
  };

  const filtersOn = Boolean(platform || status || hasSale || titleFilter);
  const figuresOn = repairFilter !== null || hasAcv;
  const storeFilterParts = [
    repairFilter !== null ? `repair at most ${repairFilter}% of ACV` : null,
    hasAcv ? 'an ACV' : null,
  ].filter(Boolean);
  const storeFilterText =
    (figuresOn ? ` with ${storeFilterParts.join(' and ')} (unknown figures left out)` : '') +
    (picksOn ? ' · refined' : '');
  return (
    <section className="lw-view lib" aria-label="Library">
      <div className="lib-banner" role="note">
        <strong>Works offline.</strong> The library searches everything Lotwatch has ever fetched, stored on
        this computer. It spends no requests, and lots open from stored data when the network is off.
      </div>
      <div className="lw-toolbar lib-toolbar">
        <input
          type="search"
          className="lib-search"
          aria-label="Search the library"
          aria-describedby="lib-search-hint"
          placeholder="Search title, VIN, lot number, location…"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setQ('');
          }}
        />
        <select aria-label="Platform" value={platform} onChange={(e) => setPlatform(e.target.value)}>
          <option value="">All platforms</option>
          {platforms.map((p) => (
            <option key={p} value={p}>
              {platformName(p)}
            </option>
          ))}
        </select>
        <select aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Any status</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <select
          aria-label="Title"
          title="Exportable: no block known. Export blocked: the service marks the title document not exportable, or it is a certificate of destruction, parts only, junk or non-repairable."
          value={titleFilter}
          onChange={(e) => setTitleFilter(e.target.value as TitleFilter)}
        >
          <option value="">Any title</option>
          <option value="exportable">Exportable title</option>
          <option value="blocked">Export blocked</option>
        </select>
        <label className="check lib-check">
          <input type="checkbox" checked={hasSale} onChange={(e) => setHasSale(e.target.checked)} />
          <span>Has sale price</span>
        </label>
        <label className="lib-check lib-repair">
          <span>Repair ≤</span>
          <input
            type="text"
            inputMode="numeric"
            className="lib-repair-input"
            aria-label="Repair cost at most this % of ACV"
            aria-invalid={repairInvalid ? true : undefined}
            aria-describedby={repairInvalid ? 'lib-repair-err' : undefined}
            placeholder="any"
            value={repairText}
            onChange={(e) => setRepairText(e.target.value)}
          />
          <span>% of ACV</span>
        </label>
        {repairInvalid && (
          <span className="field-error" id="lib-repair-err">
            Enter a whole percentage from 1 to 1,000.
          </span>
        )}
        <label className="check lib-check">
          <input type="checkbox" checked={hasAcv} onChange={(e) => setHasAcv(e.target.checked)} />
          <span>Has ACV</span>
        </label>
        <span className="spacer" />
        <button
          type="button"
          className="primary"
          disabled={exporting || filtered.length === 0}
          onClick={() => void exportCsv()}
        >
          {exporting
            ? 'Exporting…'
            : selected.size > 0
              ? `Export CSV (${selected.size} selected)`
              : `Export CSV (${filtered.length} shown)`}
        </button>
      </div>
      <div className="lw-toolbar lib-status-line">
        <span aria-live="polite" className="lib-count">
          {total === null
            ? ''
            : `${total.toLocaleString('en-US')} lot${total === 1 ? '' : 's'} ${query ? `match “${query}”` : 'in the library'}${storeFilterText}`}
          {total !== null && lots.length < total ? ` · ${lots.length.toLocaleString('en-US')} loaded` : ''}
          {filtersOn ? ` · ${filtered.length.toLocaleString('en-US')} after filters` : ''}
          {selected.size > 0 ? ` · ${selected.size} selected` : ''}
        </span>
        {loading && <Progress label="Searching…" />}
        {exportNote && (
          <span className="lib-note" role="status">
            {exportNote}
          </span>
        )}
        <span className="spacer" />
        <span className="lib-hint" id="lib-search-hint">
          {LIBRARY_SEARCH_HINT}
        </span>
        {selected.size > 0 && (
          <button type="button" className="lw-small" onClick={() => setSelected(new Set())}>
            Clear selection
          </button>
        )}
      </div>
      <div className="lib-body">
        <FacetPanel counts={facetCounts} picks={picks} onChange={setPicks} />
        <div className="lib-main">
          {error && <ErrorNotice error={error} onRetry={() => void load(query, 0)} />}
          {total === 0 && !loading && (
            <EmptyState
              title={
                picksOn && !figuresOn
                  ? 'No stored lot has every ticked value'
                  : figuresOn
                    ? 'No stored lot passes the ACV filters'
                    : query
                      ? `Nothing stored matches “${query}”`
                      : 'The library is empty'
              }
            >
              {picksOn && !figuresOn
                ? 'Untick a value in Refine, or tick another value of the same facet.'
                : figuresOn
                  ? 'Only IAAI records carry an ACV and a repair estimate; Copart lots and lots without them are left out. Loosen or clear the repair and ACV filters.'
                  : query
                    ? 'Try fewer words, part of a VIN or a lot number. Only lots Lotwatch has fetched are here.'
                    : 'Every lot Lotwatch fetches — from Search, saved searches and watches — is kept here for offline review.'}
            </EmptyState>
          )}
          {lots.length > 0 && filtered.length === 0 && (
            <EmptyState title="No loaded lot passes the filters">
              Loosen the platform, status, title or sale-price filter.
            </EmptyState>
          )}
          {filtered.length > 0 && (
            <LwTable
              table={table}
              label="Library lots"
              rowHeight={46}
              maxHeight="calc(100vh - 300px)"
              virtualizeAbove={40}
              rowProps={(row) => ({
                className: selected.has(row.original.lot_key) ? 'lib-selected' : undefined,
                onDoubleClick: () => openLot(row.original.lot_key),
              })}
            />
          )}
          {total !== null && lots.length < total && (
            <div>
              <button type="button" disabled={loading} onClick={() => void load(query, lots.length)}>
                Load {Math.min(PAGE, total - lots.length).toLocaleString('en-US')} more
              </button>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import type { VehicleRow } from '../../../../shared/ipc/contract';
import { openLot } from '../../app/navigation';
import { bidText, miles, platformName, relative, saleWhen, usd } from '../../lib/format';
import { ExportMark } from '../../components/ExportMark';
import { Photo } from '../../components/Photo';
import { StatusPill } from '../../components/StatusPill';
import { useNow } from '../../lib/useNow';
import { isResultsShortcut } from '../../lib/focus';

const nullsLast = (a: number | string | null, b: number | string | null): number => {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
};

/** Below this width (px) the results drop the odometer column, so lot, bid and sale stay in view unscrolled. */
const COMPACT_BELOW = 700;

/** Whether the element is narrower than `below` px, followed as the window resizes. */
function useNarrow(ref: RefObject<HTMLElement | null>, below: number): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => {
      if (entry) setNarrow(entry.contentRect.width < below);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, below]);
  return narrow;
}

/**
 * One page of search results in a virtualized table: sortable on the loaded rows (click a header), a row click
 * or Enter opens the lot, arrow keys move between rows, Alt+R (from anywhere in the Search view) jumps to the
 * first row. Thumbnails only when `photos` is on (each costs a request on a real key).
 */
export function ResultsTable({ rows, photos }: { rows: VehicleRow[]; photos: boolean }) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const now = useNow(30_000);
  const scrollRef = useRef<HTMLDivElement>(null);
  const compact = useNarrow(scrollRef, COMPACT_BELOW);
  // Alt+R: from the search box to the first result in one key, not 40 Tabs through the filters. Listened for as the
  // table is drawn (a layout effect), so the key works the moment the results appear.
  useLayoutEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!isResultsShortcut(e)) return;
      const first = scrollRef.current?.querySelector<HTMLElement>('tr.rt-row');
      if (!first) return;
      e.preventDefault();
      first.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const columns = useMemo<ColumnDef<VehicleRow>[]>(
    () => [
      ...(photos
        ? [
            {
              id: 'photo',
              header: () => <span className="sr-only">Photo</span>,
              enableSorting: false,
              cell: ({ row }) => (
                <Photo url={row.original.photo} lotKey={row.original.lot_key} alt="" className="rt-thumb" />
              ),
            } satisfies ColumnDef<VehicleRow>,
          ]
        : []),
      {
        id: 'vehicle',
        header: 'Vehicle',
        accessorFn: (r) => r.title ?? [r.year, r.make, r.model].filter(Boolean).join(' '),
        cell: ({ row }) => {
          const r = row.original;
          const title = r.title ?? ([r.year, r.make, r.model].filter(Boolean).join(' ') || 'Untitled lot');
          // The title and damage wrap (never cut); the VIN stays whole on its line: a buyer copies and checks it.
          return (
            <div className="rt-vehicle">
              <span className="rt-title" title={title}>
                {title}
              </span>
              <span className="rt-sub">
                {r.vin && <span className="rt-vin">{r.vin}</span>}
                {r.damage && (
                  <span className="rt-damage" title={`${r.damage} damage`}>
                    {r.damage} damage
                  </span>
                )}
                {!r.vin && !r.damage && '–'}
              </span>
            </div>
          );
        },
      },
      {
        id: 'lot',
        header: 'Lot',
        accessorFn: (r) => `${r.platform}:${r.lot_number}`,
        // A title that blocks export is marked under the lot number, its words wrapping rather than cut.
        cell: ({ row }) => (
          <div className="rt-stack">
            <span className="rt-lot">
              <span className={`plat plat-${row.original.platform}`}>
                {platformName(row.original.platform)}
              </span>{' '}
              {row.original.lot_number}
            </span>
            <ExportMark block={row.original.export_block} />
          </div>
        ),
      },
      {
        id: 'bid',
        header: 'Current bid',
        accessorFn: (r) => r.current_bid_usd,
        sortingFn: (a, b) => nullsLast(a.original.current_bid_usd, b.original.current_bid_usd),
        cell: (c) => {
          const r = c.row.original;
          return (
            <div className="rt-stack">
              <span>{bidText(r.current_bid_usd, r.outcome !== 'open')}</span>
              {r.buy_now_usd !== null && <span className="rt-sub">Buy now {usd(r.buy_now_usd)}</span>}
            </div>
          );
        },
        meta: { num: true },
      },
      ...(compact
        ? []
        : [
            {
              id: 'odometer',
              header: 'Odometer',
              accessorFn: (r) => r.odometer,
              sortingFn: (a, b) => nullsLast(a.original.odometer, b.original.odometer),
              cell: (c) => {
                const r = c.row.original;
                return (
                  <div className="rt-stack">
                    <span>{miles(r.odometer)}</span>
                    <span className="rt-sub" title={r.location ?? undefined}>
                      {r.location ?? '–'}
                    </span>
                  </div>
                );
              },
            } satisfies ColumnDef<VehicleRow>,
          ]),
      {
        id: 'auction',
        header: 'Sale',
        accessorFn: (r) => r.auction_at,
        sortingFn: (a, b) => nullsLast(a.original.auction_at, b.original.auction_at),
        cell: (c) => {
          const t = c.row.original.auction_at;
          const when = saleWhen(t, now, c.row.original.outcome);
          return (
            <div className="rt-stack rt-sale">
              <StatusPill lot={c.row.original} />
              <time
                className="rt-sub"
                dateTime={t ? new Date(t).toISOString() : undefined}
                title={t ? `${new Date(t).toLocaleString()} (${relative(t, now)})` : undefined}
              >
                {when}
              </time>
            </div>
          );
        },
      },
    ],
    [photos, now, compact],
  );
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table returns fresh functions by design; this component does not memoize them.
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    sortDescFirst: false,
  });
  const model = table.getRowModel().rows;
  const rowHeight = photos ? 60 : 48;
  const virtualizer = useVirtualizer({
    count: model.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const colCount = columns.length;

  const onRowKey = (e: KeyboardEvent<HTMLTableRowElement>, index: number, key: string) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      openLot(key);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = index + (e.key === 'ArrowDown' ? 1 : -1);
      if (next < 0 || next >= model.length) return;
      virtualizer.scrollToIndex(next);
      requestAnimationFrame(() =>
        scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${next}"]`)?.focus(),
      );
    }
  };

  return (
    <div className="rt-scroll" ref={scrollRef}>
      <table
        className={photos ? 'rt with-photos' : 'rt'}
        aria-label="Search results"
        aria-rowcount={model.length + 1}
      >
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => {
                const sorted = h.column.getIsSorted();
                const num = (h.column.columnDef.meta as { num?: boolean } | undefined)?.num;
                return (
                  <th
                    key={h.id}
                    className={`rt-h-${h.column.id}${num ? ' num' : ''}`}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {h.column.getCanSort() ? (
                      <button
                        type="button"
                        className="rt-sort"
                        onClick={h.column.getToggleSortingHandler()}
                        title="Sort the loaded rows"
                      >
                        {flexRender(h.column.columnDef.header, h.getContext())}
                        <span className="rt-arrow" aria-hidden="true">
                          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : ''}
                        </span>
                      </button>
                    ) : (
                      flexRender(h.column.columnDef.header, h.getContext())
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden="true">
              <td colSpan={colCount} style={{ height: padTop, padding: 0, border: 0 }} />
            </tr>
          )}
          {items.map((vi) => {
            const row = model[vi.index];
            if (!row) return null;
            const key = row.original.lot_key;
            return (
              <tr
                key={row.id}
                data-index={vi.index}
                ref={virtualizer.measureElement}
                tabIndex={0}
                className="rt-row"
                style={{ height: rowHeight }}
                onClick={() => openLot(key)}
                onKeyDown={(e) => onRowKey(e, vi.index, key)}
              >
                {row.getVisibleCells().map((c) => {
                  const num = (c.column.columnDef.meta as { num?: boolean } | undefined)?.num;
                  return (
                    <td key={c.id} className={`rt-c-${c.column.id}${num ? ' num' : ''}`}>
                      {flexRender(c.column.columnDef.cell, c.getContext())}
                    </td>
                  );
                })}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={colCount} style={{ height: padBottom, padding: 0, border: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

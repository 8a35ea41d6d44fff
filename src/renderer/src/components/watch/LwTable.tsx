import { flexRender, type Row, type Table } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type HTMLAttributes } from 'react';

/** Column meta the table reads: a class for header and cells (e.g. `num`). */
export interface LwColumnMeta {
  className?: string;
}

/** A heading row over some of the table's rows (e.g. one sale day): its key, its words and its rows. */
export interface LwRowGroup<T> {
  key: string;
  label: string;
  rows: Row<T>[];
}

/** What the table lays out, in order: a group's heading or one data row (`at`: its place among all body rows). */
type Entry<T> =
  { kind: 'group'; group: LwRowGroup<T>; at: number } | { kind: 'row'; row: Row<T>; at: number };

/**
 * A react-table instance as an HTML table with a sticky header and sortable column buttons. Long lists
 * (over `virtualizeAbove` rows) are virtualized: only the rows in view are in the DOM, with spacer rows
 * keeping the scroll height honest. `groupRows`, when given, splits the sorted rows under heading rows (one cell
 * across the table, `groupHeight` px high); `className` is added to the table element.
 */
export function LwTable<T>({
  table,
  label,
  rowHeight,
  maxHeight,
  virtualizeAbove = 60,
  rowProps,
  groupRows,
  groupHeight = 28,
  className,
}: {
  table: Table<T>;
  label: string;
  rowHeight: number;
  maxHeight: string;
  virtualizeAbove?: number;
  rowProps?: (row: Row<T>) => HTMLAttributes<HTMLTableRowElement>;
  groupRows?: (rows: Row<T>[]) => LwRowGroup<T>[];
  groupHeight?: number;
  className?: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = table.getRowModel().rows;
  const virtual = rows.length > virtualizeAbove;
  const entries: Entry<T>[] = [];
  if (groupRows) {
    for (const group of groupRows(rows)) {
      entries.push({ kind: 'group', group, at: entries.length });
      for (const row of group.rows) entries.push({ kind: 'row', row, at: entries.length });
    }
  } else rows.forEach((row, at) => entries.push({ kind: 'row', row, at }));
  // The virtualizer is a stateful helper object by design; it is not memoised by the React Compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const v = useVirtualizer({
    count: virtual ? entries.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (entries[i]?.kind === 'group' ? groupHeight : rowHeight),
    overscan: 10,
    initialRect: { width: 1000, height: 700 },
  });
  const items = virtual ? v.getVirtualItems() : [];
  const shown = virtual
    ? items.flatMap((i) => {
        const e = entries[i.index];
        return e ? [e] : [];
      })
    : entries;
  const padTop = virtual ? (items[0]?.start ?? 0) : 0;
  const padBottom = virtual ? v.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const cols = table.getVisibleLeafColumns().length;
  return (
    <div className="lw-table-wrap" ref={scroller} style={{ maxHeight }}>
      <table
        className={className ? `lw-table ${className}` : 'lw-table'}
        aria-label={label}
        aria-rowcount={entries.length + 1}
      >
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => {
                const meta = h.column.columnDef.meta as LwColumnMeta | undefined;
                const sorted = h.column.getIsSorted();
                return (
                  <th
                    key={h.id}
                    className={meta?.className}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    style={h.column.columnDef.size !== 150 ? { width: h.column.columnDef.size } : undefined}
                  >
                    {h.isPlaceholder ? null : h.column.getCanSort() ? (
                      <button type="button" className="sort" onClick={h.column.getToggleSortingHandler()}>
                        {flexRender(h.column.columnDef.header, h.getContext())}
                        <span aria-hidden="true">
                          {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}
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
              <td colSpan={cols} style={{ height: padTop, padding: 0, border: 'none' }} />
            </tr>
          )}
          {shown.map((e) =>
            e.kind === 'group' ? (
              <tr
                key={`group:${e.group.key}`}
                aria-rowindex={e.at + 2}
                className="lw-group-row"
                style={{ height: groupHeight }}
              >
                <th colSpan={cols} scope="colgroup">
                  {e.group.label}
                </th>
              </tr>
            ) : (
              <tr
                key={e.row.id}
                aria-rowindex={e.at + 2}
                style={{ height: rowHeight }}
                {...rowProps?.(e.row)}
              >
                {e.row.getVisibleCells().map((c) => {
                  const meta = c.column.columnDef.meta as LwColumnMeta | undefined;
                  return (
                    <td key={c.id} className={meta?.className}>
                      {flexRender(c.column.columnDef.cell, c.getContext())}
                    </td>
                  );
                })}
              </tr>
            ),
          )}
          {padBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={cols} style={{ height: padBottom, padding: 0, border: 'none' }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

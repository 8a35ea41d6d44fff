import {
  createColumnHelper,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { LotSummary, WatchView } from '../../../../shared/ipc/contract';
import { parseTags } from '../../../../shared/desk';
import { costQualifier, gapSentence } from '../../../../shared/shipping';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { parsePollTarget } from '../../../../shared/watch';
import { openLot } from '../../app/navigation';
import { ErrorNotice, fieldMessage } from '../../components/ErrorNotice';
import { ExportMark } from '../../components/ExportMark';
import {
  EmptyState,
  ExampleBadge,
  Progress,
  RemoveExamples,
  useContractEvents,
  useNow,
} from '../../components/watch/common';
import { LwTable, type LwColumnMeta } from '../../components/watch/LwTable';
import { draftToRules, RulesFields, rulesToDraft, type RulesDraft } from '../../components/watch/RulesFields';
import {
  auctionStatus,
  bidText,
  countdown,
  dateTime,
  pastSaleWords,
  platformName,
  relative,
  shortRelative,
  saleResultWords,
  usd,
} from '../../lib/format';
import { useCall, useCaller } from '../../lib/useCall';
import { RowMenu } from './RowMenu';
import {
  groupBySaleDay,
  landedUnknownReason,
  maxBidOf,
  pastMax,
  pruneSelection,
  selectionState,
  SORT_KEYS,
  toggleAll,
  toggleOne,
  watchesWord,
} from './watchTable';
import './watchlist.css';
import { runErrorPayload } from '../../lib/runError';
import { useReturnFocus } from '../../lib/focus';
import { useWatchingState, WatchingStateNotice } from '../../components/WatchingState';
import { Owner } from '../../team/Owner';

/**
 * Adds a watch by VIN, lot number or lot-page URL; shows progress while the service resolves it. The view keeps
 * the outcome (`error` here, "Now watching …" in its toolbar): `onStart` clears every earlier message, so a new
 * add never shows beside the previous add's success or error.
 */
function AddWatchForm({
  error,
  onStart,
  onAdded,
  onFailed,
}: {
  error: ErrorPayload | null;
  onStart: () => void;
  onAdded: (w: WatchView) => void;
  onFailed: (e: ErrorPayload) => void;
}) {
  const call = useCaller();
  const [target, setTarget] = useState('');
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);
  const targetError = fieldMessage(error, 'target');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    onStart();
    const r = await call('watchlist.add', { target, label });
    setBusy(false);
    if (r.ok) {
      setTarget('');
      setLabel('');
      onAdded(r.value);
    } else onFailed(r.error);
  };
  return (
    <form className="lw-panel wl-add" onSubmit={submit} aria-label="Watch a vehicle" noValidate>
      <label className="field wl-target">
        <span>VIN, lot number or lot-page URL</span>
        <input
          type="text"
          name="target"
          value={target}
          placeholder="1HGCM82633A004352 · 45416833 · https://www.copart.com/lot/45416833"
          aria-invalid={targetError ? true : undefined}
          aria-describedby={targetError ? 'wl-target-error' : undefined}
          onChange={(e) => setTarget(e.target.value)}
          disabled={busy}
        />
        {targetError && (
          <span className="field-error" id="wl-target-error">
            {targetError}
          </span>
        )}
      </label>
      <label className="field wl-label">
        <span>Label (optional)</span>
        <input
          type="text"
          name="label"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          disabled={busy}
        />
      </label>
      <div className="wl-add-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Watch'}
        </button>
        {busy && <Progress label="Looking it up on the service…" />}
      </div>
      {error && !targetError && (
        <div className="wl-add-error">
          <ErrorNotice error={error} />
        </div>
      )}
    </form>
  );
}

/**
 * The rules of one watch, edited in a panel; field errors come back as `rules.<field>`. The save names the copy it
 * was made on (`expected_updated_at`, taken when the panel opened): a watch another member changed meanwhile is
 * refused with who and when (`conflict`), never overwritten, and "Reload" starts again from the latest copy.
 */
function RulesPanel({
  watch,
  onSaved,
  onClose,
  onReload,
}: {
  watch: WatchView;
  onSaved: (w: WatchView) => void;
  onClose: () => void;
  onReload: () => void;
}) {
  const call = useCaller();
  const [base] = useState(watch.updated_at);
  const [draft, setDraft] = useState<RulesDraft>(() => rulesToDraft(watch.rules));
  const [label, setLabel] = useState(watch.label);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const r = await call('watchlist.setRules', {
      id: watch.id,
      rules: draftToRules(draft, watch.rules),
      label,
      ...(base > 0 ? { expected_updated_at: base } : {}),
    });
    setBusy(false);
    if (r.ok) {
      setError(null);
      onSaved(r.value);
    } else setError(r.error);
  };
  useReturnFocus();
  const name = watch.lot?.title ?? watch.vin ?? watch.lot_key ?? `Watch ${watch.id}`;
  return (
    <form
      className="lw-panel wl-rules"
      onSubmit={submit}
      aria-label={`Alert rules for ${name}`}
      noValidate
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <h2 ref={heading} tabIndex={-1}>
        Alert rules · {name}
      </h2>
      <label className="field wl-rules-label">
        <span>Label</span>
        <input type="text" name="watch-label" value={label} onChange={(e) => setLabel(e.target.value)} />
      </label>
      <RulesFields draft={draft} onChange={setDraft} error={error} mode="watch" />
      {error && !error.fields && <ErrorNotice error={error} />}
      {error?.fields && <p className="field-error">Nothing was saved. Correct the highlighted fields.</p>}
      <div className="actions">
        {error?.code === 'conflict' ? (
          <button type="button" className="primary" onClick={onReload}>
            Reload
          </button>
        ) : (
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save rules'}
          </button>
        )}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  );
}

/** A lot's sale price as the sale result reads it: the price of a sale, else the bid a seller may approve. */
function resultPrice(l: LotSummary): number | null {
  return l.outcome === 'sold_on_approval' ? (l.sale_price_usd ?? l.current_bid_usd) : l.sale_price_usd;
}

/**
 * Where the sale stands now: a live countdown ("in 2d 4h") before the sale time; after it "Sale under way" or "Sale
 * time passed" with "result to follow" or "no result yet" under it (pastSaleWords), two short lines that fit the
 * column whole; the sale result ("Sold for $4,250", "Ended unsold") once the auction is
 * over.
 */
function SaleCell({ lot }: { lot: LotSummary | null }) {
  const now = useNow();
  if (!lot) return <>–</>;
  const at = lot.auction_at;
  if (lot.outcome !== 'open') {
    return (
      <>
        <div className="wl-sale-words">{saleResultWords(lot.outcome, resultPrice(lot))}</div>
        {at !== null && at <= now && <div className="lw-sub">{dateTime(at)}</div>}
      </>
    );
  }
  if (at === null) return <>Not scheduled</>;
  if (at <= now) {
    const { head, sub, line } = pastSaleWords(at, now);
    return (
      <div title={line}>
        <div className="wl-sale-words">{head}</div>
        <div className="lw-sub">{sub}</div>
      </div>
    );
  }
  const soon = at - now < 3600_000;
  return (
    <>
      <div className={soon ? 'wl-soon' : undefined}>in {countdown(at, now)}</div>
      <div className="lw-sub">{dateTime(at)}</div>
    </>
  );
}

/**
 * When Lotwatch last checked the watch, and what comes next: the next check while the sale is ahead; once the
 * auction is over, "after the sale" and, for a lot that may come back (ended unsold, sold on approval), when it
 * next looks for a relist; for a Demo example outside Demo mode, that it is checked only there. Never a "next" time in
 * the past.
 */
function CheckedCell({ w, held }: { w: WatchView; held: boolean }) {
  const now = useNow();
  const last = w.last_checked_at;
  const next = w.next_check_at;
  const lot = w.lot;
  let sub: string | null;
  // A Demo example outside Demo mode is looked at only in Demo mode (core's waits_for_demo).
  if (w.waits_for_demo && !w.paused) sub = 'only in Demo mode';
  else if (lot && lot.outcome !== 'open') {
    const afterSale = last !== null && (lot.auction_at === null || last >= lot.auction_at);
    const relist =
      lot.outcome !== 'sold' && next !== null && next > now
        ? `looks for a relist ${shortRelative(next, now)}`
        : null;
    sub = [afterSale ? 'after the sale' : null, relist].filter(Boolean).join(' · ') || null;
  } else {
    // While watching is held (the buyer's pause, a spent quota, no service), no check is coming: the banner says why.
    sub = held
      ? 'checks on hold'
      : next === null
        ? null
        : next > now
          ? `next ${shortRelative(next, now)}`
          : 'next check due now';
  }
  return (
    <>
      <div title={last === null ? undefined : relative(last, now)}>
        {last === null ? 'Not checked yet' : shortRelative(last, now)}
      </div>
      {sub && (
        <div className="lw-sub" title={sub}>
          {sub}
        </div>
      )}
    </>
  );
}

const col = createColumnHelper<WatchView>();

/** A watch's name in words for labels and messages: the lot's title, else the VIN or lot key. */
function nameOf(w: WatchView): string {
  return w.lot?.title ?? w.vin ?? w.lot_key ?? `watch ${w.id}`;
}

/** What the table's cells read through `table.options.meta` on every render: selection, busy checks, handlers. */
interface RowMeta {
  selected: ReadonlySet<number>;
  shownIds: number[];
  checking: ReadonlySet<number>;
  checkNow: (w: WatchView) => void;
  bulk: (action: 'pause' | 'resume', ids: number[]) => void;
  askRemove: (ids: number[], question: string) => void;
  /** Watching is not running (watching state): no row promises a next check. */
  held: boolean;
}

/** A remove the buyer is asked to confirm: one watch (from its row menu) or the selection. */
interface PendingRemove {
  ids: number[];
  question: string;
}

/**
 * Follow VINs and lots in a dense table that keeps every column at 1024 px: lot, vehicle, sale, bid, max bid,
 * landed cost, status, last check, and each row's actions behind one menu button. Sort by any column, group by sale
 * day, select rows to pause, resume, tag or remove them together; long lists are virtualised.
 */
export function WatchlistView() {
  const call = useCaller();
  const list = useCall('watchlist.list');
  const { run } = list;
  const [rulesFor, setRulesFor] = useState<number | null>(null);
  // Bumped by the rules panel's Reload: the panel starts again from the latest copy of its watch.
  const [reloads, setReloads] = useState(0);
  const [checking, setChecking] = useState<Set<number>>(new Set());
  const [actionError, setActionError] = useState<ErrorPayload | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [addError, setAddError] = useState<ErrorPayload | null>(null);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [grouped, setGrouped] = useState(false);
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [pendingRemove, setPendingRemove] = useState<PendingRemove | null>(null);
  const [tagging, setTagging] = useState(false);
  const [tagText, setTagText] = useState('');
  const [bulkBusy, setBulkBusy] = useState(false);
  const returnFocus = useRef<HTMLElement | null>(null);
  const confirmYes = useRef<HTMLButtonElement>(null);
  const watches = useMemo(() => list.data ?? [], [list.data]);
  // A watch removed elsewhere (or by a bulk remove) leaves the selection.
  const selected = useMemo(() => pruneSelection(picked, watches), [picked, watches]);

  const watching = useWatchingState();
  // A change of the watching state reloads the rows: back online clears their stale "could not reach" errors.
  useContractEvents((e) => {
    if (e.name === 'poll.finished' && parsePollTarget(e.payload.target)?.kind === 'watch') void run();
    if (e.name === 'watching.changed') void run();
  });

  useEffect(() => {
    if (pendingRemove) confirmYes.current?.focus();
  }, [pendingRemove]);

  /** A new action clears every earlier action's message: a result never stands beside an error it contradicts. */
  const startAction = () => {
    setNote(null);
    setActionError(null);
    setAddError(null);
  };

  const checkNow = async (w: WatchView) => {
    setChecking((s) => new Set(s).add(w.id));
    startAction();
    const r = await call('watchlist.checkNow', { id: w.id });
    setChecking((s) => {
      const n = new Set(s);
      n.delete(w.id);
      return n;
    });
    const title = w.lot?.title ?? w.vin ?? 'the watch';
    if (r.ok && r.value.status === 'error' && r.value.error) {
      // The check reached the service and failed (a refused key, an outage): say so, not "Checked: 0 changes".
      setActionError(runErrorPayload(r.value.error, `Could not check ${title}`));
    } else if (r.ok) {
      setActionError(null);
      setNote(
        r.value.status === 'skipped'
          ? 'Check skipped: the request budget is spent for now. Lotwatch checks again when it allows.'
          : `Checked ${title}: ${r.value.changes} change${r.value.changes === 1 ? '' : 's'}.`,
      );
    } else setActionError(r.error);
    void run();
  };

  /** Asks before removing: the question stands above the table with its Remove button focused. */
  const askRemove = (ids: number[], question: string) => {
    returnFocus.current = document.activeElement as HTMLElement | null;
    setPendingRemove({ ids, question });
  };
  const cancelRemove = () => {
    setPendingRemove(null);
    requestAnimationFrame(() => returnFocus.current?.focus());
  };
  const confirmRemove = async (p: PendingRemove) => {
    setPendingRemove(null);
    startAction();
    const first = p.ids[0];
    if (p.ids.length === 1 && first !== undefined) {
      const r = await call('watchlist.remove', { id: first });
      if (r.ok) {
        if (rulesFor === first) setRulesFor(null);
      } else setActionError(r.error);
    } else {
      await bulk('remove', p.ids);
      return;
    }
    void run();
  };

  /** One bulk action on the selected watches; says what it did, or the error. */
  const bulk = async (action: 'pause' | 'resume' | 'remove' | 'tag', ids: number[], tags?: string[]) => {
    startAction();
    setBulkBusy(true);
    const r = await call(
      'watchlist.bulk',
      action === 'tag' ? { action, ids, tags: tags ?? [] } : { action, ids },
    );
    setBulkBusy(false);
    if (r.ok) {
      const done = { pause: 'Paused', resume: 'Resumed', remove: 'Removed', tag: 'Tagged' }[action];
      const skipped =
        r.value.skipped > 0
          ? ` ${watchesWord(r.value.skipped)} left as ${r.value.skipped === 1 ? 'it was' : 'they were'}${action === 'tag' ? ' (no stored lot yet, or too many tags)' : ''}.`
          : '';
      setNote(`${done} ${watchesWord(r.value.changed)}.${skipped}`);
      if (action === 'tag') {
        setTagging(false);
        setTagText('');
      }
      if (action === 'remove') setPicked(new Set());
    } else setActionError(r.error);
    void run();
  };

  const shownIds = watches.map((w) => w.id);
  // What the cells read on every render through the table's meta: the columns are made once, so a list refresh or
  // a selection never remounts a row's cells (an open row menu stays open).
  const meta: RowMeta = {
    selected,
    shownIds,
    checking,
    checkNow: (w) => void checkNow(w),
    bulk: (action, ids) => void bulk(action, ids),
    askRemove,
    held: watching !== null && watching.kind !== 'running',
  };

  const columns = useMemo(
    () => [
      col.display({
        id: 'select',
        header: ({ table: t }) => {
          const m = t.options.meta as RowMeta;
          const head = selectionState(m.selected, m.shownIds);
          return (
            <input
              type="checkbox"
              aria-label="Select every watch"
              checked={head === 'all'}
              ref={(el) => {
                if (el) el.indeterminate = head === 'some';
              }}
              onChange={() => setPicked(toggleAll(m.selected, m.shownIds))}
            />
          );
        },
        size: 32,
        cell: ({ row: { original: w }, table: t }) => {
          const m = t.options.meta as RowMeta;
          return (
            <input
              type="checkbox"
              aria-label={`Select ${nameOf(w)}`}
              checked={m.selected.has(w.id)}
              onChange={() => setPicked(toggleOne(m.selected, w.id))}
            />
          );
        },
      }),
      col.accessor(SORT_KEYS.lot, {
        id: 'lot',
        header: 'Lot',
        size: 104,
        meta: { className: 'wl-col-lot' } satisfies LwColumnMeta,
        cell: ({ row: { original: w } }) =>
          w.lot ? (
            <>
              <div className="wl-lot-number">#{w.lot.lot_number}</div>
              <div className="lw-sub">{platformName(w.lot.platform)}</div>
            </>
          ) : (
            <span className="lw-sub">{w.kind === 'vin' ? 'No lot yet' : '–'}</span>
          ),
      }),
      col.accessor(SORT_KEYS.vehicle, {
        id: 'vehicle',
        header: 'Vehicle',
        meta: { className: 'wl-col-vehicle' } satisfies LwColumnMeta,
        cell: ({ row: { original: w } }) => {
          const key = w.lot?.lot_key ?? w.lot_key;
          const title =
            w.lot?.title ?? (w.kind === 'vin' ? 'Looking for this VIN' : (w.lot_key ?? 'Unknown lot'));
          const tags = w.desk?.tags ?? [];
          const label = w.label && w.label !== 'Example' ? w.label : null;
          const owner = w.created_by;
          // Without badges, tags, a label or an owner under it, the title may take both lines.
          const alone =
            !owner &&
            !w.is_example &&
            !w.rules.muted &&
            !w.lot?.export_block &&
            !w.rules.exportable_only &&
            !(!w.lot && w.vin) &&
            !label &&
            tags.length === 0;
          const titleClass = alone ? 'wl-title wl-title-2' : 'wl-title';
          return (
            <div className="wl-vehicle">
              <div className="wl-title-line">
                {key ? (
                  <button
                    type="button"
                    className={`lw-link ${titleClass}`}
                    title={title}
                    onClick={() => openLot(key)}
                  >
                    {title}
                  </button>
                ) : (
                  <strong className={titleClass} title={title}>
                    {title}
                  </strong>
                )}
              </div>
              {!alone && (
                <div className="lw-sub wl-badges">
                  {w.is_example && <ExampleBadge />}
                  {w.rules.muted && <span className="lw-badge">Muted</span>}
                  <ExportMark block={w.lot?.export_block} />
                  {w.rules.exportable_only && (
                    <span
                      className="lw-badge"
                      title="This watch alerts only while the lot's title lets the car be exported"
                    >
                      Exportable only
                    </span>
                  )}
                  {!w.lot && w.vin ? <span className="wl-vin">{w.vin}</span> : null}
                  <Owner createdBy={owner} />
                  {label ? <span className="wl-label-text">{label}</span> : null}
                  {tags.map((t) => (
                    <span key={t} className="lw-badge tag">
                      {t}
                    </span>
                  ))}
                </div>
              )}
            </div>
          );
        },
      }),
      col.accessor(SORT_KEYS.sale, {
        id: 'auction',
        header: 'Sale',
        size: 116,
        meta: { className: 'wl-col-sale' } satisfies LwColumnMeta,
        cell: ({ row: { original: w } }) => <SaleCell lot={w.lot} />,
      }),
      col.accessor(SORT_KEYS.bid, {
        id: 'bid',
        header: 'Bid',
        size: 84,
        meta: { className: 'num' } satisfies LwColumnMeta,
        cell: ({ row: { original: w } }) => (
          <>
            <div>
              {w.lot ? bidText(w.lot.sale_price_usd ?? w.lot.current_bid_usd, w.lot.outcome !== 'open') : '–'}
            </div>
            {w.lot?.buy_now_usd != null && (
              <div className="lw-sub" title={`Buy now ${usd(w.lot.buy_now_usd)}`}>
                BN {usd(w.lot.buy_now_usd)}
              </div>
            )}
          </>
        ),
      }),
      col.accessor(SORT_KEYS.max, {
        id: 'max',
        header: 'Max bid',
        size: 90,
        meta: { className: 'num' } satisfies LwColumnMeta,
        cell: ({ row: { original: w } }) => <MaxBidCell w={w} />,
      }),
      col.accessor(SORT_KEYS.landed, {
        id: 'landed',
        header: 'Landed',
        size: 90,
        meta: { className: 'num' } satisfies LwColumnMeta,
        cell: ({ row: { original: w } }) => <LandedCell w={w} />,
      }),
      col.accessor((w) => (w.paused ? 'Paused' : w.lot ? auctionStatus(w.lot).label : ''), {
        id: 'state',
        header: 'Status',
        size: 76,
        cell: ({ row: { original: w } }) => (
          <>
            <div className="wl-state">
              {w.paused ? <span className="lw-badge wl-paused">Paused</span> : null}
              {w.lot ? auctionStatus(w.lot).label : w.paused ? '' : '–'}
            </div>
            {w.last_error ? (
              <div className="lw-sub lw-error-text wl-err" title={w.last_error}>
                ⚠ {w.last_error}
              </div>
            ) : (
              <div className="lw-sub">{w.lot ? (auctionStatus(w.lot).saleType ?? '') : ''}</div>
            )}
          </>
        ),
      }),
      col.accessor(SORT_KEYS.checked, {
        id: 'checked',
        header: 'Checked',
        size: 104,
        meta: { className: 'wl-col-checked' } satisfies LwColumnMeta,
        cell: ({ row: { original: w }, table: t }) => (
          <CheckedCell w={w} held={(t.options.meta as RowMeta).held} />
        ),
      }),
      col.display({
        id: 'actions',
        header: () => <span className="visually-hidden">Actions</span>,
        size: 44,
        meta: { className: 'wl-col-actions' } satisfies LwColumnMeta,
        cell: ({ row: { original: w }, table: t }) => {
          const m = t.options.meta as RowMeta;
          const key = w.lot?.lot_key ?? w.lot_key;
          const name = nameOf(w);
          return (
            <RowMenu
              label={`Actions for ${name}`}
              items={[
                {
                  label: m.checking.has(w.id) ? 'Checking…' : 'Check now',
                  disabled: m.checking.has(w.id),
                  onSelect: () => m.checkNow(w),
                },
                { label: 'Rules', onSelect: () => setRulesFor(w.id) },
                {
                  label: w.paused ? 'Resume checks' : 'Pause checks',
                  onSelect: () => m.bulk(w.paused ? 'resume' : 'pause', [w.id]),
                },
                ...(key ? [{ label: 'Open lot', onSelect: () => openLot(key) }] : []),
                { label: 'Remove…', onSelect: () => m.askRemove([w.id], `Stop watching ${name}?`) },
              ]}
            />
          );
        },
      }),
    ],
    [],
  );

  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table returns fresh functions by design; this component does not memoize them.
  const table = useReactTable({
    data: watches,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (w) => String(w.id),
    meta,
  });

  const editing = watches.find((w) => w.id === rulesFor) ?? null;
  const examples = watches.filter((w) => w.is_example).length;
  const pickedIds = [...selected];

  return (
    <section className="lw-view wl" aria-label="Watchlist">
      <WatchingStateNotice state={watching} variant="panel" hideRunning />
      <AddWatchForm
        error={addError}
        onStart={startAction}
        onAdded={(w) => {
          setNote(`Now watching ${w.lot?.title ?? w.vin ?? w.lot_key ?? 'it'}.`);
          void run();
        }}
        onFailed={setAddError}
      />
      <div className="lw-toolbar">
        <span className="muted" aria-live="polite">
          {list.data ? `${watches.length} watched` : ''}
          {list.loading && list.data ? ' · refreshing…' : ''}
        </span>
        {note && (
          <span
            className={note.startsWith('Check skipped') ? 'wl-note wl-note-warn' : 'wl-note'}
            role="status"
          >
            {note}
          </span>
        )}
        <span className="spacer" />
        {watches.length > 0 && (
          <button
            type="button"
            className="lw-small"
            aria-pressed={grouped}
            onClick={() => setGrouped((g) => !g)}
          >
            Group by sale day
          </button>
        )}
        <RemoveExamples
          count={examples}
          lead="watches"
          onDone={(n) => {
            startAction();
            setNote(n);
            void run();
          }}
          onError={(e) => {
            startAction();
            setActionError(e);
            void run();
          }}
        />
      </div>
      {list.error && <ErrorNotice error={list.error} onRetry={() => void run()} />}
      {actionError && <ErrorNotice error={actionError} />}
      {pendingRemove && (
        <div
          className="lw-confirm wl-confirm-bar"
          role="group"
          aria-label={pendingRemove.question}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              cancelRemove();
            }
          }}
        >
          <span className="lw-confirm-q">{pendingRemove.question}</span>
          <button
            type="button"
            ref={confirmYes}
            className="lw-small danger"
            onClick={() => void confirmRemove(pendingRemove)}
          >
            Remove
          </button>
          <button type="button" className="lw-small" onClick={cancelRemove}>
            Cancel
          </button>
        </div>
      )}
      {selected.size > 0 && (
        <div className="wl-bulk" role="group" aria-label="Selected watches">
          <strong>{selected.size} selected</strong>
          <button
            type="button"
            className="lw-small"
            disabled={bulkBusy}
            onClick={() => void bulk('pause', pickedIds)}
          >
            Pause
          </button>
          <button
            type="button"
            className="lw-small"
            disabled={bulkBusy}
            onClick={() => void bulk('resume', pickedIds)}
          >
            Resume
          </button>
          {tagging ? (
            <form
              className="wl-tag-form"
              aria-label="Tag the selected watches"
              onSubmit={(e) => {
                e.preventDefault();
                void bulk('tag', pickedIds, parseTags(tagText));
              }}
            >
              <input
                type="text"
                aria-label="Tags (comma-separated)"
                placeholder="export, auction day"
                value={tagText}
                autoFocus
                onChange={(e) => setTagText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Escape') setTagging(false);
                }}
              />
              <button
                type="submit"
                className="lw-small"
                disabled={bulkBusy || parseTags(tagText).length === 0}
              >
                Add tags
              </button>
            </form>
          ) : (
            <button type="button" className="lw-small" onClick={() => setTagging(true)}>
              Tag…
            </button>
          )}
          <button
            type="button"
            className="lw-small danger"
            disabled={bulkBusy}
            onClick={() => askRemove(pickedIds, `Stop watching ${watchesWord(pickedIds.length)}?`)}
          >
            Remove…
          </button>
          <button type="button" className="lw-small" onClick={() => setPicked(new Set())}>
            Clear selection
          </button>
        </div>
      )}
      {editing && (
        <RulesPanel
          key={`${editing.id}-${reloads}`}
          watch={editing}
          onReload={() => void run().then(() => setReloads((n) => n + 1))}
          onClose={() => setRulesFor(null)}
          onSaved={(w) => {
            setRulesFor(null);
            startAction();
            setNote(`Rules saved for ${w.lot?.title ?? w.vin ?? 'the watch'}.`);
            void run();
          }}
        />
      )}
      {!list.data && list.loading && <Progress label="Loading the watchlist…" />}
      {list.data && watches.length === 0 && (
        <EmptyState title="Nothing watched yet">
          Paste a VIN, a lot number or a Copart/IAAI lot-page URL above, or press Watch on a lot in Search.
        </EmptyState>
      )}
      {watches.length > 0 && (
        <LwTable
          table={table}
          label="Watched vehicles"
          className="wl-table"
          rowHeight={ROW_HEIGHT}
          virtualizeAbove={30}
          maxHeight="calc(100vh - 250px)"
          rowProps={(r) => (r.original.paused ? { className: 'wl-row-paused' } : {})}
          groupRows={
            grouped
              ? (rows) =>
                  groupBySaleDay(rows, (r) => r.original.lot?.auction_at ?? null).map((g) => ({
                    key: String(g.key),
                    label: `${g.label} · ${watchesWord(g.items.length)}`,
                    rows: g.items,
                  }))
              : undefined
          }
        />
      )}
    </section>
  );
}

/** Row height of the table (px): two short lines per cell, so 12 or more rows fit a 768 px high window. */
const ROW_HEIGHT = 36;

/**
 * The max bid: the watch's own rule, else the desk's (from the buyer's costs, with what it leaves out). Red and
 * "past" once the current bid is over it; "–" with a title when neither exists.
 */
function MaxBidCell({ w }: { w: WatchView }) {
  const max = maxBidOf(w);
  if (!max) {
    return <span title="No max bid: set one in the watch's rules, or your costs in Settings.">–</span>;
  }
  const over = pastMax(w);
  const excludes = max.source === 'desk' ? (w.desk?.max_bid_excludes ?? []) : [];
  const why =
    max.source === 'rule'
      ? 'Your max bid, from this watch\u2019s rules.'
      : `The most you can bid for your costs to fit, worked out from your costs in Settings${costQualifier(excludes) ? `, ${costQualifier(excludes)}` : ''}.`;
  return (
    <div title={over ? `${why} The bid is past it.` : why}>
      <div className={over ? 'lw-error-text' : undefined}>{usd(max.usd)}</div>
      <div className={over ? 'lw-sub lw-error-text' : 'lw-sub'}>
        {over ? 'past max' : max.source === 'rule' ? 'your rule' : (shortQualifier(excludes) ?? 'from costs')}
      </div>
    </div>
  );
}

/**
 * What a figure leaves out in the few words a narrow cell holds ("excl. shipping"), from costQualifier's
 * "excluding shipping"; the cell's title has the whole sentence. Null when nothing is left out.
 */
function shortQualifier(excludes: Parameters<typeof costQualifier>[0]): string | null {
  const q = costQualifier(excludes);
  return q ? q.replace(/^excluding /, 'excl. ') : null;
}

/** The landed cost at the current bid, with what it leaves out; "–" titled with why when it is unknown. */
function LandedCell({ w }: { w: WatchView }) {
  const d = w.desk;
  const unknown = landedUnknownReason(w);
  if (unknown || !d || d.landed_cost_usd == null) return <span title={unknown ?? undefined}>–</span>;
  const q = shortQualifier(d.landed_excludes);
  return (
    <div
      title={d.landed_excludes.length ? d.landed_excludes.map((g) => gapSentence(g)).join(' ') : undefined}
    >
      <div>{usd(d.landed_cost_usd)}</div>
      {q ? <div className="lw-sub">{q}</div> : null}
    </div>
  );
}

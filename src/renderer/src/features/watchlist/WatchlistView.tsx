import {
  createColumnHelper,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { LotSummary, WatchView } from '../../../../shared/ipc/contract';
import { costQualifier, gapSentence, qualified } from '../../../../shared/shipping';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { parsePollTarget } from '../../../../shared/watch';
import { openLot } from '../../app/navigation';
import { ErrorNotice, fieldMessage } from '../../components/ErrorNotice';
import { ExportMark } from '../../components/ExportMark';
import { Photo } from '../../components/Photo';
import {
  ConfirmAction,
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
  platformName,
  relative,
  saleResultWords,
  usd,
} from '../../lib/format';
import { useCall, useCaller } from '../../lib/useCall';
import './watchlist.css';
import { runErrorPayload } from '../../lib/runError';
import { WatchingBanner } from '../../components/WatchingState';

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

/** The rules of one watch, edited in a panel; field errors come back as `rules.<field>`. */
function RulesPanel({
  watch,
  onSaved,
  onClose,
}: {
  watch: WatchView;
  onSaved: (w: WatchView) => void;
  onClose: () => void;
}) {
  const call = useCaller();
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
    });
    setBusy(false);
    if (r.ok) {
      setError(null);
      onSaved(r.value);
    } else setError(r.error);
  };
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
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save rules'}
        </button>
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
 * Where the sale stands now: a live countdown ("in 2d 4h") before the sale time; "Sale time passed, waiting for
 * the result" after it; the sale result ("Sold for $4,250", "Ended unsold") once the auction is over.
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
  if (at <= now) return <div className="wl-sale-words">Sale time passed, waiting for the result</div>;
  const soon = at - now < 3600_000;
  return <span className={soon ? 'wl-soon' : undefined}>in {countdown(at, now)}</span>;
}

/**
 * When Lotwatch last checked the watch, and what comes next: the next check while the sale is ahead; once the
 * auction is over, "after the sale" and, for a lot that may come back (ended unsold, sold on approval), when it
 * next looks for a relist. Never a "next" time in the past.
 */
function CheckedCell({ w }: { w: WatchView }) {
  const now = useNow();
  const last = w.last_checked_at;
  const next = w.next_check_at;
  const lot = w.lot;
  let sub: string | null;
  if (lot && lot.outcome !== 'open') {
    const afterSale = last !== null && (lot.auction_at === null || last >= lot.auction_at);
    const relist =
      lot.outcome !== 'sold' && next !== null && next > now
        ? `looks for a relist ${relative(next, now)}`
        : null;
    sub = [afterSale ? 'after the sale' : null, relist].filter(Boolean).join(' · ') || null;
  } else {
    sub = next === null ? null : next > now ? `next ${relative(next, now)}` : 'next check due now';
  }
  return (
    <>
      <div>{last === null ? 'Not checked yet' : relative(last, now)}</div>
      {sub && <div className="lw-sub">{sub}</div>}
    </>
  );
}

const col = createColumnHelper<WatchView>();

/** Follow VINs and lots: current bid, buy now, state and a live countdown to the auction. */
export function WatchlistView() {
  const call = useCaller();
  const list = useCall('watchlist.list');
  const { run } = list;
  const [rulesFor, setRulesFor] = useState<number | null>(null);
  const [checking, setChecking] = useState<Set<number>>(new Set());
  const [actionError, setActionError] = useState<ErrorPayload | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [addError, setAddError] = useState<ErrorPayload | null>(null);
  const [sorting, setSorting] = useState<SortingState>([]);
  const watches = useMemo(() => list.data ?? [], [list.data]);

  useContractEvents((e) => {
    if (e.name === 'poll.finished' && parsePollTarget(e.payload.target)?.kind === 'watch') void run();
  });

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
  const remove = async (w: WatchView) => {
    startAction();
    const r = await call('watchlist.remove', { id: w.id });
    if (r.ok) {
      setActionError(null);
      if (rulesFor === w.id) setRulesFor(null);
    } else setActionError(r.error);
    void run();
  };

  const columns = useMemo(
    () => [
      col.display({
        id: 'photo',
        header: () => <span className="visually-hidden">Photo</span>,
        size: 72,
        cell: ({ row: { original: w } }) => (
          <Photo
            url={w.lot?.photo ?? null}
            lotKey={w.lot_key ?? undefined}
            alt={w.lot?.title ?? 'Vehicle'}
            className="wl-thumb"
          />
        ),
      }),
      col.accessor((w) => w.lot?.title ?? w.label ?? w.vin ?? '', {
        id: 'vehicle',
        header: 'Vehicle',
        meta: { className: 'wrap' } satisfies LwColumnMeta,
        cell: ({ row: { original: w } }) => {
          const key = w.lot?.lot_key ?? w.lot_key;
          const title =
            w.lot?.title ?? (w.kind === 'vin' ? `VIN ${w.vin ?? ''}` : (w.lot_key ?? 'Unknown lot'));
          return (
            <div className="wl-vehicle">
              <div className="wl-title-line">
                {key ? (
                  <button type="button" className="lw-link" onClick={() => openLot(key)}>
                    {title}
                  </button>
                ) : (
                  <strong>{title}</strong>
                )}
                {w.is_example && <ExampleBadge />}
                {w.rules.muted && <span className="lw-badge">Muted</span>}
                <ExportMark block={w.lot?.export_block} />
                {w.rules.exportable_only && (
                  <span
                    className="lw-badge"
                    title="This watch alerts only while the lot's title lets the car be exported"
                  >
                    Exportable title only
                  </span>
                )}
              </div>
              <div className="lw-sub">
                {w.label && w.label !== 'Example' ? (
                  <span className="wl-label-text">{w.label} · </span>
                ) : null}
                {w.vin ? `VIN ${w.vin}` : 'No VIN yet'}
                {!w.lot && w.kind === 'vin' ? ' · no lot found yet' : ''}
              </div>
              {w.desk && (w.desk.tags.length > 0 || w.desk.notes) ? (
                <div className="lw-sub wl-notes" title={w.desk.notes}>
                  {w.desk.tags.map((t) => (
                    <span key={t} className="lw-badge tag">
                      {t}
                    </span>
                  ))}
                  {w.desk.notes ? <span className="wl-note-text">{w.desk.notes}</span> : null}
                </div>
              ) : null}
            </div>
          );
        },
      }),
      col.accessor((w) => w.lot?.lot_number ?? '', {
        id: 'lot',
        header: 'Lot',
        meta: { className: 'nowrap' } satisfies LwColumnMeta,
        cell: ({ row: { original: w } }) =>
          w.lot ? (
            <>
              <div>{platformName(w.lot.platform)}</div>
              <div className="lw-sub">#{w.lot.lot_number}</div>
            </>
          ) : (
            '–'
          ),
      }),
      col.accessor((w) => w.lot?.current_bid_usd ?? -1, {
        id: 'bid',
        header: 'Bid',
        meta: { className: 'num' } satisfies LwColumnMeta,
        // The buy-now price, when there is one, under the bid: one column less keeps the actions in a small window.
        cell: ({ row: { original: w } }) => (
          <>
            <div>
              {w.lot ? bidText(w.lot.sale_price_usd ?? w.lot.current_bid_usd, w.lot.outcome !== 'open') : '–'}
            </div>
            {w.lot?.buy_now_usd != null && <div className="lw-sub">Buy now {usd(w.lot.buy_now_usd)}</div>}
          </>
        ),
      }),
      col.accessor((w) => w.desk?.landed_cost_usd ?? -1, {
        id: 'landed',
        header: 'Landed',
        meta: { className: 'num' } satisfies LwColumnMeta,
        // Landed cost at the current bid (bid, buyer fees, shipping to the port, the user's own lines) and the max bid.
        cell: ({ row: { original: w } }) => {
          const d = w.desk;
          const over = d && d.max_bid_usd !== null && (w.lot?.current_bid_usd ?? 0) > d.max_bid_usd;
          return (
            <>
              <div
                title={d?.landed_excludes.length ? d.landed_excludes.map(gapSentence).join(' ') : undefined}
              >
                {d?.landed_cost_usd != null ? usd(d.landed_cost_usd) : '–'}
                {d && d.landed_cost_usd != null && costQualifier(d.landed_excludes) ? (
                  <div className="lw-sub">{costQualifier(d.landed_excludes)}</div>
                ) : null}
              </div>
              {d?.max_bid_usd != null && (
                <div className={over ? 'lw-sub lw-error-text' : 'lw-sub'}>
                  {over ? 'Past max ' : 'Max '}
                  {qualified(usd(d.max_bid_usd), d.max_bid_excludes)}
                </div>
              )}
            </>
          );
        },
      }),
      col.accessor((w) => (w.lot ? auctionStatus(w.lot).label : ''), {
        id: 'state',
        header: 'State',
        cell: ({ row: { original: w } }) =>
          w.lot ? (
            <>
              <div className="wl-state">{auctionStatus(w.lot).label}</div>
              <div className="lw-sub">{auctionStatus(w.lot).saleType ?? ''}</div>
            </>
          ) : (
            '–'
          ),
      }),
      col.accessor((w) => w.lot?.auction_at ?? Number.MAX_SAFE_INTEGER, {
        id: 'auction',
        header: 'Sale',
        meta: { className: 'num' } satisfies LwColumnMeta,
        cell: ({ row: { original: w } }) => <SaleCell lot={w.lot} />,
      }),
      col.accessor((w) => w.last_checked_at ?? 0, {
        id: 'checked',
        header: 'Checked',
        meta: { className: 'nowrap' } satisfies LwColumnMeta,
        cell: ({ row: { original: w } }) => <CheckedCell w={w} />,
      }),
      col.display({
        id: 'actions',
        header: () => <span className="visually-hidden">Actions</span>,
        cell: ({ row: { original: w } }) => (
          <div className="wl-actions">
            {w.last_error && (
              <span className="lw-error-text wl-err" title={w.last_error}>
                ⚠ {w.last_error}
              </span>
            )}
            <div className="wl-buttons">
              <button
                type="button"
                className="lw-small"
                onClick={() => void checkNow(w)}
                disabled={checking.has(w.id)}
                aria-label={`Check ${w.lot?.title ?? w.vin ?? 'watch'} now`}
              >
                {checking.has(w.id) ? 'Checking…' : 'Check now'}
              </button>
              <button
                type="button"
                className="lw-small"
                aria-pressed={rulesFor === w.id}
                aria-label={`Alert rules for ${w.lot?.title ?? w.vin ?? 'watch'}`}
                onClick={() => setRulesFor(rulesFor === w.id ? null : w.id)}
              >
                Rules
              </button>
              <ConfirmAction
                label="Remove"
                question="Stop watching?"
                confirmLabel="Remove"
                onConfirm={() => void remove(w)}
              />
            </div>
          </div>
        ),
      }),
    ],
    // The cells read the latest handlers and busy state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [checking, rulesFor],
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
  });

  const editing = watches.find((w) => w.id === rulesFor) ?? null;
  const examples = watches.filter((w) => w.is_example).length;

  return (
    <section className="lw-view wl" aria-label="Watchlist">
      <WatchingBanner />
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
      {editing && (
        <RulesPanel
          key={editing.id}
          watch={editing}
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
        <LwTable table={table} label="Watched vehicles" rowHeight={60} maxHeight="calc(100vh - 290px)" />
      )}
    </section>
  );
}

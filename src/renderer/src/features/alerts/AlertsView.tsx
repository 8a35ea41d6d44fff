import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { AlertView } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { parseLotKey, pollTargetKey, type AlertRules } from '../../../../shared/watch';
import { openLot } from '../../app/navigation';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ExportMark } from '../../components/ExportMark';
import { EmptyState, Progress, useContractEvents, useNow } from '../../components/watch/common';
import { useApi } from '../../api/ApiContext';
import { dateTime, KIND_SHORT, platformName, relative } from '../../lib/format';
import { useCall, useCaller } from '../../lib/useCall';
import './alerts.css';
import { appNow } from '../../lib/clock';
import { deliveryTrouble, deliveryWords } from '../settings/ChannelsSection';

/** Alerts of one lot, of one watched call (`callSource`), or of Lotwatch itself (both null), newest first. */
export interface AlertGroup {
  lotKey: string | null;
  /** The source `call:<id>` of a watched call's alerts; null for a lot's or Lotwatch's. */
  callSource?: string | null;
  alerts: AlertView[];
  unread: number;
  newest: number;
}

/** The id of a watched call from an alert's source `call:<id>`, or null for any other source. */
export function callIdOf(source: string): number | null {
  const m = /^call:(\d{1,15})$/.exec(source);
  return m ? Number(m[1]) : null;
}

/**
 * Groups alerts by lot, and a watched call's alerts (no lot, source `call:<id>`) by call: groups with unread alerts
 * first, then by their newest alert; each group newest first.
 */
export function groupAlerts(alerts: AlertView[]): AlertGroup[] {
  const by = new Map<string, AlertGroup>();
  for (const a of alerts) {
    const call = a.lot_key === null && callIdOf(a.source) !== null ? a.source : null;
    const k = a.lot_key ?? call ?? '';
    let g = by.get(k);
    if (!g) {
      g = { lotKey: a.lot_key, alerts: [], unread: 0, newest: 0 };
      if (call) g.callSource = call;
      by.set(k, g);
    }
    g.alerts.push(a);
    if (!a.read) g.unread++;
    g.newest = Math.max(g.newest, a.created_at);
  }
  const groups = [...by.values()];
  for (const g of groups) g.alerts.sort((x, y) => y.created_at - x.created_at || y.id - x.id);
  groups.sort((x, y) => Number(y.unread > 0) - Number(x.unread > 0) || y.newest - x.newest);
  return groups;
}

/**
 * How an alert was or will be delivered, in one phrase (docs/writing-guide.md rules 1 and 4: no reason codes, no
 * "digest", said once): held for quiet hours or sent in their summary (delivery `digest`), or why it was kept quiet
 * (delivery `suppressed`, by reason `muted`, `snoozed` or `cap`; see core's deliveryFor). `cap` is the hourly limit
 * of alerts per lot in the rules that decided (null when unknown). Null for an alert delivered at once. Pure.
 */
export function deliveryPhrase(
  a: Pick<AlertView, 'delivery' | 'status' | 'reason' | 'lot_key'> & { source?: string },
  cap: number | null,
): string | null {
  if (a.delivery === 'digest') {
    return a.status === 'digest'
      ? 'Held for quiet hours; arrives in one summary when they end'
      : 'Sent in the quiet-hours summary';
  }
  if (a.delivery !== 'suppressed') return null;
  const lot =
    a.lot_key !== null
      ? 'this lot'
      : a.source !== undefined && callIdOf(a.source) !== null
        ? 'this watched call'
        : 'Lotwatch';
  switch (a.reason) {
    case 'muted':
      return `Kept quiet: ${lot} was muted`;
    case 'snoozed':
      return `Kept quiet: ${lot} was snoozed`;
    case 'cap':
      return cap === null
        ? `Kept quiet: too many alerts for ${lot} within an hour`
        : `Kept quiet: more than ${cap} alert${cap === 1 ? '' : 's'} for ${lot} within an hour`;
    default:
      return 'Kept quiet by your alert rules';
  }
}

/** ` · text` after the alert's time, or nothing. */
function dotted(text: string | null): string {
  return text ? ` · ${text}` : '';
}

/** The inbox's word for an alert's kind; the quiet-hours summary is a summary, never a "digest". */
function kindWord(kind: string): string {
  return kind === 'digest' ? 'Summary' : (KIND_SHORT[kind] ?? kind);
}

/**
 * The hourly alert limit per lot (`cap_per_lot_per_hour`) of each source of a capped alert (`watch:3`, `search:7`),
 * read from the watchlist's and the saved searches' rules (no request to the service); empty until read, or when
 * no alert in `alerts` was capped.
 */
function useCaps(alerts: AlertView[]): Map<string, number> {
  const call = useCaller();
  const need = alerts.some((a) => a.delivery === 'suppressed' && a.reason === 'cap');
  const [caps, setCaps] = useState<Map<string, number>>(new Map());
  useEffect(() => {
    if (!need) return;
    let live = true;
    void Promise.all([call('watchlist.list'), call('searches.list')]).then(([w, s]) => {
      if (!live) return;
      const m = new Map<string, number>();
      const add = (kind: 'watch' | 'search', xs: { id: number; rules: AlertRules }[]) => {
        for (const x of xs) m.set(pollTargetKey({ kind, id: x.id }), x.rules.cap_per_lot_per_hour);
      };
      add('watch', w.ok ? w.value : []);
      add('search', s.ok ? s.value : []);
      setCaps(m);
    });
    return () => {
      live = false;
    };
  }, [call, need]);
  return caps;
}

/**
 * The names of the watched calls whose alerts are shown (`callWatches.list`, no request to the service), by source
 * `call:<id>`; empty until read, or when no alert comes from a watched call.
 */
function useCallNames(alerts: AlertView[]): Map<string, string> {
  const call = useCaller();
  const need = alerts.some((a) => callIdOf(a.source) !== null);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    if (!need) return;
    let live = true;
    void call('callWatches.list').then((r) => {
      if (live && r.ok) setNames(new Map(r.value.map((w) => [`call:${w.id}`, w.name])));
    });
    return () => {
      live = false;
    };
  }, [call, need]);
  return names;
}

/** Whether a link an alert carries may open outside the app (http or https only). */
function isWebLink(url: string | null): url is string {
  return url !== null && /^https?:\/\//i.test(url);
}

/** Lot titles for group headings, read from stored data (`lots.get` works offline); cached per session. */
const titleCache = new Map<string, string | null>();
function useLotTitles(keys: string[]): Map<string, string | null> {
  const api = useApi();
  const [, bump] = useState(0);
  const wanted = keys.filter((k) => !titleCache.has(k)).slice(0, 40);
  const sig = wanted.join('|');
  useEffect(() => {
    if (!sig) return;
    let live = true;
    void Promise.all(
      sig.split('|').map(async (k) => {
        const r = await api.invoke('lots.get', { lot_key: k });
        titleCache.set(k, r.ok ? r.value.summary.title : null);
      }),
    ).then(() => {
      if (live) bump((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [api, sig]);
  return titleCache;
}

function tomorrowAt8(now: number): number {
  const d = new Date(now);
  d.setDate(d.getDate() + 1);
  d.setHours(8, 0, 0, 0);
  return d.getTime();
}

function lotLabel(key: string): string {
  const k = parseLotKey(key);
  return k ? `${platformName(k.platform)} · lot ${k.lot_number}` : key;
}

/** Snooze and mute for one lot's alerts. */
function GroupActions({
  lotKey,
  muted,
  onDone,
  onError,
}: {
  lotKey: string;
  muted: boolean;
  onDone: (text: string, muted?: boolean) => void;
  onError: (e: ErrorPayload) => void;
}) {
  const call = useCaller();
  const [busy, setBusy] = useState(false);
  const snooze = async (choice: string) => {
    if (!choice) return;
    setBusy(true);
    const now = appNow();
    const input =
      choice === 'hour'
        ? { lot_key: lotKey, until: now + 3600_000 }
        : choice === 'tomorrow'
          ? { lot_key: lotKey, until: tomorrowAt8(now) }
          : { lot_key: lotKey, until_event: 'sale_result' as const };
    const r = await call('alerts.snooze', input);
    setBusy(false);
    if (r.ok) {
      onDone(
        choice === 'hour'
          ? `Snoozed ${lotLabel(lotKey)} for an hour.`
          : choice === 'tomorrow'
            ? `Snoozed ${lotLabel(lotKey)} until ${dateTime(tomorrowAt8(now))}.`
            : `Snoozed ${lotLabel(lotKey)} until it sells.`,
      );
    } else onError(r.error);
  };
  const mute = async () => {
    setBusy(true);
    const r = await call('alerts.mute', { lot_key: lotKey, muted: !muted });
    setBusy(false);
    if (r.ok)
      onDone(
        r.value.rules.muted ? `Muted ${lotLabel(lotKey)}.` : `Unmuted ${lotLabel(lotKey)}.`,
        r.value.rules.muted,
      );
    else onError(r.error);
  };
  return (
    <div className="al-group-actions">
      <select
        aria-label={`Snooze ${lotLabel(lotKey)}`}
        value=""
        disabled={busy}
        onChange={(e) => void snooze(e.target.value)}
        className="al-snooze"
      >
        <option value="">Snooze…</option>
        <option value="hour">For 1 hour</option>
        <option value="tomorrow">Until tomorrow 8:00</option>
        <option value="sale_result">Until its sale result</option>
      </select>
      <button
        type="button"
        className="lw-small"
        disabled={busy}
        onClick={() => void mute()}
        aria-pressed={muted}
      >
        {muted ? 'Unmute' : 'Mute lot'}
      </button>
    </div>
  );
}

/**
 * The alerts inbox: unread first, grouped by lot, newest first in each group. Arrow keys move between alerts,
 * Enter opens the lot, r toggles read. New alerts appear as they are raised.
 */
export function AlertsView() {
  const call = useCaller();
  const list = useCall('alerts.list', { limit: 500 });
  const { run } = list;
  const now = useNow();
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [muted, setMuted] = useState<Map<string, boolean>>(new Map());
  const [active, setActive] = useState<number | null>(null);
  const [fresh, setFresh] = useState<Set<number>>(new Set());
  const listRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<HTMLElement>(null);

  const deliveriesTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useContractEvents((e) => {
    if (e.name === 'alert.raised') {
      setFresh((s) => new Set(s).add(e.payload.id));
      void run();
    } else if (e.name === 'deliveries.changed' && !deliveriesTimer.current) {
      // Deliveries change in bursts (a quiet-hours summary to three channels): one refresh per burst.
      deliveriesTimer.current = setTimeout(() => {
        deliveriesTimer.current = null;
        void run();
      }, 300);
    }
  });
  useEffect(
    () => () => {
      if (deliveriesTimer.current) clearTimeout(deliveriesTimer.current);
    },
    [],
  );

  const alerts = useMemo(() => list.data?.alerts ?? [], [list.data]);
  const groups = useMemo(() => groupAlerts(alerts), [alerts]);
  const order = useMemo(() => groups.flatMap((g) => g.alerts.map((a) => a.id)), [groups]);
  const titles = useLotTitles(groups.flatMap((g) => (g.lotKey ? [g.lotKey] : [])));
  const caps = useCaps(alerts);
  const callNames = useCallNames(alerts);
  const unread = list.data?.unread ?? 0;
  const focusId = active !== null && order.includes(active) ? active : (order[0] ?? null);

  const markRead = async (ids: number[], read: boolean) => {
    if (ids.length === 0) return;
    const r = await call('alerts.markRead', { ids, read });
    if (r.ok) setError(null);
    else setError(r.error);
    await run();
  };
  const open = (a: AlertView) => {
    if (!a.read) void call('alerts.markRead', { ids: [a.id], read: true });
    if (a.lot_key) openLot(a.lot_key);
  };
  const focusAlert = (id: number) => {
    setActive(id);
    listRef.current?.querySelector<HTMLElement>(`[data-alert-id="${id}"]`)?.focus();
  };
  /** The inbox's keys, on the alert `a` (the focused one, or the current one when nothing has focus yet). */
  const handleKey = (
    e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; preventDefault(): void },
    a: AlertView,
    focused: boolean,
  ) => {
    const i = order.indexOf(a.id);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      // From the page, the first arrow lands on the current alert; from an alert, it moves on.
      const next = !focused
        ? a.id
        : order[e.key === 'ArrowDown' ? Math.min(order.length - 1, i + 1) : Math.max(0, i - 1)];
      if (next !== undefined) focusAlert(next);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const next = e.key === 'Home' ? order[0] : order[order.length - 1];
      if (next !== undefined) focusAlert(next);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      open(a);
    } else if (e.key === 'r' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      if (!focused) focusAlert(a.id);
      void markRead([a.id], !a.read);
    }
  };
  const onKey = (e: KeyboardEvent<HTMLElement>, a: AlertView) => {
    if (e.target !== e.currentTarget) return;
    handleKey(e, a, true);
  };
  // The keys work as soon as the view opens: while focus rests on the page itself (nothing focused, or the main
  // area after "Skip to main content"), they act on the current alert. Fields, buttons and links keep their keys.
  // Both are set as the list is drawn (layout effects), not after it: a key pressed the moment the alerts appear
  // must find the handler and the alerts it sees, not the empty page's.
  const pageKeys = useRef<(e: globalThis.KeyboardEvent) => void>(() => undefined);
  useLayoutEffect(() => {
    pageKeys.current = (e) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target;
      const idle =
        t === document.body ||
        t === document.documentElement ||
        (t instanceof HTMLElement && (t.id === 'content' || t === viewRef.current));
      const a = alerts.find((x) => x.id === focusId);
      if (idle && a) handleKey(e, a, false);
    };
  });
  useLayoutEffect(() => {
    const onPageKey = (e: globalThis.KeyboardEvent) => pageKeys.current(e);
    window.addEventListener('keydown', onPageKey);
    return () => window.removeEventListener('keydown', onPageKey);
  }, []);

  return (
    <section className="lw-view al" aria-label="Alerts inbox" ref={viewRef}>
      <div className="lw-toolbar">
        <span className="al-count" aria-live="polite">
          {list.data ? unread > 0 ? <strong>{unread} unread</strong> : 'All read' : ''}
          {list.data ? <span className="muted"> · {alerts.length} shown</span> : null}
        </span>
        {note && (
          <span className="al-note" role="status">
            {note}
          </span>
        )}
        <span className="spacer" />
        <span className="lw-sub al-keys" aria-hidden="true">
          ↑↓ move · Enter open · r read/unread
        </span>
        <button
          type="button"
          disabled={!alerts.some((a) => !a.read)}
          onClick={() =>
            void markRead(
              alerts.filter((a) => !a.read).map((a) => a.id),
              true,
            )
          }
        >
          Mark all read
        </button>
      </div>
      {list.error && <ErrorNotice error={list.error} onRetry={() => void run()} />}
      {error && <ErrorNotice error={error} />}
      {!list.data && list.loading && <Progress label="Loading alerts…" />}
      {list.data && alerts.length === 0 && (
        <EmptyState title="No alerts yet">
          Alerts land here when a watched lot or a saved search changes in a way your rules care about. Watch
          a lot or save a search to start.
        </EmptyState>
      )}
      <div className="al-groups" ref={listRef}>
        {groups.map((g) => {
          const key = g.lotKey;
          const callSource = g.callSource ?? null;
          const title = key
            ? (titles.get(key) ?? null)
            : callSource
              ? (callNames.get(callSource) ?? `Watched call ${callIdOf(callSource) ?? ''}`)
              : null;
          const headingId = `al-g-${key ?? callSource ?? 'lotwatch'}`.replace(/[^a-zA-Z0-9_-]/g, '-');
          return (
            <section key={key ?? callSource ?? ''} className="al-group lw-panel" aria-labelledby={headingId}>
              <header className="al-group-head">
                <h2 id={headingId}>
                  {key ? (
                    <button type="button" className="lw-link" onClick={() => openLot(key)}>
                      {title ?? lotLabel(key)}
                    </button>
                  ) : (
                    (title ?? 'Lotwatch')
                  )}
                </h2>
                <span className="lw-sub">
                  {key ? (title ? lotLabel(key) : '') : callSource ? 'Watched call' : 'About Lotwatch itself'}
                </span>
                <ExportMark block={g.alerts[0]?.lot_export_block} />
                {g.unread > 0 && <span className="lw-badge accent">{g.unread} unread</span>}
                <span className="spacer" />
                {key && (
                  <GroupActions
                    lotKey={key}
                    muted={muted.get(key) ?? false}
                    onError={setError}
                    onDone={(text, m) => {
                      setError(null);
                      setNote(text);
                      if (m !== undefined) setMuted((x) => new Map(x).set(key, m));
                    }}
                  />
                )}
              </header>
              <ul
                className="al-list"
                aria-label={`Alerts for ${title ?? (key ? lotLabel(key) : 'Lotwatch')}`}
              >
                {g.alerts.map((a) => (
                  <li
                    key={a.id}
                    data-alert-id={a.id}
                    tabIndex={a.id === focusId ? 0 : -1}
                    className={`al-item${a.read ? ' read' : ' unread'}${fresh.has(a.id) ? ' fresh' : ''}`}
                    aria-label={`${a.read ? '' : 'Unread. '}${a.title}. ${a.body}`}
                    onFocus={() => setActive(a.id)}
                    onKeyDown={(e) => onKey(e, a)}
                    onClick={(e) => {
                      if ((e.target as HTMLElement).closest('button, a')) return;
                      open(a);
                    }}
                  >
                    <span className="al-dot" aria-hidden="true" />
                    <div className="al-main">
                      <div className="al-title-line">
                        <span className="al-kind">{kindWord(a.kind)}</span>
                        <span className="al-title">{a.title}</span>
                      </div>
                      <div className="al-body">{a.body}</div>
                      {(a.lot_notes || a.lot_tags.length > 0) && (
                        <div className="lw-sub al-notes" title={a.lot_notes}>
                          {a.lot_tags.map((t) => (
                            <span key={t} className="lw-badge tag">
                              {t}
                            </span>
                          ))}
                          {a.lot_notes && <span className="al-note-text">Your note: {a.lot_notes}</span>}
                        </div>
                      )}
                      <div className="lw-sub">
                        <span title={dateTime(a.created_at)}>{relative(a.created_at, now)}</span>
                        {dotted(deliveryPhrase(a, caps.get(a.source) ?? null))}
                        {isWebLink(a.url) && (
                          <>
                            {' · '}
                            {/* Opened outside the app, as a lot's page on the auction site is (main/shell.ts). */}
                            <a
                              className="al-open"
                              href={a.url}
                              target="_blank"
                              rel="noreferrer noopener"
                              title={a.url}
                              aria-label={`Open ${a.title} (${a.url})`}
                            >
                              Open ↗
                            </a>
                          </>
                        )}
                      </div>
                      {a.deliveries.length > 0 && (
                        <ul className="al-deliveries" aria-label="Sent to alert channels">
                          {a.deliveries
                            .filter((d) => d.status !== 'skipped')
                            .map((d) => (
                              <li
                                key={d.id}
                                className={`al-delivery${deliveryTrouble(d) ? ' trouble' : ''}`}
                                title={`${d.channel_name} · ${deliveryWords(d, now, 'chip')}`}
                              >
                                <span className="al-delivery-channel">{d.channel_name}</span> ·{' '}
                                <span className="al-delivery-status">{deliveryWords(d, now, 'chip')}</span>
                              </li>
                            ))}
                          {/* Channels that do not send this alert by design (its kind, a mute): one quiet chip, the
                              reasons on hover and in Settings' delivery log. */}
                          {a.deliveries.some((d) => d.status === 'skipped') && (
                            <li
                              className="al-delivery"
                              title={a.deliveries
                                .filter((d) => d.status === 'skipped')
                                .map((d) => `${d.channel_name}: ${d.detail ?? 'not sent'}`)
                                .join('\n')}
                            >
                              Not sent to{' '}
                              {a.deliveries
                                .filter((d) => d.status === 'skipped')
                                .map((d) => d.channel_name)
                                .join(', ')}
                            </li>
                          )}
                        </ul>
                      )}
                    </div>
                    <button
                      type="button"
                      className="lw-small al-read"
                      tabIndex={-1}
                      onClick={() => void markRead([a.id], !a.read)}
                    >
                      {a.read ? 'Mark unread' : 'Mark read'}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </section>
  );
}

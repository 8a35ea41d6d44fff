import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { ContractEvent } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { useApi } from '../../api/ApiContext';
import { appNow } from '../../lib/clock';
import { andList } from '../../lib/format';
import './common.css';

/* One shared one-second clock, so a table of countdowns costs one timer, not one per row. */
const tickers = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let tickNow = appNow();
function subscribeTick(cb: () => void): () => void {
  tickers.add(cb);
  if (!timer) {
    tickNow = appNow();
    timer = setInterval(() => {
      tickNow = appNow();
      for (const t of tickers) t();
    }, 1000);
  }
  return () => {
    tickers.delete(cb);
    if (tickers.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time in ms, updated every second while the component is mounted. */
export function useNow(): number {
  return useSyncExternalStore(
    subscribeTick,
    () => tickNow,
    () => tickNow,
  );
}

/** Subscribes to contract events for the component's lifetime; the latest listener is always the one called. */
export function useContractEvents(listener: (e: ContractEvent) => void): void {
  const api = useApi();
  const ref = useRef(listener);
  useEffect(() => {
    ref.current = listener;
  });
  useEffect(() => api.on((e) => ref.current(e)), [api]);
}

/** A small badge that marks example data installed on first run. */
export function ExampleBadge() {
  return (
    <span
      className="lw-badge example"
      title="Installed as an example on first run; remove it when you have your own"
    >
      Example
    </span>
  );
}

/**
 * A destructive action that asks first, in place: the button turns into "Remove? Yes / Cancel". Escape or
 * Cancel steps back; focus moves to the confirming button so Enter confirms.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  onConfirm,
  busy,
  className,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        ref={opener}
        className={className ?? 'lw-small'}
        disabled={busy}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  const cancel = () => {
    setAsking(false);
    requestAnimationFrame(() => opener.current?.focus());
  };
  return (
    <span
      className="lw-confirm"
      role="group"
      aria-label={question}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          cancel();
        }
      }}
    >
      <span className="lw-confirm-q">{question}</span>
      <button
        type="button"
        ref={yes}
        className="lw-small danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="lw-small" onClick={cancel}>
        Cancel
      </button>
    </span>
  );
}

/** An indeterminate progress line with a label, for calls that take a while. */
export function Progress({ label }: { label: string }) {
  return (
    <span className="lw-progress" role="status">
      <span className="lw-spinner" aria-hidden="true" />
      {label}
    </span>
  );
}

/** A calm empty state: what is (not) here and what to do next. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="lw-empty">
      <strong>{title}</strong>
      {children && <div className="muted">{children}</div>}
    </div>
  );
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
function clock(h: number, m: number): string {
  const hh = h % 12 === 0 ? 12 : h % 12;
  return `${hh}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/**
 * A cron schedule in words for the common shapes (every N minutes, hourly, every N hours, daily, weekly);
 * anything else is shown as the expression itself.
 */
export function cronInWords(expr: string): string {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) return expr;
  const [min, hour, dom, mon, dow] = parts as [string, string, string, string, string];
  const anyDay = dom === '*' && mon === '*' && dow === '*';
  const int = (s: string) => (/^\d+$/.test(s) ? Number(s) : null);
  if (anyDay && hour === '*') {
    if (min === '*') return 'every minute';
    const n = /^\*\/(\d+)$/.exec(min);
    if (n?.[1]) return Number(n[1]) === 1 ? 'every minute' : `every ${n[1]} minutes`;
    if (min === '0') return 'hourly';
    if (int(min) !== null) return `hourly at :${min.padStart(2, '0')}`;
  }
  const m = int(min);
  if (anyDay && m !== null) {
    const nh = /^\*\/(\d+)$/.exec(hour);
    if (nh?.[1]) return Number(nh[1]) === 1 ? 'hourly' : `every ${nh[1]} hours`;
    const h = int(hour);
    if (h !== null && h < 24) return `daily at ${clock(h, m)}`;
  }
  const h = int(hour);
  const d = int(dow);
  if (m !== null && h !== null && dom === '*' && mon === '*' && d !== null && d < 7) {
    return `${DAYS[d] ?? ''}s at ${clock(h, m)}`;
  }
  if (m !== null && h !== null && dom === '*' && mon === '*' && dow === '1-5')
    return `weekdays at ${clock(h, m)}`;
  return expr;
}

const plural = (n: number, one: string, many: string) => `${n} example ${n === 1 ? one : many}`;

/**
 * "Remove examples (N)": asks first, then removes every Demo-mode example (saved searches and watches alike,
 * `examples.remove`). `lead` names what the view lists, so its own kind comes first in the question and the
 * note. Reports `onDone(note)` or `onError(error)`; the view refreshes its list after either.
 */
export function RemoveExamples({
  count,
  lead,
  onDone,
  onError,
}: {
  count: number;
  lead: 'searches' | 'watches';
  onDone: (note: string) => void;
  onError: (e: ErrorPayload) => void;
}) {
  const api = useApi();
  if (count <= 0) return null;
  const both = lead === 'searches' ? 'searches and watches' : 'watches and searches';
  const remove = async () => {
    const r = await api.invoke('examples.remove');
    if (!r.ok) return onError(r.error);
    const s = plural(r.value.searches, 'search', 'searches');
    const w = plural(r.value.watches, 'watch', 'watches');
    const parts = lead === 'searches' ? [s, w] : [w, s];
    if (r.value.calls > 0) parts.push(plural(r.value.calls, 'watched call', 'watched calls'));
    onDone(`Removed ${andList(parts)}.`);
  };
  return (
    <ConfirmAction
      label={`Remove examples (${count})`}
      question={`Remove all example ${both}?`}
      confirmLabel="Remove examples"
      onConfirm={() => void remove()}
    />
  );
}

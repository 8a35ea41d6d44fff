import { useEffect, useState } from 'react';
import type { WatchingState } from '../../../shared/watching';
import { quotaSpentSentence } from '../../../shared/quota';
import { useApi } from '../api/ApiContext';
import { dateTime } from '../lib/format';
import './watchingState.css';

/**
 * The one state of watching, live: asked once (`status.get`'s `watching`), then followed through
 * `watching.changed`, which core sends the moment the state changes (a pause begins or ends, the service goes or
 * comes back, the key is refused). Null until the first answer.
 */
export function useWatchingState(): WatchingState | null {
  const api = useApi();
  const [state, setState] = useState<WatchingState | null>(null);
  useEffect(() => {
    let live = true;
    let heard = false;
    const off = api.on((e) => {
      if (e.name !== 'watching.changed') return;
      heard = true;
      setState(e.payload);
    });
    void api.invoke('status.get').then((r) => {
      // An event that arrived while the question was on its way is newer than the answer.
      if (live && !heard && r.ok) setState(r.value.watching);
    });
    return () => {
      live = false;
      off();
    };
  }, [api]);
  return state;
}

/** What a state says: a short label (the header's pill), the sentence that explains it, and its tone. */
export function watchingWords(s: WatchingState): {
  label: string;
  detail: string;
  tone: 'ok' | 'paused' | 'problem';
} {
  switch (s.kind) {
    case 'running':
      return {
        // Shown only under Usage's "Watching" heading (the pill and the banner hide this state), so not the
        // heading's word again.
        label: 'On',
        detail: 'Saved searches and watched lots are checked on their schedules.',
        tone: 'ok',
      };
    case 'paused_by_buyer':
      return {
        label: 'Paused',
        detail: `You paused watching until ${dateTime(s.until)}. No check runs until then.`,
        tone: 'paused',
      };
    case 'quota_spent':
      return {
        label: 'Paused: quota used up',
        detail: `${quotaSpentSentence(s.until)} Saved searches and watched lots are not checked until then.`,
        tone: 'paused',
      };
    case 'rate_limited':
      return {
        label: 'Paused briefly',
        detail: `The service asked for fewer requests a second. Checks go on at ${dateTime(s.until)}.`,
        tone: 'paused',
      };
    case 'offline':
      return {
        label: 'Offline',
        detail:
          'The auction data service cannot be reached; Lotwatch shows what it has stored and tries again on its schedule.',
        tone: 'problem',
      };
    case 'key_rejected':
      return {
        label: 'API key refused',
        detail:
          'The service refused the API key. Nothing is checked until you enter a working key in Settings.',
        tone: 'problem',
      };
    case 'no_key':
      return {
        label: 'Not watching',
        detail: 'No API key is set for the service. Enter one in Settings, or turn on Demo mode.',
        tone: 'problem',
      };
  }
}

/**
 * The state of watching drawn the same way wherever it appears: `pill` in the header (the label, the sentence on
 * hover and for screen readers), `panel` in Usage's top card and the watchlist's banner (the label and the
 * sentence). `hideRunning`: nothing is drawn while watching runs normally (the header and the banner speak only
 * when something holds the watcher back).
 */
export function WatchingStateNotice({
  state,
  variant,
  hideRunning = false,
}: {
  state: WatchingState | null;
  variant: 'pill' | 'panel';
  hideRunning?: boolean;
}) {
  if (state === null || (hideRunning && state.kind === 'running')) return null;
  const w = watchingWords(state);
  if (variant === 'pill') {
    return (
      <span
        className={`watching-state watching-pill watching-${w.tone}`}
        role="status"
        data-watching={state.kind}
        title={w.detail}
      >
        {w.label}
        <span className="visually-hidden">: {w.detail}</span>
      </span>
    );
  }
  return (
    <div
      className={`watching-state watching-panel watching-${w.tone}`}
      role="status"
      data-watching={state.kind}
    >
      <strong className="watching-label">{w.label}</strong>{' '}
      <span className="watching-detail">{w.detail}</span>
    </div>
  );
}

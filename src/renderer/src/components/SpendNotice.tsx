import { useEffect, useRef, useState } from 'react';
import type { Method } from '../../../shared/ipc/contract';
import type { Settings } from '../../../shared/settings';
import { useApi } from '../api/ApiContext';
import { integer } from '../lib/quantity';
import { setSpendHost, type SpendAsk } from '../lib/spendNotice';
import type { AppStore } from '../app/appStore';

type Waiting = { ask: SpendAsk; resolve: (go: boolean) => void };

/** Resolves once the frame's settings are loaded (null when loading failed: then nothing is known). */
function loadedSettings(store: AppStore): Promise<Settings | null> {
  const now = store.getState();
  if (now.settings || now.loadError) return Promise.resolve(now.settings);
  return new Promise((resolve) => {
    const off = store.subscribe((s) => {
      if (s.settings || s.loadError) {
        off();
        resolve(s.settings);
      }
    });
  });
}

/**
 * The one-time spend notice (lib/spendNotice.ts): before the first request of each kind of action with a real key,
 * "Searching uses 1 request of your quota for each page of results (57 left this period)." with Continue and
 * Cancel. Continue is remembered in settings (`spendNoticesSeen`), so it is said once; Cancel sends nothing and asks
 * again next time. Demo mode spends no real quota, and without a key nothing is sent: no notice then. Mounted once
 * by the app frame; calls that arrive together wait for one answer.
 */
export function SpendNoticeHost({ store }: { store: AppStore }) {
  const api = useApi();
  const [current, setCurrent] = useState<{ ask: SpendAsk; left: number | null } | null>(null);
  const waiting = useRef<Waiting[]>([]);
  const showing = useRef(false);
  const acknowledged = useRef(new Set<Method>());
  const continueRef = useRef<HTMLButtonElement>(null);
  /** The answer to the notice shown (Continue: true), set up with the host below. */
  const answer = useRef<(go: boolean) => void>(() => undefined);

  useEffect(() => {
    const next = async () => {
      if (showing.current) return;
      const first = waiting.current[0];
      if (!first) return;
      showing.current = true;
      const status = await api.invoke('status.get');
      if (status.ok && !status.value.key.set) {
        // No key: core refuses before sending, so there is nothing to warn about.
        settle(first.ask.method, true, false);
        return;
      }
      setCurrent({ ask: first.ask, left: status.ok ? (status.value.quota?.remaining ?? null) : null });
    };
    const settle = (method: Method, go: boolean, remember: boolean) => {
      if (remember) acknowledged.current.add(method);
      const done = waiting.current.filter((w) => w.ask.method === method);
      waiting.current = waiting.current.filter((w) => w.ask.method !== method);
      for (const w of done) w.resolve(go);
      showing.current = false;
      setCurrent(null);
      void next();
    };
    answer.current = (go: boolean) => {
      const c = waiting.current[0];
      if (!c) return;
      if (go) {
        const seen = store.getState().settings?.spendNoticesSeen ?? [];
        void api.invoke('settings.update', {
          spendNoticesSeen: [...new Set([...seen, ...acknowledged.current, c.ask.method])],
        });
      }
      settle(c.ask.method, go, go);
    };
    return setSpendHost(async (ask) => {
      const s = await loadedSettings(store);
      if (!s || s.demoMode || s.spendNoticesSeen.includes(ask.method) || acknowledged.current.has(ask.method))
        return true;
      return new Promise<boolean>((resolve) => {
        waiting.current.push({ ask, resolve });
        void next();
      });
    });
  }, [api, store]);

  useEffect(() => {
    if (current) continueRef.current?.focus();
  }, [current]);

  if (!current) return null;
  const left = current.left === null ? '' : ` (${integer(current.left)} left this period)`;
  return (
    <div
      className="spend-notice"
      role="alertdialog"
      aria-labelledby="spend-notice-text"
      aria-describedby="spend-notice-hint"
    >
      <p id="spend-notice-text">
        <strong>
          {current.ask.what}
          {left}.
        </strong>
      </p>
      <p className="muted small" id="spend-notice-hint">
        Lotwatch says this once for each kind of action.
      </p>
      <div className="actions">
        <button type="button" className="primary" ref={continueRef} onClick={() => answer.current(true)}>
          Continue
        </button>
        <button type="button" onClick={() => answer.current(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}

import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiContext';
import { platformName, usd } from '../lib/format';
import { useCall } from '../lib/useCall';
import { useNow } from '../lib/useNow';
import { openView, viewHref } from './navigation';
import { useUnreadCount } from './signals';

/**
 * When the first example alert is expected, in words: "within about 2 minutes" (whole minutes, rounded up, at
 * least 1), or null once that time has passed (the panel then points to Alerts). `at` and `now` in ms; null `at`
 * (unknown) gives null. Throws nothing.
 */
export function firstAlertWords(at: number | null, now: number): string | null {
  if (at === null || at <= now) return null;
  const min = Math.max(1, Math.ceil((at - now) / 60_000));
  return `within about ${min} minute${min === 1 ? '' : 's'}`;
}

/**
 * Demo mode's first-run panel (shown in Demo mode only, above the view, until dismissed for good): which example
 * lots are watched (lot number and vehicle), what alerts and when (from the time the examples' first alert is
 * expected, `examples.intro`), and how to use a real key (Settings). The examples are made just after the app
 * starts, so the panel reads the watchlist again every 3 s (for a minute at most) until they are there, and after
 * every poll.
 */
export function DemoIntro() {
  const api = useApi();
  const now = useNow(5_000);
  const introCall = useCall('examples.intro');
  const listCall = useCall('watchlist.list');
  const [closed, setClosed] = useState(false);
  const runIntro = introCall.run;
  const runList = listCall.run;
  const intro = introCall.data;
  const examples = listCall.data?.filter((w) => w.is_example) ?? null;

  useEffect(
    () =>
      api.on((e) => {
        if (e.name === 'poll.finished' || e.name === 'alert.raised') {
          void runIntro();
          void runList();
        }
      }),
    [api, runIntro, runList],
  );

  // The examples appear a moment after the start: look again until they do, for a minute at most (after that there
  // are none to show: removed, or never made).
  const [looks, setLooks] = useState(0);
  const waiting = examples !== null && examples.length === 0 && intro?.dismissed === false && looks < 20;
  useEffect(() => {
    if (!waiting) return;
    const t = setInterval(() => {
      setLooks((n) => n + 1);
      void runIntro();
      void runList();
    }, 3_000);
    return () => clearInterval(t);
  }, [waiting, runIntro, runList]);

  // Once an alert is in, the panel stops promising one: it points to where they are.
  const unread = useUnreadCount();
  if (closed || !intro || intro.dismissed || !examples || examples.length === 0) return null;

  const dismiss = async () => {
    setClosed(true);
    await api.invoke('examples.dismissIntro');
  };
  const soon = firstAlertWords(intro.first_alert_expected_at, now);
  const count = examples.length;
  return (
    <section className="demo-intro" aria-labelledby="demo-intro-heading">
      <h2 id="demo-intro-heading">
        Demo mode is watching {count === 1 ? 'one example lot' : `${count} example lots`} for you
      </h2>
      <ul className="demo-intro-lots">
        {examples.map((w) => (
          <li key={w.id}>
            <span className="demo-intro-lot">
              {platformName(w.lot?.platform)} lot {w.lot?.lot_number ?? w.lot_key ?? w.vin}
            </span>{' '}
            <span>{w.lot?.title ?? 'vehicle not loaded yet'}</span>
            {w.rules.bid_above_usd !== null && (
              <span className="muted"> · alerts when its bid reaches {usd(w.rules.bid_above_usd)}</span>
            )}
          </li>
        ))}
      </ul>
      <p>
        These lots go on the block in the simulated market within minutes. Lotwatch looks at them as their
        bids move and raises an alert in Alerts (and a notification) when a bid reaches the example rule, then
        again with the sale result.{' '}
        {unread !== null && unread > 0 ? (
          <strong>
            Your first alerts are in <a href={viewHref('alerts')}>Alerts</a>.
          </strong>
        ) : soon ? (
          <strong>First alert expected {soon}.</strong>
        ) : intro.first_alert_expected_at !== null ? (
          <strong>
            The first alert should be in <a href={viewHref('alerts')}>Alerts</a> now.
          </strong>
        ) : null}
      </p>
      <p>
        To watch real auctions, open <a href={viewHref('settings')}>Settings</a>, turn Demo mode off and paste
        your API key. The examples never use your key; Watchlist → &ldquo;Remove examples&rdquo; deletes them.
      </p>
      <div className="demo-intro-actions">
        <button type="button" className="primary" onClick={() => void dismiss()}>
          Got it, hide this
        </button>
        <button type="button" onClick={() => openView('watchlist')}>
          Open the watchlist
        </button>
      </div>
    </section>
  );
}

import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiContext';

/**
 * How many inbox alerts are unread, live: asked once, then followed through `unread.changed` (an alert arrived,
 * some were read in any window). Null until the first answer. A person should see that something happened
 * wherever they look, not only in the Alerts view.
 */
export function useUnreadCount(): number | null {
  const api = useApi();
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    let heard = false;
    const off = api.on((e) => {
      if (e.name !== 'unread.changed') return;
      heard = true;
      setCount(e.payload.count);
    });
    void api.invoke('alerts.unread').then((r) => {
      // An event that arrived while the question was on its way is newer than the answer.
      if (live && !heard && r.ok) setCount(r.value.count);
    });
    return () => {
      live = false;
      off();
    };
  }, [api]);
  return count;
}

/** The document title with the unread count in front ("(3) Lotwatch"), so the window's tab and task bar show it. */
export function titleWithUnread(count: number | null): string {
  return count && count > 0 ? `(${count}) Lotwatch` : 'Lotwatch';
}

/** Keeps the document title in step with the unread count. */
export function useUnreadTitle(count: number | null): void {
  useEffect(() => {
    document.title = titleWithUnread(count);
  }, [count]);
}

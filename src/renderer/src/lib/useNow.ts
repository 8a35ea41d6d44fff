import { useEffect, useState } from 'react';
import { appNow } from './clock';

/** Core's current time (ms, see lib/clock), refreshed every `everyMs`: for countdowns and relative dates. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => appNow());
  useEffect(() => {
    const t = setInterval(() => setNow(appNow()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

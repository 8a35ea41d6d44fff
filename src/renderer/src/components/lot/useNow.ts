import { useEffect, useState } from 'react';

/** The current time (ms), refreshed every `everyMs`: for countdowns and relative dates. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

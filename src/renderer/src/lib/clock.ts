/**
 * The app's time as core sees it. Core may run on an accelerated demo clock (`--demo-speed`), so the page's own
 * Date.now() would disagree with the watcher's: an alert raised "now" would read "in 6 minutes". Every countdown
 * and relative time in the UI reads appNow() instead.
 */
let base = { now: 0, speed: 1, at: 0 };

/** Aligns the app clock with core's, from `app.info` (`clock.now` ms since the epoch, `clock.speed` ≥ 1). */
export function syncAppClock(clock: { now: number; speed: number }): void {
  base = { now: clock.now, speed: clock.speed, at: Date.now() };
}

/** Core's current time, ms since the epoch: the page clock until core has said otherwise. */
export function appNow(): number {
  if (base.at === 0) return Date.now();
  return Math.floor(base.now + (Date.now() - base.at) * base.speed);
}

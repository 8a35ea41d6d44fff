import { addDays, format, setHours, startOfDay } from 'date-fns';
import { app, Menu, nativeImage, Tray, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import type { Core } from '../core/app';
import type { Clock } from '../core/clock';

const HOUR = 3_600_000;

/** What the tray shows: unread alerts, the next watched sale, and whether the buyer paused watching. Times in ms. */
export interface TrayState {
  unread: number;
  nextSale: { title: string; auction_at: number } | null;
  pausedUntil: number | null;
}

/** A time as the tray says it: `2:30 PM` today, `Tue 2:30 PM` on another day (the machine's time zone). */
function at(t: number, now: number): string {
  return format(t, startOfDay(t).getTime() === startOfDay(now).getTime() ? 'h:mm a' : 'EEE h:mm a');
}

/**
 * The tray icon's tooltip: what a buyer reads when the pointer rests on the icon. Line one is the unread count,
 * then the next watched sale, or that watching is paused and until when. Pure (time zone: the machine's).
 */
export function trayTooltip(s: TrayState, now: number): string {
  const lines = [
    s.unread === 0
      ? 'Lotwatch: no unread alerts'
      : `Lotwatch: ${s.unread.toLocaleString('en-US')} unread alert${s.unread === 1 ? '' : 's'}`,
  ];
  if (s.pausedUntil !== null && s.pausedUntil > now)
    lines.push(`Watching paused until ${at(s.pausedUntil, now)}`);
  else if (s.nextSale) lines.push(`Next sale ${at(s.nextSale.auction_at, now)}: ${s.nextSale.title}`);
  return lines.join('\n');
}

/** 8:00 AM tomorrow in the machine's time zone (ms): "pause until tomorrow" means until the working day starts. */
export function tomorrowMorning(now: number): number {
  return setHours(addDays(startOfDay(now), 1), 8).getTime();
}

/** A pause the tray offers: an hour, until tomorrow morning, or none (resume). */
export type TrayPause = 'hour' | 'tomorrow' | null;

/** Until when a tray pause chosen at `now` (ms) lasts; null for resume. */
export function pauseUntil(p: TrayPause, now: number): number | null {
  return p === 'hour' ? now + HOUR : p === 'tomorrow' ? tomorrowMorning(now) : null;
}

/**
 * The tray menu: open the window; pause watching for an hour or until tomorrow morning, or resume when paused; quit.
 * Pure: the items are built from the state at `now`, the actions are passed in (a pause's end is worked out when it
 * is clicked, not when the menu was built).
 */
export function trayMenu(
  s: TrayState,
  now: number,
  act: { open(): void; pause(p: TrayPause): void; quit(): void },
): MenuItemConstructorOptions[] {
  const paused = s.pausedUntil !== null && s.pausedUntil > now;
  return [
    { label: 'Open Lotwatch', click: act.open },
    { type: 'separator' },
    ...(paused
      ? [{ label: `Resume watching (paused until ${at(s.pausedUntil!, now)})`, click: () => act.pause(null) }]
      : [
          { label: 'Pause watching for 1 hour', click: () => act.pause('hour') },
          { label: 'Pause watching until tomorrow 8:00 AM', click: () => act.pause('tomorrow') },
        ]),
    { type: 'separator' },
    { label: 'Quit Lotwatch', click: act.quit },
  ];
}

/**
 * The desktop app's tray icon and its app badge (docs/architecture.md "One contract, two shells"): the unread count on the
 * badge and the tooltip, the next watched sale or the pause in the tooltip, and the menu above. Refreshed from core's
 * events (an alert, a poll, a settings change) and once a minute, so a new watch's sale and the end of a pause show. Returns the tray
 * (null when the desktop has no tray area: closing the window then quits) and `dispose`.
 */
export function startTray(
  core: Core,
  clock: Clock,
  getWindow: () => BrowserWindow | undefined,
  iconPath: string,
): { tray: Tray | null; dispose(): void } {
  const state: TrayState = { unread: 0, nextSale: null, pausedUntil: null };
  const open = () => {
    const w = getWindow();
    if (!w || w.isDestroyed()) return;
    if (w.isMinimized()) w.restore();
    w.show();
    w.focus();
  };
  const pause = (p: TrayPause) => {
    core.call('settings.update', { watchPausedUntil: pauseUntil(p, clock.now()) }).catch(() => undefined);
  };
  let tray: Tray | null = null;
  try {
    tray = new Tray(nativeImage.createFromPath(iconPath));
    tray.on('click', open);
  } catch {
    // No tray area on this desktop: the badge and the window title still carry the count.
    tray = null;
  }
  const paint = () => {
    const now = clock.now();
    try {
      app.setBadgeCount(state.unread);
    } catch {
      // Badges are not supported on every desktop; the tooltip and title still say it.
    }
    if (!tray) return;
    tray.setToolTip(trayTooltip(state, now));
    tray.setContextMenu(
      Menu.buildFromTemplate(trayMenu(state, now, { open, pause, quit: () => app.quit() })),
    );
  };
  // Bumped by each unread.changed and settings.changed event: a refresh that started before one must not paint its
  // older count or pause.
  let eventSeq = 0;
  const refresh = () => {
    const seq = eventSeq;
    Promise.all([
      core.call('alerts.unread', undefined),
      core.call('watchlist.nextSale', undefined),
      core.call('settings.get', undefined),
    ]).then(
      ([u, next, s]) => {
        state.nextSale = next;
        if (seq === eventSeq) {
          state.unread = u.count;
          state.pausedUntil = s.watchPausedUntil;
        }
        paint();
      },
      () => undefined, // Shutting down already: nothing to show.
    );
  };
  paint();
  refresh();
  const off = core.on((e) => {
    if (e.name === 'unread.changed') {
      eventSeq++;
      state.unread = e.payload.count;
      paint();
    } else if (e.name === 'settings.changed') {
      eventSeq++;
      state.pausedUntil = e.payload.watchPausedUntil;
      paint();
    } else if (e.name === 'poll.finished') refresh();
  });
  let cancel = clock.setTimeout(function tick() {
    refresh();
    cancel = clock.setTimeout(tick, 60_000);
  }, 60_000);
  return {
    tray,
    dispose() {
      off();
      cancel();
      tray?.destroy();
    },
  };
}

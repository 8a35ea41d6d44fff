import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNEL, RPC_CHANNEL } from '../../src/shared/ipc/channels';
import { makeBackup } from '../../src/core/db/backup';
import { closeDatabase, openDatabase } from '../../src/core/db/connection';
import { SettingsRepo } from '../../src/core/db/settingsRepo';
import { silentLogger } from '../../src/core/log';
import { corruptPage, fillDatabase, rootPageOf, sha } from '../helpers/damage';
import { FakeClock } from '../helpers/fakeClock';
import { quotaSnapshot } from '../helpers/quota';
import { tempDir } from '../helpers/tmp';
import { alertRaiser } from '../core/channels/raise';
import { startDripReceiver } from '../helpers/receivers';
import type { ChannelSave } from '../../src/shared/alertChannels';
import { digestAfterQuietHours } from './digestScenario';
import { createFakeElectron, FakeBrowserWindow } from './fakeElectron';

let fake: ReturnType<typeof createFakeElectron>;
let dir: { dir: string; cleanup(): void };

// The mock is made once per file; its getters read the current test's fake, so every test starts clean.
vi.mock('electron', () => {
  const keys = [
    'app',
    'BrowserWindow',
    'ipcMain',
    'session',
    'shell',
    'safeStorage',
    'Notification',
    'dialog',
    'contextBridge',
    'ipcRenderer',
    'Tray',
    'nativeImage',
    'Menu',
  ];
  const m: Record<string, unknown> = {};
  for (const k of keys)
    Object.defineProperty(m, k, { enumerable: true, get: () => (fake.module as Record<string, unknown>)[k] });
  return m;
});

const paths = () => ({ preload: '/app/out/preload/index.cjs', rendererHtml: '/app/out/renderer/index.html' });
const APP_URL = 'file:///app/out/renderer/index.html';
/**
 * The wait for the shell's quit sequence (core disposed, the database closed, the Demo market stopped): file and
 * socket work that took over the default second when CI runs test files side by side on two cores.
 */
const QUIT_WAIT = { timeout: 20_000 };

beforeEach(() => {
  dir = tempDir();
  fake = createFakeElectron({ userData: dir.dir });
  FakeBrowserWindow.instances = [];
  vi.resetModules();
});
afterEach(async () => {
  // Quit the app and wait for the shell's quit sequence to end (core disposed: no backup still writing) before the
  // folder goes.
  const running = fake.app.listenerCount('before-quit') > 0;
  fake.app.emit('before-quit', { preventDefault() {} });
  if (running) await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalled(), QUIT_WAIT);
  await new Promise((r) => setImmediate(r));
  dir.cleanup();
});

/** The data file damaged (theme "light" in it) after a backup that holds theme "dark". */
async function damagedWithBackup(): Promise<{ path: string; damaged: string }> {
  const path = join(dir.dir, 'lotwatch.sqlite');
  fillDatabase(path);
  const clock = new FakeClock();
  const db = openDatabase(path);
  new SettingsRepo(db, clock).update({ theme: 'dark' });
  await makeBackup({ db, dataDir: dir.dir, clock, log: silentLogger });
  new SettingsRepo(db, clock).update({ theme: 'light' });
  closeDatabase(db);
  corruptPage(path, rootPageOf(path, 'settings'));
  return { path, damaged: sha(path) };
}

async function start(lock = true) {
  fake.app.requestSingleInstanceLock.mockReturnValue(lock);
  const { startShell } = await import('../../src/main/shell');
  return startShell(paths());
}

describe('Electron shell (electron mocked)', () => {
  it('quits when another instance holds the lock', async () => {
    expect(await start(false)).toBeUndefined();
    expect(fake.app.quit).toHaveBeenCalled();
    expect(FakeBrowserWindow.instances).toHaveLength(0);
  });

  it('refuses to start on a data folder another Lotwatch uses, says where, and exits 1', async () => {
    const { acquireDataLock } = await import('../../src/core/instanceLock');
    const held = acquireDataLock(dir.dir, { shell: 'headless', now: Date.UTC(2026, 10, 23, 8, 0) });
    held.setUrl('http://127.0.0.1:5199/');
    try {
      expect(await start()).toBeUndefined();
      expect(FakeBrowserWindow.instances).toHaveLength(0);
      expect(fake.dialog.showErrorBox).toHaveBeenCalledWith(
        'Lotwatch is already running',
        expect.stringContaining(
          `Lotwatch is already running on the data folder ${dir.dir}: the browser shell (npm run serve)`,
        ),
      );
      expect(fake.app.exit).toHaveBeenCalledWith(1);
      // Nothing was opened: no database file appeared beside the lock.
      const { readdirSync } = await import('node:fs');
      expect(readdirSync(dir.dir)).toEqual(['lotwatch.lock']);
    } finally {
      held.release();
    }
  });

  it('frees the data folder when it quits', async () => {
    await start();
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir.dir)).toContain('lotwatch.lock');
    fake.app.emit('before-quit', { preventDefault() {} });
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalled(), QUIT_WAIT);
    expect(readdirSync(dir.dir)).not.toContain('lotwatch.lock');
  });

  it('opens one hardened window with the preload and the built renderer', async () => {
    const s = await start();
    expect(s).toBeDefined();
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    const w = FakeBrowserWindow.instances[0]!;
    expect(w.options['webPreferences']).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      preload: '/app/out/preload/index.cjs',
    });
    expect(w.loaded.file).toBe('/app/out/renderer/index.html');
    expect(w.shown).toBe(false);
    w.emit('ready-to-show');
    expect(w.shown).toBe(true);
  });

  it('registers exactly one IPC handler that answers the contract', async () => {
    await start();
    expect(fake.ipcMain.handle).toHaveBeenCalledTimes(1);
    const h = fake.ipcMain.handlers.get(RPC_CHANNEL)!;
    const r = await h({ senderFrame: { url: APP_URL } }, 'app.info', undefined);
    expect(r).toMatchObject({
      ok: true,
      value: { shell: 'electron', dbPath: join(dir.dir, 'lotwatch.sqlite') },
    });
  });

  it('refuses IPC from any other frame, and never throws across IPC', async () => {
    await start();
    const h = fake.ipcMain.handlers.get(RPC_CHANNEL)!;
    expect(await h({ senderFrame: { url: 'https://evil.example/' } }, 'app.info', undefined)).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(await h({ senderFrame: null }, 'app.info', undefined)).toMatchObject({ ok: false });
    expect(await h({ senderFrame: { url: APP_URL } }, 'nope.nope', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
    expect(await h({ senderFrame: { url: APP_URL } }, 'settings.update', { theme: 7 })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
  });

  it('blocks navigation away and new windows; opens only known https links externally', async () => {
    await start();
    const wc = FakeBrowserWindow.instances[0]!.webContents;
    const nav = { preventDefault: vi.fn() };
    wc.emit('will-navigate', nav, 'https://evil.example/');
    expect(nav.preventDefault).toHaveBeenCalled();
    const same = { preventDefault: vi.fn() };
    wc.emit('will-navigate', same, `${APP_URL}#/settings`);
    expect(same.preventDefault).not.toHaveBeenCalled();
    expect(wc.windowOpenHandler?.({ url: 'https://www.copart.com/lot/12345678' })).toEqual({
      action: 'deny',
    });
    expect(fake.shell.openExternal).toHaveBeenCalledWith('https://www.copart.com/lot/12345678');
    wc.windowOpenHandler?.({ url: 'http://www.copart.com/lot/1' });
    wc.windowOpenHandler?.({ url: 'https://evil.example/' });
    wc.windowOpenHandler?.({ url: 'file:///etc/passwd' });
    expect(fake.shell.openExternal).toHaveBeenCalledTimes(1);
    const webview = { preventDefault: vi.fn() };
    wc.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('grants only the notification permission and sets a strict CSP header', async () => {
    await start();
    expect(await fake.permission('notifications')).toBe(true);
    expect(await fake.permission('media')).toBe(false);
    expect(await fake.permission('geolocation')).toBe(false);
    const h = await fake.headers();
    expect(h['Content-Security-Policy']?.[0]).toMatch(/default-src 'none'; script-src 'self'/);
    expect(h['X-Test']).toEqual(['1']);
  });

  it('forwards core events to the window', async () => {
    await start();
    const h = fake.ipcMain.handlers.get(RPC_CHANNEL)!;
    await h({ senderFrame: { url: APP_URL } }, 'settings.update', { theme: 'dark' });
    // The state of watching may follow the settings change (watching.changed); the settings event itself goes once.
    const sent = FakeBrowserWindow.instances[0]!.webContents.sent.filter(
      (x) => (x.payload as { name: string }).name !== 'watching.changed',
    );
    expect(sent).toEqual([
      {
        channel: EVENT_CHANNEL,
        payload: { name: 'settings.changed', payload: expect.objectContaining({ theme: 'dark' }) },
      },
    ]);
  });

  it('puts the unread count on the app badge and the tray tooltip, live', async () => {
    const s = await start();
    await vi.waitFor(() => expect(fake.app.setBadgeCount).toHaveBeenCalledWith(0));
    const tray = fake.trays[0]!;
    // Line one is the count; the next watched sale may follow on line two.
    const line1 = () => tray.tooltip.split('\n')[0];
    expect(line1()).toBe('Lotwatch: no unread alerts');
    // The service says the plan's requests are used up: Lotwatch raises its own alert, which lands unread.
    s!.core.engine.onQuota(quotaSnapshot(0, Date.UTC(2026, 11, 12)));
    await s!.core.engine.runDue();
    await vi.waitFor(() => expect(fake.app.setBadgeCount).toHaveBeenLastCalledWith(1));
    expect(line1()).toBe('Lotwatch: 1 unread alert');
    const h = fake.ipcMain.handlers.get(RPC_CHANNEL)!;
    const list = (await h({ senderFrame: { url: APP_URL } }, 'alerts.list', undefined)) as {
      value: { alerts: { id: number }[] };
    };
    await h({ senderFrame: { url: APP_URL } }, 'alerts.markRead', {
      ids: list.value.alerts.map((a) => a.id),
    });
    expect(fake.app.setBadgeCount).toHaveBeenLastCalledWith(0);
    expect(line1()).toBe('Lotwatch: no unread alerts');
  });

  it('closing the window keeps Lotwatch watching in the tray; the tray opens it again and its menu quits', async () => {
    const s = await start();
    const w = FakeBrowserWindow.instances[0]!;
    w.emit('ready-to-show');
    const close = { preventDefault: vi.fn() };
    w.emit('close', close);
    expect(close.preventDefault).toHaveBeenCalled();
    expect(w.shown).toBe(false);
    fake.app.emit('window-all-closed');
    expect(fake.app.quit).not.toHaveBeenCalled();
    // Still watching: core answers and the engine runs.
    expect((await s!.core.invoke('status.get', undefined)).ok).toBe(true);
    const tray = fake.trays[0]!;
    tray.emit('click');
    expect(w.shown).toBe(true);
    tray.choose('Quit Lotwatch');
    expect(fake.app.quit).toHaveBeenCalled();
  });

  it('the tray pauses watching for an hour and resumes it; the tooltip says until when, else the next watched sale', async () => {
    const s = await start();
    const tray = fake.trays[0]!;
    // Demo mode's example watches give the tooltip a next sale once a check of one has finished.
    const watches = await vi.waitFor(
      async () => {
        const w = await s!.core.call('watchlist.list', undefined);
        expect(w.length).toBeGreaterThan(0);
        return w;
      },
      { timeout: 20_000 },
    );
    await s!.core.call('watchlist.checkNow', { id: watches[0]!.id });
    // The tooltip follows the check's answer from the Demo market over HTTP: on a loaded machine (CI runs test files
    // side by side) that took over the default second, so the waits on it get as long as the watchlist's above.
    await vi.waitFor(() => expect(tray.tooltip).toMatch(/\nNext sale .+: \S/), { timeout: 20_000 });
    const before = Date.now();
    tray.choose('Pause watching for 1 hour');
    await vi.waitFor(async () =>
      expect((await s!.core.call('status.get', undefined)).pause_kind).toBe('user'),
    );
    const status = await s!.core.call('status.get', undefined);
    expect(status.paused_until).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(status.paused_until).toBeLessThanOrEqual(Date.now() + 3_600_000);
    // A pause that ends on another day names the day ("Fri 12:24 AM").
    expect(tray.tooltip).toMatch(/\nWatching paused until (\w{3} )?\d{1,2}:\d{2} [AP]M$/);
    const resume = tray.menu!.items.find((i) => i.label?.startsWith('Resume watching (paused until'));
    expect(tray.menu!.items.some((i) => i.label === 'Pause watching for 1 hour')).toBe(false);
    resume!.click!();
    await vi.waitFor(async () => expect((await s!.core.call('status.get', undefined)).pause_kind).toBeNull());
    await vi.waitFor(() => expect(tray.tooltip).toMatch(/\nNext sale /), { timeout: 20_000 });
    expect(tray.menu!.items.map((i) => i.label ?? '-')).toEqual([
      'Open Lotwatch',
      '-',
      'Pause watching for 1 hour',
      'Pause watching until tomorrow 8:00 AM',
      '-',
      'Quit Lotwatch',
    ]);
  });

  it('a second launch brings the hidden window back', async () => {
    await start();
    const w = FakeBrowserWindow.instances[0]!;
    w.emit('close', { preventDefault() {} });
    expect(w.shown).toBe(false);
    fake.app.emit('second-instance');
    expect(w.shown).toBe(true);
  });

  it('starts at login only when the setting says so (off by default), and follows a change', async () => {
    await start();
    await vi.waitFor(() =>
      expect(fake.app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: false }),
    );
    const h = fake.ipcMain.handlers.get(RPC_CHANNEL)!;
    await h({ senderFrame: { url: APP_URL } }, 'settings.update', { openAtLogin: true });
    expect(fake.app.setLoginItemSettings).toHaveBeenLastCalledWith({ openAtLogin: true });
  });

  it('shows no native notification while notifications are off in Settings, and one when on', async () => {
    const s = await start();
    const h = fake.ipcMain.handlers.get(RPC_CHANNEL)!;
    await h({ senderFrame: { url: APP_URL } }, 'settings.update', { notificationsEnabled: false });
    s!.core.engine.onQuota(quotaSnapshot(0, Date.UTC(2030, 0, 1)));
    await s!.core.engine.runDue();
    expect(fake.notifications.filter((n) => n.title.startsWith('Lotwatch:'))).toEqual([]);
    await h({ senderFrame: { url: APP_URL } }, 'settings.update', { notificationsEnabled: true });
    s!.core.engine.onQuota(quotaSnapshot(5, Date.UTC(2030, 1, 1)));
    await s!.core.engine.runDue();
    expect(
      fake.notifications.filter((n) => n.title.startsWith('Lotwatch:')).map((n) => [n.title, n.shown]),
    ).toEqual([['Lotwatch: request quota running low', true]]);
    // The desktop app never posts the browser channel's event to its window: the page shows no second notification.
    const sent = FakeBrowserWindow.instances[0]!.webContents.sent.map(
      (x) => (x.payload as { name: string }).name,
    );
    expect(sent).not.toContain('notification.posted');
  });

  it('shows the quiet hours digest once when they end: one inbox entry, one native notification', async () => {
    const clock = new FakeClock(Math.floor(Date.now() / 60_000) * 60_000);
    fake.app.requestSingleInstanceLock.mockReturnValue(true);
    const { startShell } = await import('../../src/main/shell');
    const s = await startShell(paths(), { clock });
    await s!.core.ready;
    const h = fake.ipcMain.handlers.get(RPC_CHANNEL)!;
    await digestAfterQuietHours({
      // Through the one IPC handler, as the window calls it.
      call: async (m, i) => {
        const r = (await h({ senderFrame: { url: APP_URL } }, m, i)) as {
          ok: boolean;
          value?: unknown;
          error?: { message: string };
        };
        if (!r.ok) throw new Error(`${m}: ${r.error?.message}`);
        return r.value as never;
      },
      clock,
      runDue: async () => {
        await s!.core.engine.runDue();
        await s!.core.engine.idle();
      },
      shown: () => fake.notifications.filter((n) => n.shown).map((n) => n.title),
    });
  }, 60_000);

  it('disposes core and closes the database before quitting', async () => {
    const s = await start();
    const prevent = vi.fn();
    fake.app.emit('before-quit', { preventDefault: prevent });
    expect(prevent).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalled(), QUIT_WAIT);
    expect(fake.ipcMain.removeHandler).toHaveBeenCalledWith(RPC_CHANNEL);
    expect(await s!.core.invoke('settings.get', undefined)).toMatchObject({ ok: false });
    // The second before-quit (from app.quit) passes through.
    const again = vi.fn();
    fake.app.emit('before-quit', { preventDefault: again });
    expect(again).not.toHaveBeenCalled();
  });

  it('quitting aborts the alert channel sends in flight (a webhook that never finishes its answer) and quits at once', async () => {
    const drip = await startDripReceiver({ status: 200, everyMs: 4_000 });
    const s = await start();
    const raiser = alertRaiser(join(dir.dir, 'lotwatch.sqlite'));
    try {
      await s!.core.ready;
      const ch = await s!.core.call('channels.save', {
        name: 'Slow hook',
        config: { type: 'webhook', format: 'json', telegram_chat_id: '' },
        secret: `${drip.url}/hook`,
      } as ChannelSave);
      // One send from the outbox and one from the Test button, both held open by the receiver.
      raiser.raise('sale_result', 'Sold', Date.now());
      s!.core.channelOutbox.kick();
      const test = s!.core.invoke('channels.test', { id: ch.id });
      await drip.requests.reached(2);
      const began = performance.now();
      fake.app.emit('before-quit', { preventDefault() {} });
      await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalled(), { timeout: 10_000, interval: 5 });
      const took = performance.now() - began;
      // A real-time bound, generous: the sends are aborted, not waited for (they would drip forever).
      expect(took).toBeLessThan(5_000);
      expect(await test).toMatchObject({
        ok: true,
        value: { ok: false, message: expect.stringMatching(/^Lotwatch stopped before the test finished/) },
      });
      await drip.dropped.reached(2);
    } finally {
      raiser.close();
      await drip.close();
    }
  });

  it('shows a clear dialog and exits when the data file is from a newer version', async () => {
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(join(dir.dir, 'lotwatch.sqlite'));
    db.pragma('user_version = 5000');
    db.close();
    expect(await start()).toBeUndefined();
    expect(fake.dialog.showErrorBox).toHaveBeenCalledWith(
      'Lotwatch cannot start',
      expect.stringMatching(/newer version/),
    );
    expect(fake.app.exit).toHaveBeenCalledWith(1);
  });

  it('an empty data file without a backup: a dialog that says so and how to start fresh, exit 1, file untouched', async () => {
    const { writeFileSync, statSync } = await import('node:fs');
    const path = join(dir.dir, 'lotwatch.sqlite');
    writeFileSync(path, '');
    expect(await start()).toBeUndefined();
    expect(FakeBrowserWindow.instances).toHaveLength(0);
    expect(fake.dialog.showMessageBox).not.toHaveBeenCalled();
    expect(fake.dialog.showErrorBox).toHaveBeenCalledWith(
      'Lotwatch cannot start',
      expect.stringMatching(
        /is empty \(0 bytes\).*did not change it.*There is no backup in .* yet\. To start fresh instead, move the empty file away\./,
      ),
    );
    expect(fake.app.exit).toHaveBeenCalledWith(1);
    expect(statSync(path).size).toBe(0);
  });

  it('a damaged data file with a backup: offers "Restore latest backup", and on yes restores it and starts', async () => {
    const { damaged } = await damagedWithBackup();
    fake.dialog.showMessageBox.mockResolvedValueOnce({ response: 0 });
    const s = await start();
    expect(fake.dialog.showMessageBox).toHaveBeenCalledWith(
      expect.objectContaining({
        buttons: ['Restore latest backup', 'Quit'],
        detail: expect.stringMatching(/is damaged.*The newest backup is/),
      }),
    );
    expect(fake.dialog.showErrorBox).not.toHaveBeenCalled();
    expect(s).toBeDefined();
    expect(await s!.core.call('settings.get', undefined)).toMatchObject({ theme: 'dark' });
    const { readdirSync } = await import('node:fs');
    const kept = readdirSync(dir.dir).find((f) => f.startsWith('lotwatch.sqlite.replaced-'))!;
    expect(sha(join(dir.dir, kept))).toBe(damaged);
  });

  it('a damaged data file, and the buyer chooses Quit: exit 1, no window, no second dialog, file untouched', async () => {
    const { path, damaged } = await damagedWithBackup();
    expect(await start()).toBeUndefined();
    expect(fake.dialog.showMessageBox).toHaveBeenCalledTimes(1);
    expect(fake.dialog.showErrorBox).not.toHaveBeenCalled();
    expect(FakeBrowserWindow.instances).toHaveLength(0);
    expect(fake.app.exit).toHaveBeenCalledWith(1);
    expect(sha(path)).toBe(damaged);
  });

  it('turns a notification click into a notification.clicked event on the window', async () => {
    const { electronNotifier } = await import('../../src/main/shell');
    const w = new FakeBrowserWindow({});
    const n = electronNotifier(() => w as never);
    n.notify({ title: 'Sold', body: '2018 Audi S5 sold for $12,300', lotKey: 'copart:12345678' });
    expect(fake.notifications[0]).toMatchObject({ title: 'Sold', shown: true });
    fake.notifications[0]!.emitter.emit('click');
    expect(w.webContents.sent).toEqual([
      {
        channel: EVENT_CHANNEL,
        payload: { name: 'notification.clicked', payload: { lotKey: 'copart:12345678' } },
      },
    ]);
  });
});

describe('preload (electron mocked)', () => {
  it('exposes invoke() and on() only, and refuses unknown methods without IPC', async () => {
    const exposed: Record<string, unknown> = {};
    const invoke = vi.fn(() => Promise.resolve({ ok: true, value: 1 }));
    const listeners: ((e: unknown, ev: unknown) => void)[] = [];
    fake.module = {
      ...fake.module,
      contextBridge: { exposeInMainWorld: (k: string, v: unknown) => (exposed[k] = v) },
      ipcRenderer: {
        invoke,
        on: (_c: string, l: (e: unknown, ev: unknown) => void) => listeners.push(l),
        removeListener: vi.fn(),
      },
    } as never;
    await import('../../src/preload/index');
    const api = exposed['api'] as {
      invoke: (m: string, i?: unknown) => Promise<unknown>;
      on: (l: (e: unknown) => void) => () => void;
    };
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(await api.invoke('app.info')).toEqual({ ok: true, value: 1 });
    expect(invoke).toHaveBeenCalledWith(RPC_CHANNEL, 'app.info', undefined);
    expect(await api.invoke('fs.readFile', '/etc/passwd')).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
    expect(invoke).toHaveBeenCalledTimes(1);
    const got: unknown[] = [];
    api.on((e) => got.push(e));
    listeners[0]?.({}, { name: 'settings.changed', payload: {} });
    listeners[0]?.({}, { name: 'evil.injected', payload: {} });
    expect(got).toEqual([{ name: 'settings.changed', payload: {} }]);
  });
});

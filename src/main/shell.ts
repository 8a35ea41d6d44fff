import {
  app,
  BrowserWindow,
  ipcMain,
  Notification,
  safeStorage,
  session,
  shell,
  type WebContents,
} from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCore, type Core, type Notifier } from '../core/app';
import { systemClock, type Clock } from '../core/clock';
import { openDatabase } from '../core/db/connection';
import { stageRestore } from '../core/db/restore';
import { DatabaseUnavailableError, LotwatchError } from '../core/errors';
import { acquireDataLock, AlreadyRunningError, type DataLock } from '../core/instanceLock';
import { createLogger } from '../core/log';
import { createDemoService, demoWorldStart, DEMO_CALL_EXAMPLE, DEMO_WORLD_LEAD_MS } from '../sandbox/demo';
import { EVENT_CHANNEL, RPC_CHANNEL } from '../shared/ipc/channels';
import { err, type Result } from '../shared/ipc/errors';
import { electronBindingPath, resolveElectronBinding } from './nativeBinding';
import { safeStorageBox } from './safeStorageBox';
import { TeamLink } from './teamLink';
import { teamRouting, type TeamRouting } from './teamRouting';
import { startTray } from './tray';
import {
  CONTENT_SECURITY_POLICY,
  isAllowedNavigation,
  isSafeExternalUrl,
  isTrustedSenderUrl,
} from './security';

/** Paths the shell needs; the defaults fit the electron-vite build layout (out/main, out/preload, out/renderer). */
export interface ShellPaths {
  preload: string;
  rendererHtml: string;
  /** Dev server URL (electron-vite dev), used instead of the file when set. */
  devServerUrl?: string;
}

/** The running shell: what tests inspect and what quitting tears down. */
export interface ShellState {
  core: Core;
  window: BrowserWindow;
  appUrl: string;
}

/**
 * The only IPC handler (docs/architecture.md "One contract, two shells"): checks that the sender is the app's own
 * page, then lets core (or, while the app has joined a team server, the team routing: teamRouting.ts) parse, run and
 * answer. Never throws across IPC.
 */
export async function handleRpc(
  core: Pick<Core, 'invoke'>,
  appUrl: string,
  event: { senderFrame: { url: string } | null },
  method: unknown,
  input: unknown,
): Promise<Result<unknown>> {
  if (!isTrustedSenderUrl(event.senderFrame?.url, appUrl)) {
    return err('forbidden_sender', 'This request did not come from the Lotwatch window and was refused.');
  }
  try {
    return await core.invoke(method, input);
  } catch {
    return err('internal', 'Something went wrong inside Lotwatch. Please try again.');
  }
}

/** Applies the window-level rules: no navigation away, no new windows, external https links to known hosts only. */
export function hardenWebContents(contents: WebContents, appUrl: string): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url, appUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url, appUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

/** A Notifier over Electron's native notifications; a click brings the window forward on the lot. */
export function electronNotifier(getWindow: () => BrowserWindow | undefined): Notifier {
  return {
    notify({ title, body, lotKey }) {
      if (!Notification.isSupported()) return;
      const n = new Notification({ title, body });
      n.on('click', () => {
        const w = getWindow();
        if (!w) return;
        if (w.isMinimized()) w.restore();
        w.focus();
        if (lotKey) w.webContents.send(EVENT_CHANNEL, { name: 'notification.clicked', payload: { lotKey } });
      });
      n.show();
    },
  };
}

/** The buyer already read why Lotwatch cannot open its data (in the restore question) and chose to quit. */
const DECLINED = Symbol('declined');

/**
 * Opens the data file; when it is empty or damaged and a backup exists, asks whether to restore the newest one
 * (the current file is kept beside it) and opens again.
 * @throws DECLINED when the buyer chose Quit in that question; DatabaseFromFutureError / DatabaseUnavailableError as
 *   openDatabase and stageRestore do.
 */
async function openOrOfferRestore(
  dbPath: string,
  nativeBinding: string | undefined,
): Promise<ReturnType<typeof openDatabase>> {
  const opts = nativeBinding ? { nativeBinding } : {};
  try {
    return openDatabase(dbPath, opts);
  } catch (e) {
    if (!(e instanceof DatabaseUnavailableError) || !e.latestBackup) throw e;
    const { dialog } = await import('electron');
    const { response } = await dialog.showMessageBox({
      type: 'error',
      title: 'Lotwatch cannot open its data',
      message: 'Lotwatch cannot open its data file.',
      detail: e.message,
      buttons: ['Restore latest backup', 'Quit'],
      defaultId: 0,
      cancelId: 1,
      noLink: true,
    });
    if (response !== 0) throw DECLINED;
    await stageRestore(dbPath, 'latest', { now: Date.now(), ...opts });
    return openDatabase(dbPath, opts);
  }
}

/**
 * Starts the desktop app: single-instance lock, core over the user's data folder, one hardened window,
 * the IPC handler, and an orderly quit (core disposed and the database closed before the process exits).
 * Returns undefined when another instance already runs (that one is focused instead).
 */
export async function startShell(
  paths: ShellPaths,
  opts: { clock?: Clock } = {},
): Promise<ShellState | undefined> {
  // The watcher's and the Demo market's time; tests pass a fake one. The network's own waits stay real.
  const clock = opts.clock ?? systemClock;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return undefined;
  }
  await app.whenReady();

  const dataDir = process.env['LOTWATCH_DATA_DIR'] ?? app.getPath('userData');
  const dbPath = join(dataDir, 'lotwatch.sqlite');
  const log = createLogger();
  const appUrl = paths.devServerUrl ?? pathToFileURL(paths.rendererHtml).href;
  const cachePath = electronBindingPath({
    cacheRoot: join(app.getAppPath(), 'node_modules', '.cache', 'lotwatch'),
    betterSqliteVersion: process.env['LOTWATCH_BETTER_SQLITE_VERSION'] ?? 'unknown',
    modules: process.versions.modules,
    platform: process.platform,
    arch: process.arch,
  });
  const nativeBinding = resolveElectronBinding(process.env, cachePath);

  const ref: { window?: BrowserWindow } = {};
  let core: Core;
  // A team server joined in Settings (teamLink.ts): the window then works on the team's data, and the local notifier
  // stays quiet.
  const secrets = safeStorageBox(safeStorage);
  const link = new TeamLink({ dataDir, secrets, log });
  const nativeNotifier = electronNotifier(() => ref.window);
  // One Lotwatch per data folder, whichever shell: the browser shell may already serve this folder.
  let lock: DataLock;
  try {
    lock = acquireDataLock(dataDir, { shell: 'electron', now: clock.now() });
  } catch (e) {
    const message =
      e instanceof AlreadyRunningError ? e.message : `Lotwatch could not start: ${(e as Error).message}`;
    log.error('startup refused', { error: message });
    const { dialog } = await import('electron');
    dialog.showErrorBox(
      e instanceof AlreadyRunningError ? 'Lotwatch is already running' : 'Lotwatch cannot start',
      message,
    );
    app.exit(1);
    return undefined;
  }
  // The Demo world persists across restarts (the same lots, moved on to the present).
  const demo = createDemoService({
    startTime: demoWorldStart(dataDir, clock.now(), undefined, DEMO_WORLD_LEAD_MS),
    align: () => clock.now(),
    // An injected clock (tests) drives the market too, so a lot sells when the watcher's clock says it does.
    ...(opts.clock ? { now: () => clock.now() } : {}),
  });
  try {
    const db = await openOrOfferRestore(dbPath, nativeBinding);
    core = createCore({
      marketAuto: true,
      // Demo mode's example call watch is one of the Demo service's own video calls.
      demoService: async () => ({ ...(await demo.get()), callExample: DEMO_CALL_EXAMPLE }),
      db,
      dbPath,
      dataDir,
      clock,
      ...(clock !== systemClock
        ? { clientClock: { now: () => clock.now(), setTimeout: systemClock.setTimeout } }
        : {}),
      secrets,
      notifier: {
        notify: (n) => {
          if (!link.joined()) nativeNotifier.notify(n);
        },
      },
      teamLink: link,
      log,
      shell: 'electron',
      version: app.getVersion(),
      electronVersion: process.versions['electron'] ?? null,
    });
  } catch (e) {
    const message =
      e === DECLINED
        ? 'the buyer chose not to restore a backup'
        : e instanceof LotwatchError
          ? e.message
          : `Lotwatch could not start: ${(e as Error).message}`;
    log.error('startup failed', { error: message });
    lock.release();
    const { dialog } = await import('electron');
    if (e !== DECLINED) dialog.showErrorBox('Lotwatch cannot start', message);
    app.exit(1);
    return undefined;
  }

  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) => {
    callback(permission === 'notifications');
  });
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });

  // The window's calls and events: this computer's core, or the joined team server (teamRouting.ts).
  const routing: TeamRouting = teamRouting({
    core,
    link,
    send: (e) => {
      if (ref.window && !ref.window.isDestroyed()) ref.window.webContents.send(EVENT_CHANNEL, e);
    },
    notifier: nativeNotifier,
    reload: () => {
      if (ref.window && !ref.window.isDestroyed()) ref.window.webContents.reload();
    },
    log,
  });
  ipcMain.handle(RPC_CHANNEL, (event, method: unknown, input: unknown) =>
    handleRpc(routing, appUrl, event, method, input),
  );

  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Lotwatch',
    backgroundColor: '#111418',
    webPreferences: {
      preload: paths.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  ref.window = window;
  hardenWebContents(window.webContents, appUrl);
  window.once('ready-to-show', () => window.show());
  // The tray (unread count, next sale, pause and quit) and the app badge; null tray: the desktop has no tray area.
  const indicators = startTray(
    core,
    clock,
    () => ref.window,
    join(app.getAppPath(), 'resources', 'icon.png'),
  );

  app.on('second-instance', () => {
    if (window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });

  // Start at login follows the setting (off by default), now and whenever it changes.
  const applyLogin = (on: boolean) => {
    try {
      app.setLoginItemSettings({ openAtLogin: on });
    } catch {
      // Not every desktop lets an app register itself: the setting then does nothing, and Lotwatch still runs.
    }
  };
  core.call('settings.get', undefined).then(
    (s) => applyLogin(s.openAtLogin),
    () => undefined, // Shutting down already.
  );
  const unsubscribeLogin = core.on((e) => {
    if (e.name === 'settings.changed') applyLogin(e.payload.openAtLogin);
  });

  let quitting = false;
  // Closing the window keeps Lotwatch watching in the tray; only Quit (tray menu, app menu, logout) stops it.
  window.on('close', (event) => {
    if (quitting || !indicators.tray) return;
    event.preventDefault();
    window.hide();
  });
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    routing.dispose();
    unsubscribeLogin();
    indicators.dispose();
    ipcMain.removeHandler(RPC_CHANNEL);
    void core
      .dispose()
      .then(() => demo.dispose())
      .finally(() => {
        lock.release();
        app.quit();
      });
  });
  // Without a tray there is nowhere to keep watching from: closing the last window quits.
  app.on('window-all-closed', () => {
    if (!indicators.tray) app.quit();
  });

  if (paths.devServerUrl) await window.loadURL(paths.devServerUrl);
  else await window.loadFile(paths.rendererHtml);
  return { core, window, appUrl };
}

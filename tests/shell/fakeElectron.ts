import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

/**
 * A stand-in for the parts of the `electron` module the shell uses. Records what the shell asked for, so
 * tests can assert security settings, handlers and the quit sequence without an Electron binary.
 */
export class FakeWebContents extends EventEmitter {
  sent: { channel: string; payload: unknown }[] = [];
  windowOpenHandler: ((d: { url: string }) => { action: string }) | undefined;
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
    this.windowOpenHandler = h;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  /** How many times the shell loaded the page again (after joining or leaving a team server). */
  reloads = 0;
  reload() {
    this.reloads++;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = [];
  webContents = new FakeWebContents();
  loaded: { file?: string; url?: string } = {};
  shown = false;
  destroyed = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.instances.push(this);
  }
  loadFile(file: string) {
    this.loaded.file = file;
    return Promise.resolve();
  }
  loadURL(url: string) {
    this.loaded.url = url;
    return Promise.resolve();
  }
  show() {
    this.shown = true;
  }
  hide() {
    this.shown = false;
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  focus() {}
}

export function createFakeElectron(opts: { lock?: boolean; userData: string }) {
  const app = Object.assign(new EventEmitter(), {
    requestSingleInstanceLock: vi.fn(() => opts.lock ?? true),
    whenReady: vi.fn(() => Promise.resolve()),
    getPath: vi.fn(() => opts.userData),
    getAppPath: vi.fn(() => '/nonexistent-app'),
    getVersion: vi.fn(() => '0.1.0-test'),
    quit: vi.fn(),
    exit: vi.fn(),
    setBadgeCount: vi.fn(() => true),
    setLoginItemSettings: vi.fn(),
  });
  const handlers = new Map<string, (...a: unknown[]) => unknown>();
  const ipcMain = {
    handle: vi.fn((ch: string, fn: (...a: unknown[]) => unknown) => {
      if (handlers.has(ch)) throw new Error(`second handler for ${ch}`);
      handlers.set(ch, fn);
    }),
    removeHandler: vi.fn((ch: string) => handlers.delete(ch)),
    handlers,
  };
  let permissionHandler: ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | undefined;
  let headersHandler:
    | ((
        d: { responseHeaders: Record<string, string[]> },
        cb: (r: { responseHeaders: Record<string, string[]> }) => void,
      ) => void)
    | undefined;
  const session = {
    defaultSession: {
      setPermissionRequestHandler: vi.fn((h: typeof permissionHandler) => (permissionHandler = h)),
      webRequest: { onHeadersReceived: vi.fn((h: typeof headersHandler) => (headersHandler = h)) },
    },
  };
  const shell = { openExternal: vi.fn(() => Promise.resolve()) };
  const safeStorage = {
    isEncryptionAvailable: () => true,
    encryptString: (s: string) => Buffer.from(`enc:${s}`),
    decryptString: (b: Buffer) => b.toString().replace(/^enc:/, ''),
  };
  const notifications: { title: string; body: string; shown: boolean; emitter: EventEmitter }[] = [];
  class Notification extends EventEmitter {
    static isSupported = () => true;
    record: { title: string; body: string; shown: boolean; emitter: EventEmitter };
    constructor(o: { title: string; body: string }) {
      super();
      this.record = { ...o, shown: false, emitter: this };
      notifications.push(this.record);
    }
    show() {
      this.record.shown = true;
    }
  }
  // The restore question (damaged or empty data file with a backup): answers "Quit" unless a test says otherwise.
  const dialog = {
    showErrorBox: vi.fn(),
    showMessageBox: vi.fn((_o: { buttons: string[] }) => Promise.resolve({ response: 1 })),
  };
  const trays: FakeTray[] = [];
  class FakeTray extends EventEmitter {
    tooltip = '';
    destroyed = false;
    menu: { items: { label?: string; type?: string; click?: () => void }[] } | null = null;
    constructor(readonly image: unknown) {
      super();
      trays.push(this);
    }
    setToolTip(t: string) {
      this.tooltip = t;
    }
    setContextMenu(m: { items: { label?: string; type?: string; click?: () => void }[] }) {
      this.menu = m;
    }
    /** Clicks the menu item with this label. */
    choose(label: string) {
      const item = this.menu?.items.find((i) => i.label === label);
      if (!item?.click) throw new Error(`no tray menu item ${label}`);
      item.click();
    }
    destroy() {
      this.destroyed = true;
    }
  }
  const nativeImage = { createFromPath: vi.fn((p: string) => ({ path: p })) };
  const Menu = {
    buildFromTemplate: vi.fn((items: { label?: string; type?: string; click?: () => void }[]) => ({ items })),
  };
  return {
    module: {
      app,
      BrowserWindow: FakeBrowserWindow,
      ipcMain,
      session,
      shell,
      safeStorage,
      Notification,
      dialog,
      Tray: FakeTray,
      nativeImage,
      Menu,
    },
    trays,
    app,
    ipcMain,
    shell,
    dialog,
    notifications,
    permission: (p: string) => new Promise<boolean>((resolve) => permissionHandler?.({}, p, resolve)),
    headers: () =>
      new Promise<Record<string, string[]>>((resolve) =>
        headersHandler?.({ responseHeaders: { 'X-Test': ['1'] } }, (r) => resolve(r.responseHeaders)),
      ),
  };
}

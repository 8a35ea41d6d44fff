import BetterSqlite3 from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeDatabase, openDatabase } from '../../src/core/db/connection';
import { SettingsRepo } from '../../src/core/db/settingsRepo';
import { TEAM_LINK_FILE } from '../../src/main/teamLink';
import { EVENT_CHANNEL, RPC_CHANNEL } from '../../src/shared/ipc/channels';
import type { Result } from '../../src/shared/ipc/errors';
import { FakeClock } from '../helpers/fakeClock';
import { pgAvailable, testDatabase } from '../helpers/postgres';
import { quotaSnapshot } from '../helpers/quota';
import { tempDir } from '../helpers/tmp';
import { createFakeElectron, FakeBrowserWindow } from './fakeElectron';
import { Browser, teamShells } from './teamShell';

// The desktop app joined to a team server (src/main/teamRouting.ts), with electron mocked and a real team server on a
// real PostgreSQL: the window's calls and events are the team's, a team notification shows natively, this computer's
// watcher stops and starts again, and its data file is the same after leaving as before joining.

let fake: ReturnType<typeof createFakeElectron>;
let dir: { dir: string; cleanup(): void };

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
  ];
  const more = ['contextBridge', 'ipcRenderer', 'Tray', 'nativeImage', 'Menu'];
  const m: Record<string, unknown> = {};
  for (const k of [...keys, ...more])
    Object.defineProperty(m, k, { enumerable: true, get: () => (fake.module as Record<string, unknown>)[k] });
  return m;
});

const { start: startTeam } = teamShells();
const APP_URL = 'file:///app/out/renderer/index.html';
const DANA_PW = 'dana password!';

beforeEach(() => {
  dir = tempDir();
  fake = createFakeElectron({ userData: dir.dir });
  FakeBrowserWindow.instances = [];
  vi.resetModules();
});
afterEach(async () => {
  const running = fake.app.listenerCount('before-quit') > 0;
  fake.app.emit('before-quit', { preventDefault() {} });
  if (running) await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalled(), { timeout: 20_000 });
  await new Promise((r) => setImmediate(r));
  dir.cleanup();
});

/** A team server with a buyer "dana" and a saved search "Team Hondas" the admin made. */
async function teamServer() {
  const h = await startTeam((await testDatabase('electronteam'))!);
  const admin = new Browser(h.server.port);
  expect((await admin.login('admin', 'first admin password')).status).toBe(200);
  const dana = { login: 'dana', name: 'Dana Lee', role: 'buyer', password: DANA_PW };
  expect((await admin.rpc('team.users.create', dana)).json).toMatchObject({ ok: true });
  const made = await admin.rpc('searches.create', { name: 'Team Hondas', params: { make: 'HONDA' } });
  expect(made.json).toMatchObject({ ok: true });
  return { h, server: `http://127.0.0.1:${h.server.port}` };
}

/** The desktop app on a data folder whose Demo mode is off and that has no key: nothing of its own moves. */
async function desktop() {
  const dbPath = join(dir.dir, 'lotwatch.sqlite');
  const db = openDatabase(dbPath);
  new SettingsRepo(db, new FakeClock()).update({ demoMode: false });
  closeDatabase(db);
  fake.app.requestSingleInstanceLock.mockReturnValue(true);
  const { startShell } = await import('../../src/main/shell');
  const s = (await startShell(
    { preload: '/app/out/preload/index.cjs', rendererHtml: '/app/out/renderer/index.html' },
    { clock: new FakeClock() },
  ))!;
  await s.core.ready;
  const handler = fake.ipcMain.handlers.get(RPC_CHANNEL)!;
  const rpc = (method: string, input?: unknown) =>
    handler({ senderFrame: { url: APP_URL } }, method, input) as Promise<Result<unknown>>;
  const w = FakeBrowserWindow.instances[0]!;
  const sentNames = () => w.webContents.sent.map((x) => (x.payload as { name: string }).name);
  return { s, rpc, w, dbPath, sentNames };
}

/** Every row of every table of the data file, read on a connection of its own. */
function rowsOf(path: string): Record<string, unknown[]> {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all();
    return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]));
  } finally {
    db.close();
  }
}

const searchNames = (r: Result<unknown>) => (r.ok ? (r.value as { name: string }[]).map((x) => x.name) : r);

describe.skipIf(!pgAvailable())('the desktop app joined to a team server (electron mocked)', () => {
  it('routes the window to the team while joined, shows its notifications natively, and leaves the local data as it was', async () => {
    const { h, server } = await teamServer();
    const { s, rpc, w, dbPath, sentNames } = await desktop();
    expect(await rpc('teamLink.get')).toMatchObject({ ok: true, value: { available: true, joined: false } });
    expect(searchNames(await rpc('searches.list'))).toEqual([]);
    expect(s.core.isWatching()).toBe(true);
    const before = rowsOf(dbPath);
    expect(before['settings']?.length).toBeGreaterThan(0);

    // A bad address never reaches the link.
    expect(
      await rpc('teamLink.join', { server: `${server}/path`, login: 'dana', password: DANA_PW }),
    ).toMatchObject({
      ok: false,
      error: { code: 'bad_input', fields: { server: [expect.stringMatching(/^Address: /)] } },
    });
    const joined = await rpc('teamLink.join', { server: `${server}/`, login: 'dana', password: DANA_PW });
    expect(joined).toMatchObject({
      ok: true,
      value: { joined: true, server, user: { name: 'Dana Lee', role: 'buyer' }, signed_in: true },
    });
    expect(s.core.isWatching()).toBe(false);
    expect(w.webContents.reloads).toBe(1);
    expect(existsSync(join(dir.dir, TEAM_LINK_FILE))).toBe(true);

    // Calls: the team's data and who the member is; the link itself still answers from this computer.
    expect(searchNames(await rpc('searches.list'))).toEqual(['Team Hondas']);
    expect(await rpc('team.me')).toMatchObject({ ok: true, value: { team: true, user: { login: 'dana' } } });
    expect(await rpc('app.info')).toMatchObject({ ok: true, value: { shell: 'headless' } });
    expect(await rpc('teamLink.get')).toMatchObject({ ok: true, value: { joined: true, signed_in: true } });

    // Events: the team's reach the window; its notification for this member shows natively, not in the page.
    await vi.waitFor(() => expect(sentNames()).toContain('unread.changed'), { timeout: 5000 });
    h.server.broadcast({ name: 'deliveries.changed', payload: { at: 4242 } });
    h.server.broadcast({
      name: 'notification.posted',
      payload: {
        tag: 'alert:7',
        title: 'Sold',
        body: '2018 Honda Civic sold for $9,100',
        lot_key: 'copart:1',
      },
    });
    await vi.waitFor(
      () =>
        expect(w.webContents.sent).toContainEqual({
          channel: EVENT_CHANNEL,
          payload: { name: 'deliveries.changed', payload: { at: 4242 } },
        }),
      { timeout: 5000 },
    );
    await vi.waitFor(
      () => expect(fake.notifications.map((n) => [n.title, n.shown])).toEqual([['Sold', true]]),
      {
        timeout: 5000,
      },
    );
    expect(sentNames()).not.toContain('notification.posted');
    fake.notifications[0]!.emitter.emit('click');
    expect(w.webContents.sent.at(-1)).toEqual({
      channel: EVENT_CHANNEL,
      payload: { name: 'notification.clicked', payload: { lotKey: 'copart:1' } },
    });

    // Leaving: this computer's data and watcher come back as they were left.
    expect(await rpc('teamLink.leave')).toMatchObject({ ok: true, value: { joined: false } });
    expect(s.core.isWatching()).toBe(true);
    expect(w.webContents.reloads).toBe(2);
    expect(existsSync(join(dir.dir, TEAM_LINK_FILE))).toBe(false);
    expect(searchNames(await rpc('searches.list'))).toEqual([]);
    expect(await rpc('team.me')).toMatchObject({ ok: true, value: { team: false } });
    expect(rowsOf(dbPath)).toEqual(before);
  }, 60_000);

  it("keeps this computer's own events and notifications out of the window while joined, and starts joined", async () => {
    const { server } = await teamServer();
    const first = await desktop();
    expect((await first.rpc('teamLink.join', { server, login: 'dana', password: DANA_PW })).ok).toBe(true);
    // The local core raises its own alert (the quota runs low): neither its notification nor its events show.
    const sentBefore = first.w.webContents.sent.length;
    first.s.core.engine.onQuota(quotaSnapshot(5, Date.UTC(2030, 1, 1)));
    await first.s.core.engine.runDue();
    expect(await first.s.core.call('alerts.unread', undefined)).toEqual({ count: 1 });
    expect(fake.notifications).toEqual([]);
    const sent = first.w.webContents.sent.slice(sentBefore).map((x) => (x.payload as { name: string }).name);
    expect(sent).not.toContain('alert.raised');
    expect(sent).not.toContain('quota.changed');

    // The next start is joined from the first moment: the local watcher never starts.
    fake.app.emit('before-quit', { preventDefault() {} });
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalled(), { timeout: 20_000 });
    fake = createFakeElectron({ userData: dir.dir });
    FakeBrowserWindow.instances = [];
    vi.resetModules();
    const again = await desktop();
    expect(again.s.core.isWatching()).toBe(false);
    expect(searchNames(await again.rpc('searches.list'))).toEqual(['Team Hondas']);
    expect(await again.rpc('teamLink.leave')).toMatchObject({ ok: true, value: { joined: false } });
    expect(again.s.core.isWatching()).toBe(true);
    // Left: this computer's notifications show again.
    again.s.core.engine.onQuota(quotaSnapshot(5, Date.UTC(2030, 3, 1)));
    await again.s.core.engine.runDue();
    expect(fake.notifications.map((n) => [n.title, n.shown])).toEqual([
      ['Lotwatch: request quota running low', true],
    ]);
  }, 60_000);
});

import { request, type ClientRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../src/core/app';
import { silentLogger } from '../../src/core/log';
import { startHeadless, type RunningHeadless } from '../../src/headless/start';
import type { ContractEvent } from '../../src/shared/ipc/contract';
import { FakeClock } from '../helpers/fakeClock';
import { quotaSnapshot } from '../helpers/quota';
import { tempDir } from '../helpers/tmp';
import { rendererFolder } from './shellFolders';
import { digestAfterQuietHours } from './digestScenario';

// The browser shell's notifications come from core's one delivery path: the page shows only what core posts as
// `notification.posted`, so Settings' "notifications off" holds here as in the desktop app, and alerts raised while
// no tab was open come as one summary when a tab opens.

let renderer: { dir: string; cleanup(): void };
beforeAll(() => {
  renderer = rendererFolder();
});
afterAll(() => renderer.cleanup());

const running: { h: RunningHeadless; cleanup(): void }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.h.dispose();
    r.cleanup();
  }
});

async function start(clock?: FakeClock): Promise<RunningHeadless> {
  const d = tempDir();
  const h = await startHeadless({
    dataDir: d.dir,
    rendererDir: renderer.dir,
    version: 't',
    log: silentLogger,
    ...(clock ? { clock } : {}),
  });
  running.push({ h, cleanup: d.cleanup });
  await h.core.ready;
  return h;
}

/** A page's event stream: every contract event the server sends, as it arrives. */
function openPage(url: string): Promise<{ events: ContractEvent[]; close(): void }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const events: ContractEvent[] = [];
    const req: ClientRequest = request(
      {
        host: u.hostname,
        port: u.port,
        path: '/events',
        headers: { Host: u.host, Authorization: `Bearer ${u.searchParams.get('token')}` },
      },
      (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          buf += c;
          let i: number;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            if (block.startsWith('data: ')) events.push(JSON.parse(block.slice(6)) as ContractEvent);
            if (block.startsWith(': connected'))
              setImmediate(() => resolve({ events, close: () => req.destroy() }));
          }
        });
      },
    );
    req.on('error', (e) => (events.length ? undefined : reject(e)));
    req.end();
  });
}

/** Makes core raise one of its own alerts (quota low / used up: delivered now, whatever the hour). */
async function raise(core: Core, remaining: number, periodEnd: number): Promise<void> {
  core.engine.onQuota(quotaSnapshot(remaining, periodEnd));
  await core.engine.runDue();
}

const posted = (events: ContractEvent[]) => events.filter((e) => e.name === 'notification.posted');

describe('browser shell notifications', () => {
  it('posts nothing to the page while notifications are off in Settings; the alert still lands in the inbox', async () => {
    const h = await start();
    const page = await openPage(h.url);
    try {
      expect((await h.core.invoke('settings.update', { notificationsEnabled: false })).ok).toBe(true);
      await raise(h.core, 0, Date.UTC(2030, 0, 1));
      await vi.waitFor(() => expect(page.events.some((e) => e.name === 'alert.raised')).toBe(true));
      expect(posted(page.events)).toEqual([]);
      expect(await h.core.invoke('alerts.unread', undefined)).toMatchObject({
        ok: true,
        value: { count: 1 },
      });
      // On again: the next alert is posted, once.
      expect((await h.core.invoke('settings.update', { notificationsEnabled: true })).ok).toBe(true);
      await raise(h.core, 5, Date.UTC(2030, 1, 1));
      await vi.waitFor(() => expect(posted(page.events)).toHaveLength(1));
      expect(posted(page.events)[0]).toMatchObject({
        payload: { title: 'Lotwatch: request quota running low', lot_key: null },
      });
    } finally {
      page.close();
    }
  });

  it('sums up the alerts raised while no tab was open as one notification when a tab opens', async () => {
    const h = await start();
    await raise(h.core, 0, Date.UTC(2030, 0, 1));
    await raise(h.core, 5, Date.UTC(2030, 1, 1));
    const page = await openPage(h.url);
    try {
      await vi.waitFor(() => expect(posted(page.events)).toHaveLength(1));
      expect(posted(page.events)[0]).toMatchObject({
        payload: {
          title: '2 alerts while no Lotwatch tab was open',
          body: 'Lotwatch: monthly requests used up\nLotwatch: request quota running low',
        },
      });
      // A second tab opening later gets no second summary.
      const second = await openPage(h.url);
      await new Promise((r) => setImmediate(r));
      expect(posted(second.events)).toEqual([]);
      second.close();
    } finally {
      page.close();
    }
  });

  it('shows no missed-alerts summary when notifications were turned off before a tab opened', async () => {
    const h = await start();
    await raise(h.core, 0, Date.UTC(2030, 0, 1));
    await raise(h.core, 5, Date.UTC(2030, 1, 1));
    expect((await h.core.invoke('settings.update', { notificationsEnabled: false })).ok).toBe(true);
    const page = await openPage(h.url);
    try {
      await new Promise((r) => setImmediate(r));
      expect(posted(page.events)).toEqual([]);
      // Turned on again, a later tab still gets nothing: the kept ones were dropped, never shown late.
      expect((await h.core.invoke('settings.update', { notificationsEnabled: true })).ok).toBe(true);
      const second = await openPage(h.url);
      await new Promise((r) => setImmediate(r));
      expect(posted(second.events)).toEqual([]);
      second.close();
    } finally {
      page.close();
    }
  });

  it('sends the quiet hours digest once when they end: one inbox entry, one notification', async () => {
    const clock = new FakeClock(Math.floor(Date.now() / 60_000) * 60_000);
    const h = await start(clock);
    const page = await openPage(h.url);
    try {
      await digestAfterQuietHours({
        call: (m, i) => h.core.call(m, i),
        clock,
        runDue: async () => {
          await h.core.engine.runDue();
          await h.core.engine.idle();
          // The SSE frames are written; let them arrive.
          await new Promise((r) => setTimeout(r, 50));
        },
        shown: () => posted(page.events).map((e) => (e.payload as { title: string }).title),
      });
    } finally {
      page.close();
    }
  }, 60_000);
});

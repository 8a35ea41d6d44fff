import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { AppFrame } from './pages/AppFrame';
import { SettingsPage } from './pages/SettingsPage';

// Browsers keep cookies per host, not per port: a cookie Lotwatch set on 127.0.0.1 would go to every other web
// server on this computer. Lotwatch's credential must stay with Lotwatch's own page (docs/architecture.md "One
// contract, two shells").

/** A web server on 127.0.0.1 (another port) that records the headers of every request it gets. */
async function headerRecorder(): Promise<{ server: Server; url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><title>Another local app</title><img src="/pixel.png" alt=""><p>Another local app</p>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
}

/** Sends a call to Lotwatch with the given headers (Host set to Lotwatch); resolves with the status. */
function replay(lotwatch: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: lotwatch.hostname,
        port: lotwatch.port,
        method: 'POST',
        path: '/rpc/app.info',
        headers: { ...headers, Host: lotwatch.host, 'Content-Type': 'application/json' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test.describe('the browser shell keeps its credential on its own page', () => {
  test.skip(({ app }) => app.shell !== 'headless', 'the desktop app has no address and no token');

  test('another server on 127.0.0.1 receives nothing that opens Lotwatch, and the app still works after a reload', async ({
    app,
  }) => {
    const { page } = app;
    const frame = new AppFrame(page);
    await expect(frame.nav).toBeVisible();
    // The token is gone from the address bar (and so from a bookmark or a screenshot of it).
    expect(page.url()).not.toContain('token');
    const lotwatch = new URL(app.url!);
    const other = await headerRecorder();
    try {
      // The same browser visits another local app, as a buyer would in another tab.
      const tab = await page.context().newPage();
      await tab.goto(other.url);
      await expect(tab.getByText('Another local app')).toBeVisible();
      await tab.close();
      expect(other.seen.length).toBeGreaterThan(0);
      for (const headers of other.seen) {
        // Whatever it got, replayed against Lotwatch, opens nothing.
        const forwarded = Object.fromEntries(
          Object.entries(headers).filter(
            ([k, v]) => typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k),
          ),
        ) as Record<string, string>;
        expect(await replay(lotwatch, forwarded)).toBe(401);
        for (const value of Object.values(headers).flatMap((v) => String(v).split(/[;=\s,]+/))) {
          if (value.length >= 16)
            expect(await replay(lotwatch, { Authorization: `Bearer ${value}` })).toBe(401);
        }
        expect(String(headers.cookie ?? '')).not.toMatch(/lotwatch/i);
        expect(headers.authorization).toBeUndefined();
      }
    } finally {
      await new Promise((resolve) => other.server.close(resolve));
    }
    // A reload keeps the tab working without the token in its address.
    await page.reload();
    await frame.navLink('Settings').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(new SettingsPage(page).theme).toHaveValue('system');
    // A new tab opened from the printed address works on its own.
    const second = await page.context().newPage();
    await second.goto(app.url!);
    await new AppFrame(second).navLink('Settings').click();
    await expect(new SettingsPage(second).theme).toHaveValue('system');
    expect(second.url()).not.toContain('token');
    // A tab opened without the printed address says what to open instead of failing call by call.
    const bare = await page.context().newPage();
    await bare.goto(lotwatch.origin + '/');
    await expect(
      bare.getByText(/This tab has no Lotwatch token\. Open the full address printed by/),
    ).toBeVisible();
    expect(app.consoleErrors).toEqual([]);
  });
});

import { expect, test } from './fixtures';
import { WatchlistPage } from './pages/WatchlistPage';

// A buyer with 100 watched lots: at 1024 x 768 every column of the watchlist shows whole (no header cut, every lot
// number whole) and a dozen rows or more are in view; the row menu works from the keyboard; grouping and the bulk
// actions act on the list. The Demo market stands still (stepped clock) so the countdowns do not move under the test.

const DEMO_KEY = 'lotwatch-demo-key';
const COUNT = 100;

/** Lot numbers of `n` open lots of the Demo market, soonest sale first (the Demo service's list, as the app sees it). */
async function openLotNumbers(demoUrl: string, n: number): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  while (out.length < n) {
    const q = `per_page=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await fetch(`${demoUrl}/api/v1/vehicle-auction/vehicles?${q}`, {
      headers: { 'X-API-Key': DEMO_KEY },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { lot_number: string; auction: { state: string } }[];
      meta: { next_cursor: string | null };
    };
    for (const v of body.data) if (v.auction.state === 'open' && out.length < n) out.push(v.lot_number);
    cursor = body.meta.next_cursor;
    if (!cursor) break;
  }
  expect(out).toHaveLength(n);
  return out;
}

/** Calls the app's contract over the headless shell's RPC route with the page's token, as the renderer does. */
async function rpc(appUrl: string, method: string, input: unknown): Promise<unknown> {
  const u = new URL(appUrl);
  const res = await fetch(`${u.origin}/rpc/${method}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${u.searchParams.get('token') ?? ''}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  expect(body.ok, `${method}: ${body.error?.message ?? ''}`).toBe(true);
  return body.value;
}

test.describe('a watchlist of 100 lots', () => {
  test.use({
    shellArgs: ['--demo-control', '--demo-clock', 'stepped'],
    viewport: { width: 1024, height: 768 },
  });

  test('fits 1024 x 768 with every column whole and 12+ rows, and its menu, grouping and bulk actions work', async ({
    app,
  }) => {
    test.skip(app.demoUrl === null || app.url === null, 'needs the headless shell with --demo-control');
    const { page } = app;
    const lots = await openLotNumbers(app.demoUrl!, COUNT);
    const watchlist = new WatchlistPage(page);
    await watchlist.open();
    await watchlist.removeExamples(3);
    for (const lot of lots) await rpc(app.url!, 'watchlist.add', { target: lot });
    await page.reload();
    await watchlist.open();
    await expect(page.getByText(`${COUNT} watched`)).toBeVisible();
    const table = watchlist.table;
    await expect(table.getByRole('row').nth(1)).toBeVisible();

    for (const [width, scheme] of [
      [1024, 'dark'],
      [1366, 'light'],
    ] as const) {
      await page.setViewportSize({ width, height: 768 });
      await page.emulateMedia({ colorScheme: scheme });
      // Let a layout pass settle the virtualised rows at the new size.
      await expect(table.getByRole('row').nth(12)).toBeVisible();
      const m = await table.evaluate((t) => {
        const wrap = t.parentElement!;
        const box = wrap.getBoundingClientRect();
        const headers = [...t.querySelectorAll('thead th')].map((h) => ({
          text: (h.textContent ?? '').trim(),
          cut: h.scrollWidth > h.clientWidth,
        }));
        const lotCells = [...t.querySelectorAll('td.wl-col-lot')].map((c) => {
          const n = c.querySelector('.wl-lot-number');
          return {
            text: n?.textContent ?? '',
            size: n ? `${n.scrollWidth}/${n.clientWidth}` : '',
            whole:
              !!n &&
              n.scrollWidth <= n.clientWidth &&
              n.getBoundingClientRect().right <= c.getBoundingClientRect().right,
          };
        });
        const rowsInView = [...t.querySelectorAll('tbody tr[aria-rowindex]')].filter((r) => {
          const b = r.getBoundingClientRect();
          return b.height > 0 && b.top >= box.top && b.bottom <= box.bottom + 1;
        }).length;
        return {
          headers,
          lotCells,
          rowsInView,
          tableOverflows: t.scrollWidth > wrap.clientWidth,
          wrapRight: box.right,
          windowWidth: (globalThis as unknown as { innerWidth: number }).innerWidth,
        };
      });
      expect(
        m.headers.filter((h) => h.cut),
        `cut headers at ${width}`,
      ).toEqual([]);
      expect(m.headers.map((h) => h.text)).toEqual(
        expect.arrayContaining(['Lot', 'Vehicle', 'Sale', 'Bid', 'Max bid', 'Landed', 'Status', 'Checked']),
      );
      expect(m.lotCells.length).toBeGreaterThan(0);
      expect(m.lotCells.filter((c) => !c.whole || !/^#\d+$/.test(c.text))).toEqual([]);
      expect(m.tableOverflows, `the table scrolls sideways at ${width}`).toBe(false);
      expect(m.wrapRight).toBeLessThanOrEqual(m.windowWidth);
      expect(m.rowsInView, `rows in view at ${width}`).toBeGreaterThanOrEqual(12);
      // Virtualised: far fewer rows in the page than watches.
      expect(await table.locator('tbody tr[aria-rowindex]').count()).toBeLessThan(COUNT);
      await page.screenshot({ path: test.info().outputPath(`watchlist100-${width}-${scheme}.png`) });
    }

    // The row menu from the keyboard: Enter opens it on "Check now", arrows move, Escape closes it and the focus
    // goes back to the button.
    const first = table.getByRole('row').nth(1);
    const menuButton = watchlist.menuButton(first);
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Check now' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Rules' })).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(menu.getByRole('menuitem', { name: 'Remove…' })).toBeFocused();
    await page.screenshot({ path: test.info().outputPath('watchlist100-menu.png') });
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(menuButton).toBeFocused();
    await page.keyboard.press(' ');
    await expect(menu.getByRole('menuitem', { name: 'Check now' })).toBeFocused();
    await page.keyboard.press('Escape');

    // Grouped by sale day: a heading row per day, and still every watch.
    await watchlist.groupBySaleDay.click();
    await expect(table.locator('tr.lw-group-row').first()).toBeVisible();
    await expect(table.locator('tr.lw-group-row').first()).toContainText(/· \d+ watch/);
    await page.screenshot({ path: test.info().outputPath('watchlist100-grouped.png') });
    await watchlist.groupBySaleDay.click();

    // Bulk: select three, pause them (the rows say Paused), then remove them.
    for (let i = 1; i <= 3; i++) await table.getByRole('row').nth(i).getByRole('checkbox').check();
    await expect(watchlist.bulkBar).toContainText('3 selected');
    await watchlist.bulkBar.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByText('Paused 3 watches.')).toBeVisible();
    await expect(table.getByText('Paused', { exact: true })).toHaveCount(3);
    await watchlist.bulkBar.getByRole('button', { name: 'Remove…' }).click();
    await page
      .getByRole('group', { name: 'Stop watching 3 watches?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect(page.getByText(`${COUNT - 3} watched`)).toBeVisible();
    expect(app.consoleErrors).toEqual([]);
  });
});

import type { Page } from '@playwright/test';
import { DemoMarket } from './demoMarket';
import { expect, openView, startSandbox, stopProcess, test } from './fixtures';
import { AlertsPage } from './pages/AlertsPage';
import { AppFrame } from './pages/AppFrame';
import { LotPage } from './pages/LotPage';
import { SearchPage } from './pages/SearchPage';
import { SettingsPage } from './pages/SettingsPage';
import { WatchlistPage } from './pages/WatchlistPage';

// User journeys, each on a fresh data folder: the headless shell + the sandbox + system Chromium. The journeys that
// need the market to move run the Demo market on a stepped clock (--demo-control --demo-clock stepped): it and the
// watcher stand still until the spec steps them, and a lot sells, is rescheduled or relisted when the spec says, so
// no journey waits on wall time.

/** A Demo market that moves only when the spec steps it. */
const STEPPED = ['--demo-control', '--demo-clock', 'stepped'];

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`) });

/** What the page showed as browser notifications (the fixture records them). */
const notifications = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { __notifications: { title: string; body: string }[] }).__notifications,
  );

/** Points Lotwatch at a service of our own with `key`: Settings → key, Demo mode off, Service URL. */
const useService = (page: Page, baseUrl: string, key: string): Promise<void> =>
  new SettingsPage(page).useService(baseUrl, key);

/** With a real key, the first request of each kind of action says so once: go on. */
async function continueSpend(page: Page): Promise<void> {
  const notice = page.getByRole('alertdialog');
  await expect(notice).toContainText('of your quota');
  await notice.getByRole('button', { name: 'Continue' }).click();
  await expect(notice).toHaveCount(0);
}

/** The Demo market behind the shell, stepped by the spec (the shell runs with --demo-clock stepped). */
const marketOf = (app: { demoUrl: string | null }): DemoMarket => {
  test.skip(app.demoUrl === null, 'needs the headless shell with --demo-control');
  return new DemoMarket(app.demoUrl as string);
};

/** `$12,345`, as alerts write prices. */
const usd = (n: number): string => `$${n.toLocaleString('en-US')}`;

test.describe('journeys', () => {
  test('first start in Demo mode: labelled, with example watches and a search that are easy to remove', async ({
    app,
  }) => {
    const { page } = app;
    const watchlist = new WatchlistPage(page);
    await expect(watchlist.frame.demoBadge).toBeVisible();
    await watchlist.open();
    const table = watchlist.table;
    await expect(table.getByText('Example')).toHaveCount(3);
    // Their sales are minutes away or under way now (on the block in turn).
    await expect(table).toContainText(/\d+m \d+s|Sale under way/);
    await openView(page, 'Saved searches');
    await expect(page.getByRole('row', { name: 'Example: Tesla Model 3' })).toBeVisible();
    // The example watched call (a simulated channel's new videos) is listed under the saved searches, and counted.
    const calls = page.getByRole('table', { name: 'Watched calls' });
    await expect(calls.getByRole('row', { name: 'Auction Garage: new videos' })).toContainText('Example');
    await shot(page, 'first-start');
    await page.getByRole('button', { name: 'Remove examples (2)' }).click();
    await page
      .getByRole('group', { name: /Remove all example/ })
      .getByRole('button', { name: 'Remove examples' })
      .click();
    await expect(page.getByRole('row', { name: 'Example: Tesla Model 3' })).toHaveCount(0);
    await expect(page.getByRole('row', { name: 'Auction Garage: new videos' })).toHaveCount(0);
    await watchlist.open();
    await expect(page.getByText(/Nothing watched yet|No watched/i).first()).toBeVisible();
    expect(app.consoleErrors).toEqual([]);
  });

  test('search by filters and open a lot: photos, sale history, shipping', async ({ app }) => {
    const { page } = app;
    const search = new SearchPage(page);
    const lot = new LotPage(page);
    await search.open();
    await page.getByRole('spinbutton', { name: /^Year/ }).first().fill('2018');
    await search.search();
    const rows = search.rows;
    await expect(rows.first()).toBeVisible();
    await rows.first().press('Enter');
    await expect(lot.firstPhoto).toBeVisible();
    await expect(lot.saleHistory).not.toContainText('Loading');
    await lot.getShippingPrices();
    await expect(lot.shippingPrices).toContainText('$');
    await shot(page, 'lot-opened');
    expect(app.consoleErrors).toEqual([]);
  });

  test.describe('on a stepped market', () => {
    test.use({ shellArgs: STEPPED });

    test('watch a lot: bid, reschedule and sale alerts arrive once each, as notifications and in the inbox', async ({
      app,
    }) => {
      const { page } = app;
      const market = marketOf(app);
      // The fixture's Notification stands in for the browser's, already granted.
      await openView(page, 'Settings');
      await expect(page.getByText('This browser will show alerts as notifications.')).toBeVisible();

      const lot = await market.openLot(40, 120);
      const watchlist = new WatchlistPage(page);
      await watchlist.open();
      await watchlist.add(lot.lot_number);
      const row = watchlist.row(lot.lot_number);
      await expect(row).toBeVisible();

      // Rule: tell me when the bid reaches its next step (every bid change would also work, but the cap of six
      // alerts per lot and hour would then hold some back, by design).
      const bid = lot.pricing.current_bid_usd ?? 0;
      await watchlist.rowAction('Rules', row);
      const rules = page.getByRole('form', { name: /^Alert rules for/ });
      await rules.getByRole('textbox', { name: /Bid rises to/ }).fill(String(bid + 25));
      await rules.getByRole('button', { name: 'Save rules' }).click();
      await expect(page.getByText(/Rules saved for/)).toBeVisible();

      // The seller moves the sale 20 market minutes later; "Check now" sees it at once.
      await market.reschedule(lot.lot_number, Date.parse(lot.auction.auction_at) + 20 * 60_000);
      await watchlist.checkNow(row);
      const ofLot = async () =>
        (await notifications(page)).filter(
          (n) => n.title.includes(lot.title) || n.body.includes(lot.lot_number),
        );
      await expect.poll(async () => (await ofLot()).some((n) => /auction moved to/.test(n.title))).toBe(true);

      // It sells now for a price well above its bid; the watcher's next scheduled check (at most 30 market minutes
      // away) sees the bid and the result.
      const price = bid + 5_000;
      await market.sell(lot.lot_number, price);
      await market.step(30);
      await expect
        .poll(async () => (await ofLot()).some((n) => n.title.includes(`Sold for ${usd(price)}`)))
        .toBe(true);
      const seen = await ofLot();
      expect(seen.some((n) => /bid reached/.test(n.title))).toBe(true);
      // Exactly once each: no title twice.
      const titles = seen.map((n) => n.title);
      expect(new Set(titles).size).toBe(titles.length);

      const alerts = new AlertsPage(page);
      await alerts.open();
      const group = alerts.groupFor(lot.title);
      await expect(alerts.alertsIn(group, /auction moved to/)).toHaveCount(1);
      await expect(alerts.alertsIn(group, /Sold for/)).toHaveCount(1);
      await shot(page, 'alerts-after-sale');
      await alerts.markAllReadButton.click();
      await expect(alerts.allRead).toBeVisible();
      expect(app.consoleErrors).toEqual([]);
    });

    test('save a search and get a new-match alert', async ({ app }) => {
      const { page } = app;
      const market = marketOf(app);
      // A Toyota of the market, to be relisted later: the search is for its model and year, a list one run reads
      // whole (a longer list is read over several runs, and a lot is new only where an earlier run read).
      const toyota = await market.openLot(60, 14 * 24 * 60, 'TOYOTA');
      const search = new SearchPage(page);
      await search.open();
      await search.selectByText('Make', 'TOYOTA');
      await search.selectByText('Model', toyota.model);
      await search.years(toyota.year, toyota.year);
      await search.fillSaveDialog('Toyotas', '*/5 * * * *', 20);
      const dialog = search.dialog;
      await expect(dialog.getByRole('status')).toContainText('Toyotas');
      await dialog.getByRole('button', { name: 'Close' }).click();

      // The first run reads the list as it is (no alerts). Then the Toyota ends unsold and comes back with its sale
      // in two hours, and the next run, five market minutes on, finds it.
      await market.step(5);
      await market.sell(toyota.lot_number, null, 'unsold');
      const relisted = await market.relist(toyota.lot_number, (await market.now()) + 2 * 3_600_000);
      await market.step(5);
      const matches = async () =>
        (await notifications(page)).filter(
          (n) =>
            n.body.includes('Saved search “Toyotas”') &&
            /new match/.test(n.title) &&
            n.title.includes(relisted.title),
        );
      await expect.poll(async () => (await matches()).length).toBe(1);
      await openView(page, 'Alerts');
      await expect(page.getByText(/Saved search “Toyotas”/).first()).toBeVisible();
      await shot(page, 'new-match');
    });
  });

  test('offline review: with the service stopped, the library and stored lots still open', async ({
    app,
  }) => {
    const { page } = app;
    const search = new SearchPage(page);
    const sb = await startSandbox(['--key', 'journey-key', '--seed', '5', '--lots', '2000']);
    try {
      await useService(page, sb.baseUrl, 'journey-key');
      await search.open();
      await search.search();
      await continueSpend(page);
      const rows = search.rows;
      await expect(rows.first()).toBeVisible();
      const title = (await search.title(0).innerText()).trim();
      await rows.first().click();
      await continueSpend(page);
      await expect(new LotPage(page).heading(title)).toBeVisible();
    } finally {
      await stopProcess(sb.proc);
    }
    // The service is gone: search explains it, the library and the lot page still work.
    await search.open();
    await search.search();
    await expect(page.getByRole('alert').first()).toContainText(/could not be reached|network|connection/i);
    await openView(page, 'Library');
    await expect(page.getByText(/^\d+ lots in the library/)).toBeVisible();
    const first = page.getByRole('table', { name: 'Library lots' }).getByRole('row').nth(1);
    await first.getByRole('button').first().click();
    await expect(page.getByText(/Offline · stored/)).toBeVisible();
    await expect(new LotPage(page).vehicle).toContainText('Odometer');
    // The header says the service cannot be reached once Lotwatch has tried.
    await expect(new AppFrame(page).offlineBadge).toBeVisible();
    await shot(page, 'offline-lot');
  });

  test('a wrong key: the 401 is explained and nothing crashes', async ({ app }) => {
    const { page } = app;
    const sb = await startSandbox(['--key', 'the-right-key', '--lots', '2000']);
    try {
      await useService(page, sb.baseUrl, 'a-wrong-key');
      await new SettingsPage(page).testKeyButton.click();
      await expect(page.getByText('The service refused this key.')).toBeVisible();
      const search = new SearchPage(page);
      await search.open();
      await search.search();
      await continueSpend(page);
      await expect(page.getByRole('alert').first()).toContainText(/key/i);
      // A check of a watched lot meets the same 401: the watch shows it and Lotwatch raises one alert about itself.
      const watchlist = new WatchlistPage(page);
      await watchlist.open();
      await watchlist.checkNow();
      await continueSpend(page);
      await expect(watchlist.table).toContainText(/key/i);
      await new AlertsPage(page).open();
      await expect(page.getByText('Lotwatch: API key rejected')).toHaveCount(1);
      await shot(page, 'wrong-key');
    } finally {
      await stopProcess(sb.proc);
    }
  });

  test('quota exhausted: the 429 is explained and polling pauses instead of failing', async ({ app }) => {
    const { page } = app;
    const sb = await startSandbox(['--key', 'spent-key', '--quota', '0', '--lots', '2000']);
    try {
      await useService(page, sb.baseUrl, 'spent-key');
      await new SettingsPage(page).testKeyButton.click();
      // Said as the date the plan's period ends, never as a number of seconds to wait.
      await expect(
        page.getByText(/^Your plan's monthly requests are used up until \d{1,2} [A-Z][a-z]+ \d{4}\.$/),
      ).toBeVisible();
      // Lotwatch knows the quota is spent (from the 429's headers) and does not spend requests it has not got.
      const watchlist = new WatchlistPage(page);
      await watchlist.open();
      await watchlist.checkNow();
      await continueSpend(page);
      await expect(page.getByText(/Check skipped: the request budget is spent for now/)).toBeVisible();
      await openView(page, 'Usage');
      await shot(page, 'quota-exhausted');
      await expect(
        page
          .getByText(/used up until \d{1,2} [A-Z][a-z]+ \d{4}\. Saved searches and watches wait until then/)
          .first(),
      ).toBeVisible();
      await expect(page.getByText(/\d{5,} s\b/)).toHaveCount(0);
      // Still answering: another view loads.
      await openView(page, 'Library');
      await expect(
        page.getByText(/lots in the library|Nothing stored yet|library is empty/i).first(),
      ).toBeVisible();
    } finally {
      await stopProcess(sb.proc);
    }
  });
});

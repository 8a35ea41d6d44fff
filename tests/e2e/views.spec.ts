import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { DemoMarket } from './demoMarket';
import { expect, openView, test } from './fixtures';
import { AlertsPage } from './pages/AlertsPage';
import { AppFrame } from './pages/AppFrame';
import { LotPage } from './pages/LotPage';
import { PlanPage } from './pages/PlanPage';
import { SearchPage } from './pages/SearchPage';
import { WatchlistPage } from './pages/WatchlistPage';

// One main flow per view, in Demo mode against the built-in sandbox, with a screenshot of each view saved as a test
// artifact under test-results/.

/**
 * Console errors other than the browser's own "Failed to load resource" line for a refusal the test caused on
 * purpose (the bridge answers bad input with a 400 and a typed envelope, and Chromium logs every 4xx).
 */
const unexpectedErrors = (errors: string[], refusedMethod: string) =>
  errors.filter((e) => !(e.includes('status of 400') && e.includes(`/rpc/${refusedMethod}`)));

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });

test.describe('views', () => {
  test('Search: filters from the service, results, sorting, next page, and a lot opens', async ({ app }) => {
    const { page } = app;
    const search = new SearchPage(page);
    await search.open();
    // The Make list comes from GET /vehicles/filters.
    await search.selectByText('Make', 'TOYOTA');
    await search.search();
    const rows = search.rows;
    await expect(rows.first()).toBeVisible();
    await expect(rows.first()).toContainText('TOYOTA');
    await expect(page.getByText(/^Page 1 · \d+ lots/)).toBeVisible();

    // Sorting acts on the loaded rows: highest current bid first after two clicks.
    const bidHeader = page.getByRole('button', { name: /Current bid/ });
    await bidHeader.click();
    await bidHeader.click();
    const bids = await rows.locator('td.num').first().allInnerTexts();
    expect(bids.length).toBeGreaterThan(0);

    await page.getByRole('button', { name: /Next/ }).click();
    await expect(page.getByText(/^Page 2 · \d+ lots/)).toBeVisible();
    await shot(page, 'search');

    await rows.first().click();
    await expect(page.getByRole('heading', { level: 2, name: /TOYOTA/ })).toBeVisible();
    // Back on Search: the same page of results and the same filters, kept while the lot was open.
    await new LotPage(page).backButton.click();
    await expect(page.getByText(/^Page 2 · \d+ lots/)).toBeVisible();
    await expect(rows.first()).toContainText('TOYOTA');
    await expect(search.make).toHaveValue(/TOYOTA/i);
    expect(app.consoleErrors).toEqual([]);
  });

  test('Lot detail: photos, fields, sale history, shipping prices, raw record, and watch', async ({
    app,
  }) => {
    const { page } = app;
    const search = new SearchPage(page);
    const lot = new LotPage(page);
    // A lot that is not one of the Demo examples (they bid on the block now, so they are on the first page too).
    const examples = new WatchlistPage(page);
    await examples.open();
    await expect(examples.table.getByText('Example')).toHaveCount(3);
    const watched = [...(await examples.table.innerText()).matchAll(/#(\d+)/g)].map((m) => m[1] as string);
    await search.open();
    await search.search();
    let unwatched = search.rows;
    for (const n of watched) unwatched = unwatched.filter({ hasNotText: n });
    await unwatched.nth(1).click();
    await expect(page.getByRole('button', { name: /^Photo 1 of \d+: open the large view/ })).toBeVisible();
    await expect(lot.vehicle).toContainText('Odometer');
    await expect(lot.saleHistory).toBeVisible();
    // Related lots finish loading: a card per lot, or the sentence that there are none.
    const related = lot.related;
    await expect(
      related
        .getByRole('link')
        .first()
        .or(related.getByText(/No upcoming lots/)),
    ).toBeVisible();

    // Gallery: the large view opens and closes with Escape.
    await lot.firstPhoto.click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    // One Get prices asks for every documented port; the cheapest port stands beside the buyer's.
    await lot.getShippingPrices();
    await expect(lot.shippingPrices.getByRole('row')).toHaveCount(9);
    await expect(lot.shipping.getByRole('group', { name: 'Cheapest port and your port' })).toContainText(
      'Cheapest port',
    );
    await lot.shipping.scrollIntoViewIfNeeded();
    await shot(page, 'lot-shipping');
    await lot.getShippingPrices('auction-to-port');
    await expect(lot.shippingPrices.getByRole('row')).toHaveCount(9);

    await expect(page.getByRole('link', { name: /Open on (Copart|IAAI)/ })).toHaveAttribute(
      'href',
      /^https:\/\/www\.(copart|iaai)\.com\//,
    );
    await lot.watchButton.click();
    await expect(page.getByText('● Watching')).toBeVisible();
    await page.getByRole('textbox', { name: /Remind me minutes before the sale/ }).fill('90, 15');
    await page.getByRole('button', { name: 'Save rules' }).click();
    await expect(page.getByText('Rules saved.')).toBeVisible();
    await shot(page, 'lot');

    await lot.backButton.click();
    const watchlist = new WatchlistPage(page);
    await watchlist.open();
    await expect(watchlist.table.getByRole('row')).toHaveCount(5);
    expect(app.consoleErrors).toEqual([]);
  });

  test('Watchlist: add by lot number, refuse a bad VIN with its field, remove the examples', async ({
    app,
  }) => {
    const { page } = app;
    const watchlist = new WatchlistPage(page);
    const search = new SearchPage(page);
    await watchlist.open();
    const table = watchlist.table;
    await expect(table.getByRole('row')).toHaveCount(4);
    const target = watchlist.target;

    await watchlist.add('1HGCM82633A00435');
    await expect(target).toHaveAttribute('aria-invalid', 'true');

    // A lot number from a live search.
    await search.open();
    await search.search();
    const lotCell = search.lotCell(5);
    const lotNumber = ((await lotCell.innerText()).match(/\d{6,}/) ?? [''])[0];
    expect(lotNumber).toMatch(/^\d+$/);
    await watchlist.open();
    await watchlist.add(lotNumber);
    await expect(table.getByRole('row')).toHaveCount(5);
    await expect(table).toContainText(lotNumber);

    await watchlist.removeExamples(3);
    await expect(table.getByRole('row')).toHaveCount(2);
    await shot(page, 'watchlist');
    expect(unexpectedErrors(app.consoleErrors, 'watchlist.add')).toEqual([]);
  });

  test("Buyer's desk: a watched lot's costs and max bid, its notes, and the auction-day plan as a calendar", async ({
    app,
  }) => {
    const { page } = app;
    const watchlist = new WatchlistPage(page);
    await watchlist.open();
    await expect(watchlist.table.getByRole('row')).toHaveCount(4);
    await watchlist.table.getByRole('row').nth(1).locator('.wl-title-line').getByRole('button').click();
    const costs = page.getByRole('region', { name: 'Your costs' });
    await expect(costs.getByRole('row', { name: /Landed cost/ })).toBeVisible();
    await costs.getByRole('textbox', { name: 'Target landed cost (USD)' }).fill('9500');
    // No shipping price yet: the max bid says so, and saving it asks first.
    await expect(costs.getByText(/^Max bid/)).toContainText('excluding shipping');
    await costs.getByRole('button', { name: 'Save as max bid' }).click();
    const ask = costs.getByRole('alertdialog', { name: 'Save a max bid that leaves costs out' });
    await expect(ask).toContainText('No shipping price for Savannah yet');
    // The costs without shipping at 1366 light and 1024 dark (the theme follows the system by default).
    for (const [width, scheme] of [
      [1366, 'light'],
      [1024, 'dark'],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await ask.scrollIntoViewIfNeeded();
      await shot(page, `lot-costs-without-shipping-${width}-${scheme}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    // Get prices (one request for every port) puts shipping in: the question goes, the max bid is complete.
    await ask.getByRole('button', { name: 'Get prices' }).click();
    await expect(ask).toBeHidden();
    await expect(costs.getByRole('row', { name: /Shipping to Savannah/ })).toContainText('$');
    await expect(costs.getByText(/^Max bid/)).not.toContainText('excluding');
    await costs.getByRole('button', { name: 'Save as max bid' }).click();
    await expect(costs.getByText(/Max bid \$[\d,]+ saved\./)).toBeVisible();
    const notes = page.getByRole('region', { name: 'Notes and tags' });
    await notes.getByRole('textbox', { name: 'Notes' }).fill('Check the frame; keys, maybe');
    await notes.getByRole('combobox', { name: 'Tags, separated by commas' }).fill('export, project');
    await notes.getByRole('button', { name: 'Save notes' }).click();
    await expect(notes.getByText('Saved on this computer.')).toBeVisible();
    await shot(page, 'lot-costs');

    const plan = new PlanPage(page);
    await plan.open();
    // The three examples sell within minutes: today, or tomorrow when the test runs just before midnight.
    await expect(plan.rows).toHaveCount(3);
    await expect(plan.rows.filter({ hasText: 'Check the frame; keys, maybe' })).toHaveCount(1);
    const download = await plan.exportCalendar();
    // Unfolded (RFC 5545 folds lines at 75 octets) before reading the escaped note.
    const ics = readFileSync((await download.path())!, 'utf8').replace(/\r\n[ \t]/g, '');
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(3);
    expect(ics).toContain('Check the frame\\; keys\\, maybe');
    await shot(page, 'plan');
    if (app.shell === 'headless') {
      // The address a calendar app subscribes to: its own secret, never the page's token; a new one retires it.
      const address = (await plan.subscriptionAddress.textContent())!;
      expect(address).toMatch(/\/calendar\.ics\?feed=/);
      expect(address).not.toContain(new URL(app.url!).searchParams.get('token')!);
      const fetched = await fetch(address);
      expect(fetched.status).toBe(200);
      expect(await fetched.text()).toContain('Check the frame\\; keys\\, maybe');
      await plan.newAddressButton.click();
      await expect(plan.subscription.getByRole('status')).toContainText('subscribe them again');
      await expect(plan.subscriptionAddress).not.toHaveText(address);
      expect((await fetch(address)).status).toBe(401);
      expect((await fetch((await plan.subscriptionAddress.textContent())!)).status).toBe(200);
    }
    expect(app.consoleErrors).toEqual([]);
  });

  test('Saved searches: save from Search, run now, pause, and a bad cron is a field error', async ({
    app,
  }) => {
    const { page } = app;
    const search = new SearchPage(page);
    await search.open();
    await search.selectByText('Make', 'HONDA');
    await search.fillSaveDialog('Hondas for export', 'every now and then');
    const dialog = search.dialog;
    await expect(search.cronField()).toHaveAttribute('aria-invalid', 'true');
    await search.cronField().fill('*/20 * * * *');
    await dialog.getByRole('button', { name: 'Save search' }).click();
    await expect(dialog.getByRole('status')).toContainText('Hondas for export');
    await dialog.getByRole('link', { name: 'Open Saved searches' }).click();

    await expect(
      new AppFrame(page).banner.getByRole('heading', { level: 1, name: 'Saved searches' }),
    ).toBeVisible();
    const row = page.getByRole('row', { name: 'Hondas for export' });
    await expect(row).toContainText('every 20 minutes');
    await row.getByRole('button', { name: 'Run Hondas for export now' }).click();
    await expect(row).not.toContainText('Never', { timeout: 15_000 });
    await row.getByRole('button', { name: 'Pause Hondas for export' }).click();
    await expect(row.getByRole('button', { name: 'Resume Hondas for export' })).toBeVisible();
    await shot(page, 'saved-searches');
    expect(unexpectedErrors(app.consoleErrors, 'searches.create')).toEqual([]);
  });

  test('Library: full-text search of stored lots and CSV export of a selection', async ({ app }) => {
    const { page } = app;
    // Something to store: one search page.
    const searchPage = new SearchPage(page);
    await searchPage.open();
    await searchPage.search();
    await expect(searchPage.rows.first()).toBeVisible();
    await openView(page, 'Library');
    await expect(page.getByText(/^\d+ lots in the library/)).toBeVisible();
    const search = page.getByRole('searchbox').or(page.getByPlaceholder(/Search title, VIN/));
    await search.first().fill('FORD');
    // Wait for the search itself (it settles after typing stops and clears the selection): the first row of the
    // unfiltered list may already be a Ford, and a box ticked before the search lands would be cleared by it.
    await expect(page.getByText(/lots? match “FORD”/)).toBeVisible();
    await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText('FORD');
    await page.getByRole('table').getByRole('row').nth(1).getByRole('checkbox').check();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /Export CSV \(1 selected\)/ }).click();
    const file = await (await download).path();
    const csv = readFileSync(file, 'utf8');
    expect(csv.split(/\r?\n/)[0]).toMatch(/lot_number/);
    expect(csv).toMatch(/FORD/);
    await shot(page, 'library');
    expect(app.consoleErrors).toEqual([]);
  });

  test('Locations: search by state and by ZIP with a radius', async ({ app }) => {
    const { page } = app;
    await openView(page, 'Locations');
    await page.getByRole('textbox', { name: 'State' }).fill('TX');
    await page.getByRole('button', { name: 'Search locations' }).click();
    const table = page.getByRole('table');
    await expect(table.getByRole('row').nth(1)).toContainText('TX');
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('textbox', { name: 'ZIP code' }).fill('30301');
    await page.getByRole('spinbutton', { name: 'Radius' }).fill('150');
    await page.getByRole('button', { name: 'Search locations' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('GA');
    await shot(page, 'locations');
    expect(app.consoleErrors).toEqual([]);
  });

  test('Usage, API console and Alerts show their data', async ({ app }) => {
    const { page } = app;
    await openView(page, 'Usage');
    await expect(page.getByText(/At this pace/)).toBeVisible();
    await page.getByRole('button', { name: 'Refresh from service' }).click();
    await expect(page.getByRole('table').first()).toContainText('/usage');
    await shot(page, 'usage');

    await openView(page, 'API console');
    await page
      .getByRole('navigation', { name: 'Endpoints' })
      .getByRole('button', { name: '/usage', exact: true })
      .click();
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const response = page.getByRole('region', { name: 'Response', exact: true });
    const meta = response.locator('.console-meta');
    await expect(meta).toContainText('200');
    await expect(meta).toContainText('spent 1 request');
    await expect(response).toContainText('ok');
    await shot(page, 'console');

    const alerts = new AlertsPage(page);
    await alerts.open();
    await expect(alerts.inbox).toBeVisible();
    await shot(page, 'alerts');
    expect(app.consoleErrors).toEqual([]);
  });
});

test.describe('the unread count', () => {
  // The Demo market stands still until the spec steps it (test-only control routes): nothing arrives unasked.
  test.use({ shellArgs: ['--demo-control', '--demo-clock', 'stepped'] });

  test('an alert that arrives in Demo mode shows on Alerts in the navigation and in the document title', async ({
    app,
  }) => {
    const { page } = app;
    test.skip(app.demoUrl === null, 'needs the headless shell with --demo-control');
    const market = new DemoMarket(app.demoUrl as string);
    const alerts = new AlertsPage(page);
    const frame = alerts.frame;
    // Start from nothing unread: whatever the first checks raised is read.
    await alerts.open();
    await expect(alerts.markAllReadButton.or(page.getByText('No alerts yet')).first()).toBeVisible();
    if ((await alerts.markAllReadButton.isVisible()) && (await alerts.markAllReadButton.isEnabled()))
      await alerts.markAllReadButton.click();
    await expect(frame.navLink('Alerts')).toHaveAccessibleName('Alerts');
    await expect(page).toHaveTitle('Lotwatch');

    // A watched lot sells; the market moves on half an hour and the watcher's next check raises the alert.
    const lot = await market.openLot(20, 120);
    const watchlist = new WatchlistPage(page);
    await watchlist.open();
    await watchlist.add(lot.lot_number);
    await expect(watchlist.row(lot.lot_number)).toBeVisible();
    await market.sell(lot.lot_number, (lot.pricing.current_bid_usd ?? 0) + 1_000);
    await market.step(30);
    await frame.open('Search');
    const badge = frame.alertsLinkWithUnread();
    await expect(badge).toBeVisible();
    const name = (await badge.getAttribute('aria-label')) ?? '';
    const count = Number(/^Alerts, (\d+) unread$/.exec(name)?.[1]);
    expect(count).toBeGreaterThan(0);
    await expect(badge.locator('.nav-badge')).toHaveText(String(count));
    await expect(page).toHaveTitle(`(${count}) Lotwatch`);
    await page.screenshot({ path: test.info().outputPath('unread-count.png') });

    // The inbox answers its keys as soon as it opens: the first arrow lands on the newest unread alert.
    await alerts.open();
    const first = alerts.inbox.getByRole('listitem').first();
    await expect(first).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(first).toBeFocused();

    // Read everything: the badge and the count in the title go.
    await alerts.markAllReadButton.click();
    await expect(alerts.allRead).toBeVisible();
    await expect(frame.navLink('Alerts')).toHaveAccessibleName('Alerts');
    await expect(page).toHaveTitle('Lotwatch');
    expect(app.consoleErrors).toEqual([]);
  });
});

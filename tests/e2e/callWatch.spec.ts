import { DemoMarket } from './demoMarket';
import { expect, openView, test } from './fixtures';
import { AlertsPage } from './pages/AlertsPage';
import { ConsolePage } from './pages/ConsolePage';

// A call watch made from the API console, as a buyer makes one: call a channel's videos, "Watch this call", save,
// and see the first new-video alert once the channel uploads. The Demo market runs on a stepped clock (it and the
// watcher stand still until the spec steps them), so no step waits on wall time.

const STEPPED = ['--demo-control', '--demo-clock', 'stepped'];
/** A channel of the sandbox's video endpoints (any channel uploads every few market hours). */
const CHANNEL = 'UCbuyerInspectionsE2E001';

test.describe('call watches', () => {
  test.use({ shellArgs: STEPPED });

  test('console → Watch this call → listed with the saved searches → its first new-video alert', async ({
    app,
  }) => {
    test.skip(app.demoUrl === null, 'needs the headless shell with --demo-control');
    const { page } = app;
    const market = new DemoMarket(app.demoUrl as string);
    const consolePage = new ConsolePage(page);
    await consolePage.open();
    await consolePage.choose('/channel/videos');
    await consolePage.addParam('channel_id', CHANNEL);
    await consolePage.callButton.click();
    await expect(consolePage.watchButton).toBeVisible();
    await consolePage.watchButton.click();

    const dialog = page.getByRole('dialog', { name: 'Watch this call' });
    await expect(dialog.getByLabel('Call')).toContainText(`channel_id=${CHANNEL}`);
    // The largest list is chosen by default, keyed automatically.
    await expect(
      dialog.getByRole('combobox', { name: 'List to watch' }).locator('option:checked'),
    ).toHaveText(/^data\.items · \d+ items \(the largest list\)$/);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Inspection channel');
    await dialog.getByRole('button', { name: 'Watch this call' }).click();
    await expect(page.getByRole('dialog', { name: 'Call watched' })).toContainText('Inspection channel');
    await page.getByRole('dialog', { name: 'Call watched' }).getByRole('button', { name: 'Close' }).click();

    await openView(page, 'Saved searches');
    const calls = page.getByRole('table', { name: 'Watched calls' });
    await expect(calls).toContainText('Inspection channel');
    await expect(calls).toContainText(`channel_id=${CHANNEL}`);
    await expect(calls).toContainText(/requests? a day/);

    // The first run is the baseline; the channel uploads within a few market hours and a run sees it.
    const alerts = new AlertsPage(page);
    await alerts.open();
    const newVideo = alerts.inbox.getByText(/New video on “Inspection channel”: /);
    for (let h = 0; h < 12 && (await newVideo.count()) === 0; h++) await market.step(60);
    await expect(newVideo.first()).toBeVisible();
    // The alert links the video, and names it whole.
    const item = alerts.inbox.getByRole('listitem').filter({ hasText: 'Inspection channel' }).first();
    await expect(item.getByRole('link', { name: /Open/ })).toHaveAttribute('href', /^https?:\/\//);
    await page.screenshot({ path: test.info().outputPath('call-watch-alert.png') });
    expect(app.consoleErrors).toEqual([]);
  });
});

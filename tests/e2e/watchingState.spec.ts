import type { Locator, Page } from '@playwright/test';
import { expect, openView, startSandbox, stopProcess, test } from './fixtures';
import { AppFrame } from './pages/AppFrame';
import { SettingsPage } from './pages/SettingsPage';
import { WatchlistPage } from './pages/WatchlistPage';

// One state of watching, shown the same way in the header, Usage's top card and the watchlist's banner: a key
// whose quota is spent pauses watching until the period's end (said as a date) everywhere at once, and the pause
// clears everywhere the moment it ends (here: another key, with its own quota). Nothing waits on wall time.

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });

/** The spent quota's sentence, with the period's end as a date ("12 December 2026"), never a count of seconds. */
const SPENT = /^Your plan's monthly requests are used up until \d{1,2} [A-Z][a-z]+ \d{4}\./;

/** The state of watching as one of its three places shows it. */
const stateIn = (scope: Locator | Page, kind: string) => scope.locator(`[data-watching="${kind}"]`);

test.describe('the state of watching', () => {
  test('a spent quota pauses watching in the header, Usage and the watchlist, and clears everywhere at once', async ({
    app,
  }) => {
    const { page } = app;
    await page.setViewportSize({ width: 1366, height: 800 });
    const frame = new AppFrame(page);
    // Two requests a period: the key test spends them.
    const sb = await startSandbox([
      '--key',
      'state-key',
      '--key',
      'fresh-key',
      '--quota',
      '2',
      '--lots',
      '500',
    ]);
    try {
      const settings = new SettingsPage(page);
      await settings.useService(sb.baseUrl, 'state-key');
      // Watching runs: the header says nothing about it.
      await expect(frame.banner.locator('[data-watching]')).toHaveCount(0);
      await settings.testKeyButton.click();
      await expect(page.getByText('The service accepted the key.')).toBeVisible();
      await settings.testKeyButton.click();

      // The header says it on every view, with the date in its explanation.
      const pill = stateIn(frame.banner, 'quota_spent');
      await expect(pill).toHaveText(/^Paused: quota used up/);
      await expect(pill).toHaveAttribute('title', SPENT);

      // Usage's top card: the same state, the same words, and no Pause button that would lie.
      await openView(page, 'Usage');
      const card = page.getByRole('region', { name: 'Watching' });
      await expect(stateIn(card, 'quota_spent')).toContainText('Paused: quota used up');
      await expect(stateIn(card, 'quota_spent').locator('.watching-detail')).toHaveText(SPENT);
      await expect(card.getByRole('button', { name: /^Pause/ })).toHaveCount(0);
      await expect(card.getByRole('button', { name: 'Resume watching' })).toHaveCount(0);
      await shot(page, 'usage-paused-1366-light');

      // The watchlist's banner: the same again.
      const watchlist = new WatchlistPage(page);
      await watchlist.open();
      const banner = stateIn(page.getByRole('region', { name: 'Watchlist' }), 'quota_spent');
      await expect(banner).toContainText('Paused: quota used up');
      await expect(banner.locator('.watching-detail')).toHaveText(SPENT);
      await shot(page, 'watchlist-paused-1366-light');

      // 1024 wide, dark.
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect(banner).toBeVisible();
      await shot(page, 'watchlist-paused-1024-dark');
      await openView(page, 'Usage');
      await expect(stateIn(card, 'quota_spent')).toBeVisible();
      await shot(page, 'usage-paused-1024-dark');

      // Another key (its own quota): the pause clears in the header without leaving Settings, then in Usage and
      // the watchlist. (The period's own end is driven on a fake clock in tests/core/watch/watchingState.test.ts:
      // this shell's live clock is the wall clock, and Lotwatch sends nothing while the stored quota is spent.)
      await settings.open();
      await expect(pill).toBeVisible();
      await page.getByRole('textbox', { name: 'Replace the key' }).fill('fresh-key');
      await page.getByRole('button', { name: 'Save key' }).click();
      await expect(frame.banner.locator('[data-watching]')).toHaveCount(0);
      await openView(page, 'Usage');
      await expect(stateIn(card, 'running').locator('.watching-label')).toHaveText('On');
      await expect(card.getByRole('button', { name: 'Pause for 1 hour' })).toBeVisible();
      await watchlist.open();
      await expect(page.locator('[data-watching]')).toHaveCount(0);
    } finally {
      await stopProcess(sb.proc);
    }
  });
});

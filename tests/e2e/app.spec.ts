import { expect, test } from './fixtures';
import { AppFrame } from './pages/AppFrame';
import { SearchPage } from './pages/SearchPage';
import { SettingsPage } from './pages/SettingsPage';

test.describe('app frame', () => {
  test('opens, shows its frame and the Demo mode label, with no console errors', async ({ app }) => {
    const { page } = app;
    const frame = new AppFrame(page);
    await expect(frame.nav).toBeVisible();
    for (const label of [
      'Search',
      'Watchlist',
      'Saved searches',
      'Alerts',
      'Library',
      'Locations',
      'Usage',
      'API console',
      'Settings',
    ]) {
      await expect(frame.navLink(label)).toBeVisible();
    }
    await expect(frame.demoBadge).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('frame.png') });
    expect(app.consoleErrors).toEqual([]);
  });

  test('Settings round-trips a setting through the contract and keeps it after a reload', async ({ app }) => {
    const { page } = app;
    const settings = new SettingsPage(page);
    await settings.frame.navLink('Settings').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(settings.theme).toHaveValue('system');
    await settings.theme.selectOption('dark');
    await settings.save();
    await expect(settings.saved).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(settings.theme).toHaveValue('dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.screenshot({ path: test.info().outputPath('settings-dark.png') });
    expect(app.consoleErrors).toEqual([]);
  });

  test('a refused value is highlighted on its field and nothing is saved', async ({ app }) => {
    const { page } = app;
    const settings = new SettingsPage(page);
    await settings.frame.navLink('Settings').click();
    await settings.serviceUrl.fill('ftp://nowhere');
    await settings.save();
    await expect(settings.serviceUrl).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/must start with http/)).toBeVisible();
    await page.reload();
    await expect(settings.serviceUrl).toHaveValue(/^https:\/\/apibara\.tech/);
  });

  test('keyboard: Ctrl+number switches views and links are focusable', async ({ app }) => {
    const { page } = app;
    const frame = new AppFrame(page);
    await expect(frame.nav).toBeVisible();
    await page.keyboard.press('Control+5');
    await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
    // The chosen view takes the focus (never <body>), so the next Tab goes on inside it (Search: its fields).
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Control+1');
    await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
    await expect(page.getByRole('main')).toBeFocused();
    // The view's fields first: a Tab pressed while the view still loads has nothing in it to go to, and wraps
    // round to the skip link.
    await expect(new SearchPage(page).searchButton).toBeVisible();
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('main').locator(':focus')).toHaveCount(1);
    // Back up the page: the navigation's links are focusable, the skip link first of all.
    await frame.navLink('Search').focus();
    await page.keyboard.press('Shift+Tab');
    await expect(frame.skipLink).toBeFocused();
    await expect(frame.skipLink).toBeInViewport();
  });

  test('keyboard: the skip link is the first stop of Tab and lands in the view', async ({ app }) => {
    const { page } = app;
    const frame = new AppFrame(page);
    await expect(frame.nav).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(frame.skipLink).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  });
});

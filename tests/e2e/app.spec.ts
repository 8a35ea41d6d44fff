import { expect, test } from './fixtures';

test.describe('app frame', () => {
  test('opens, shows its frame and the Demo mode label, with no console errors', async ({ app }) => {
    const { page } = app;
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    for (const label of ['Search', 'Watchlist', 'Saved searches', 'Alerts', 'Library', 'Locations', 'Usage', 'API console', 'Settings']) {
      await expect(page.getByRole('link', { name: label, exact: true })).toBeVisible();
    }
    await expect(page.getByText('Demo mode · simulated market')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('frame.png') });
    expect(app.consoleErrors).toEqual([]);
  });

  test('Settings round-trips a setting through the contract and keeps it after a reload', async ({ app }) => {
    const { page } = app;
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const theme = page.getByRole('combobox', { name: 'Theme' });
    await expect(theme).toHaveValue('system');
    await theme.selectOption('dark');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.screenshot({ path: test.info().outputPath('settings-dark.png') });
    expect(app.consoleErrors).toEqual([]);
  });

  test('a refused value is highlighted on its field and nothing is saved', async ({ app }) => {
    const { page } = app;
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const url = page.getByRole('textbox', { name: 'Service URL' });
    await url.fill('ftp://nowhere');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/must start with http/)).toBeVisible();
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Service URL' })).toHaveValue(/^https:\/\/apibara\.tech/);
  });

  test('keyboard: Ctrl+number switches views and links are focusable', async ({ app }) => {
    const { page } = app;
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.keyboard.press('Control+4');
    await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Search', exact: true })).toBeFocused();
  });
});

import { expect, test } from './fixtures';
import { SearchPage } from './pages/SearchPage';

// Damage the service cannot search ("Front end") is offered in the search form, marked as filtered by Lotwatch with
// one line saying why; a search with it answers only lots with that primary damage, and the save dialog says the
// pages it costs. Looked at 1366 wide light and 1024 wide dark (SHOTS_DIR keeps the screenshots when set).
const shot = (name: string) => `${process.env['SHOTS_DIR'] ?? test.info().outputPath()}/${name}`;

for (const { width, scheme } of [
  { width: 1366, scheme: 'light' as const },
  { width: 1024, scheme: 'dark' as const },
]) {
  test(`local damage choice and its note at ${width} ${scheme}`, async ({ app }) => {
    const { page } = app;
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    const search = new SearchPage(page);
    await search.frame.navLink('Search').click();
    const damage = page.getByRole('group', { name: 'Damage' });
    const frontEnd = damage.getByRole('checkbox', { name: 'Front end' });
    await expect(frontEnd).toBeVisible();
    await expect(
      damage.getByText(/^Filtered by Lotwatch: the service cannot search this damage\./),
    ).toBeVisible();
    await expect(damage.getByText('Filtered by Lotwatch', { exact: true })).toBeAttached();
    await frontEnd.focus();
    await page.keyboard.press('Space');
    await expect(frontEnd).toBeChecked();
    await search.search();
    await expect(search.rows.first()).toBeVisible();
    for (const text of await search.rows.locator('.rt-damage').allTextContents())
      expect(text.replace(/^[·\s]+/, '')).toBe('Front end damage');
    // The panel scrolls: bring the note under the list into view for the look.
    await damage.getByText(/^Filtered by Lotwatch: the service/).scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot(`local-damage-${width}-${scheme}.png`) });
    await search.saveSearchButton.click();
    await expect(search.dialog.getByText(/“Front end” is filtered by Lotwatch/)).toBeVisible();
    await page.screenshot({ path: shot(`local-damage-save-${width}-${scheme}.png`) });
    expect(app.consoleErrors).toEqual([]);
  });
}

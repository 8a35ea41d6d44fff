import { expect, openView, test } from './fixtures';
import { SearchPage } from './pages/SearchPage';

// The Library's Refine panel: facet counts of the stored lots, ticked with the keyboard, narrowing the list; looked
// at 1366 wide in the light theme and 1024 wide in the dark one.

test('Library: facets count the stored lots and a ticked value narrows the list', async ({ app }) => {
  const { page } = app;
  await page.setViewportSize({ width: 1366, height: 860 });
  const searchPage = new SearchPage(page);
  await searchPage.open();
  await searchPage.search();
  await expect(searchPage.rows.first()).toBeVisible();
  await openView(page, 'Library');
  const panel = page.getByRole('complementary', { name: 'Facets' });
  const damage = panel.getByRole('group', { name: 'Primary damage' });
  await expect(damage.getByRole('checkbox').first()).toBeVisible();
  const total = Number((await page.getByText(/^\d+ lots in the library/).textContent())!.match(/^\d+/)![0]);
  // The counts of one facet add up to the lots whose record names a damage: at most every lot.
  const counts = (await damage.locator('.lib-facet-count').allTextContents()).map(Number);
  expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(total);
  const first = damage.getByRole('checkbox').first();
  const want = counts[0]!;
  await first.focus();
  await page.keyboard.press('Space');
  await expect(first).toBeChecked();
  await expect(page.getByText(new RegExp(`^${want} lots? in the library · refined`))).toBeVisible();
  await page.screenshot({ path: 'test-results/library-facets-1366-light.png' });

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByRole('searchbox', { name: 'Search the library' }).fill('drive');
  await expect(page.getByText(/lots? match “drive” · refined/)).toBeVisible();
  await page.screenshot({ path: 'test-results/library-facets-1024-dark.png' });
  await panel.getByRole('button', { name: 'Clear all' }).click();
  await expect(first).not.toBeChecked();
  expect(app.consoleErrors).toEqual([]);
});

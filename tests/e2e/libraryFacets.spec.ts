import type { Locator } from '@playwright/test';
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
  // The Demo market's watcher keeps storing lots while the test runs, so the library grows under it: each check reads
  // the counts it compares at one moment, and the value ticked is held by its name, not by its place in the list
  // (values are ordered by count).
  const parse = (text: string) => Number(text.replace(/,/g, '').match(/^\d+/)![0]);
  const number = async (l: Locator) => parse((await l.first().textContent())!);
  const shownTotal = page.getByText(/^[\d,]+ lots? in the library/);
  // The counts of one facet add up to the lots whose record names a damage: at most every lot.
  await expect
    .poll(async () => {
      const counts = (await damage.locator('.lib-facet-count').allTextContents()).map(parse);
      return counts.reduce((a, b) => a + b, 0) - (await number(shownTotal));
    })
    .toBeLessThanOrEqual(0);
  const name = (await damage.locator('.lib-facet-text').first().textContent())!;
  const value = damage
    .locator('.lib-facet-value')
    .filter({ has: page.locator('.lib-facet-text').getByText(name, { exact: true }) });
  const box = value.getByRole('checkbox');
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  // The list narrows to the ticked value's own count.
  const refined = page.getByText(/^[\d,]+ lots? in the library · refined/);
  await expect(refined).toBeVisible();
  await expect
    .poll(async () => (await number(refined)) - (await number(value.locator('.lib-facet-count'))))
    .toBe(0);
  await page.screenshot({ path: 'test-results/library-facets-1366-light.png' });

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByRole('searchbox', { name: 'Search the library' }).fill('drive');
  await expect(page.getByText(/lots? match “drive” · refined/)).toBeVisible();
  await page.screenshot({ path: 'test-results/library-facets-1024-dark.png' });
  await panel.getByRole('button', { name: 'Clear all' }).click();
  await expect(box).not.toBeChecked();
  expect(app.consoleErrors).toEqual([]);
});

import { expect, type Locator, type Page } from '@playwright/test';
import { ViewPage } from './ViewPage';

/** The Search view: the filters, the Search button, the results table and the "Save this search" dialog. */
export class SearchPage extends ViewPage {
  readonly searchButton: Locator;
  readonly saveSearchButton: Locator;
  /** The result rows (virtualized: only the rows in view are in the page). */
  readonly rows: Locator;
  readonly make: Locator;
  readonly dialog: Locator;

  constructor(page: Page) {
    super(page, 'Search');
    this.searchButton = page.getByRole('button', { name: 'Search', exact: true });
    this.saveSearchButton = page.getByRole('button', { name: 'Save this search…' });
    this.rows = page.locator('tbody tr.rt-row');
    this.make = page.getByRole('combobox', { name: 'Make' });
    this.dialog = page.getByRole('dialog');
  }

  /** Presses Search. */
  async search(): Promise<void> {
    await this.searchButton.click();
  }

  /** Picks the first option of a filter whose label starts with `text` (labels carry counts: "TOYOTA (1,234)"). */
  async selectByText(name: string, text: string): Promise<void> {
    const select = this.page.getByRole('combobox', { name });
    await expect(select.locator('option', { hasText: text }).first()).toBeAttached();
    const value = await select.locator('option', { hasText: text }).first().getAttribute('value');
    await select.selectOption(value ?? '');
  }

  /** Fills the Year from and Year to filters (either may be left as it is with undefined). */
  async years(from?: number, to?: number): Promise<void> {
    if (from !== undefined) await this.page.getByRole('spinbutton', { name: 'Year from' }).fill(String(from));
    if (to !== undefined) await this.page.getByRole('spinbutton', { name: 'Year to' }).fill(String(to));
  }

  /** The lot cell ("Copart 50313048") of the result row at `index`. */
  lotCell(index: number): Locator {
    return this.rows.nth(index).locator('.rt-lot');
  }

  /** The vehicle title of the result row at `index`. */
  title(index: number): Locator {
    return this.rows.nth(index).locator('.rt-title');
  }

  /**
   * Fills and saves the "Save this search" dialog: a name and a custom cron schedule (pages per run when given).
   * Leaves the dialog open, so a spec can read its confirmation or its field errors.
   */
  async fillSaveDialog(name: string, cron: string, pages?: number): Promise<void> {
    await this.saveSearchButton.click();
    await this.dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await this.dialog.getByRole('combobox', { name: 'Schedule' }).selectOption('custom');
    await this.cronField().fill(cron);
    if (pages !== undefined)
      await this.dialog.getByRole('spinbutton', { name: 'Pages per run' }).fill(String(pages));
    await this.dialog.getByRole('button', { name: 'Save search' }).click();
  }

  /** The dialog's cron expression field. */
  cronField(): Locator {
    return this.dialog.getByRole('textbox', { name: /Cron expression/ });
  }
}

import type { Locator, Page } from '@playwright/test';
import { ViewPage } from './ViewPage';

/**
 * The Watchlist: the add form, the table of watched vehicles, each row's action menu (Check now, Rules, Pause checks, Open lot,
 * Remove…), the grouping by sale day, the bulk actions on selected rows and the examples' removal.
 */
export class WatchlistPage extends ViewPage {
  readonly table: Locator;
  readonly target: Locator;
  readonly watchButton: Locator;
  readonly groupBySaleDay: Locator;
  readonly bulkBar: Locator;

  constructor(page: Page) {
    super(page, 'Watchlist');
    this.table = page.getByRole('table', { name: 'Watched vehicles' });
    this.target = page.getByRole('textbox', { name: /VIN, lot number or lot-page URL/ });
    this.watchButton = page.getByRole('button', { name: 'Watch', exact: true });
    this.groupBySaleDay = page.getByRole('button', { name: 'Group by sale day' });
    this.bulkBar = page.getByRole('group', { name: 'Selected watches' });
  }

  /** Types a VIN, lot number or lot-page URL and presses Watch. */
  async add(target: string): Promise<void> {
    await this.target.fill(target);
    await this.watchButton.click();
  }

  /** The table row of the watch whose text contains `text` (a lot number, a title). */
  row(text: string): Locator {
    return this.table.getByRole('row').filter({ hasText: text });
  }

  /** The "Actions for …" menu button of the first watch (or of `row`). */
  menuButton(row?: Locator): Locator {
    return (row ?? this.table).getByRole('button', { name: /^Actions for / }).first();
  }

  /** Opens the row's (or the first row's) action menu and picks `item` ("Check now", "Rules", "Open lot", "Remove…"). */
  async rowAction(item: string, row?: Locator): Promise<void> {
    await this.menuButton(row).click();
    await this.page.getByRole('menu').getByRole('menuitem', { name: item, exact: true }).click();
  }

  /** Checks the watch of `row` (or the first watch) now, through its action menu. */
  async checkNow(row?: Locator): Promise<void> {
    await this.rowAction('Check now', row);
  }

  /** Removes the examples through the "Remove examples (N)" button and its confirmation. */
  async removeExamples(count: number): Promise<void> {
    await this.page.getByRole('button', { name: new RegExp(`Remove examples \\(${count}\\)`) }).click();
    await this.page
      .getByRole('group', { name: /Remove all example/ })
      .getByRole('button', { name: 'Remove examples' })
      .click();
  }
}

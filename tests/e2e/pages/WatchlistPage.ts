import type { Locator, Page } from '@playwright/test';
import { ViewPage } from './ViewPage';

/** The Watchlist: the add form, the table of watched vehicles, each watch's actions and the examples' removal. */
export class WatchlistPage extends ViewPage {
  readonly table: Locator;
  readonly target: Locator;
  readonly watchButton: Locator;

  constructor(page: Page) {
    super(page, 'Watchlist');
    this.table = page.getByRole('table', { name: 'Watched vehicles' });
    this.target = page.getByRole('textbox', { name: /VIN, lot number or lot-page URL/ });
    this.watchButton = page.getByRole('button', { name: 'Watch', exact: true });
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

  /** The "Check … now" button of the first watch (or of `row`). */
  checkNowButton(row?: Locator): Locator {
    return (row ?? this.page).getByRole('button', { name: /^Check .* now$/ }).first();
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

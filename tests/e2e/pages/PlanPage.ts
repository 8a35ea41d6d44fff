import type { Download, Locator, Page } from '@playwright/test';
import { ViewPage } from './ViewPage';

/** Auction day: the watched lots by sale day, printable, and their calendar export. */
export class PlanPage extends ViewPage {
  readonly exportButton: Locator;
  /** Every watched lot's row, whatever its day. */
  readonly rows: Locator;
  /** The browser shell's calendar subscription: its address and the button that makes a new one. */
  readonly subscription: Locator;
  readonly subscriptionAddress: Locator;
  readonly newAddressButton: Locator;

  constructor(page: Page) {
    super(page, 'Auction day');
    this.rows = page.locator('.plan-table tbody tr');
    this.exportButton = page.getByRole('button', { name: 'Export calendar (.ics)' });
    this.subscription = page.getByRole('region', { name: 'Calendar subscription' });
    this.subscriptionAddress = this.subscription.locator('code');
    this.newAddressButton = this.subscription.getByRole('button', { name: 'Make a new address' });
  }

  /** The group of a day ("Today", "Tomorrow", "This week", ...), with its table. */
  group(label: string): Locator {
    return this.page.getByRole('region', { name: new RegExp(`^${label}`) });
  }

  /** Presses Export and resolves to the downloaded file. */
  async exportCalendar(): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.exportButton.click()]);
    return download;
  }
}

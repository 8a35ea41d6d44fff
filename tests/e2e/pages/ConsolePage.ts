import type { Locator, Page } from '@playwright/test';
import { ViewPage } from './ViewPage';

/** The API console: an endpoint chosen from the list, its parameters, "Call", and, after an answer, "Watch this call". */
export class ConsolePage extends ViewPage {
  readonly endpoints: Locator;
  readonly callButton: Locator;
  readonly watchButton: Locator;

  constructor(page: Page) {
    super(page, 'API console');
    this.endpoints = page.getByRole('navigation', { name: 'Endpoints' });
    this.callButton = page.getByRole('button', { name: 'Call', exact: true });
    this.watchButton = page.getByRole('button', { name: 'Watch this call' });
  }

  /** Chooses the endpoint whose list entry reads `label` (e.g. `/channel/videos`). */
  async choose(label: string): Promise<void> {
    await this.endpoints.getByRole('button', { name: label, exact: true }).click();
  }

  /**
   * Fills a free query parameter row (endpoints whose parameters the specification does not list): the last row when
   * it is still empty, else a new one.
   */
  async addParam(name: string, value: string): Promise<void> {
    const names = this.page.getByRole('textbox', { name: /^Parameter \d+ name$/ });
    let n = await names.count();
    if (n === 0 || (await names.nth(n - 1).inputValue()) !== '') {
      await this.page.getByRole('button', { name: 'Add parameter' }).click();
      n += 1;
    }
    await this.page.getByRole('textbox', { name: `Parameter ${n} name` }).fill(name);
    await this.page.getByRole('textbox', { name: `Parameter ${n} value` }).fill(value);
  }
}

import type { Locator, Page } from '@playwright/test';
import { ViewPage } from './ViewPage';

/** The API console: an endpoint chosen from the list, its parameters, "Call", the answer and "Watch this call". */
export class ConsolePage extends ViewPage {
  readonly endpoints: Locator;
  readonly callButton: Locator;
  readonly response: Locator;
  readonly watchButton: Locator;

  constructor(page: Page) {
    super(page, 'API console');
    this.endpoints = page.getByRole('navigation', { name: 'Endpoints' });
    this.callButton = page.getByRole('button', { name: 'Call', exact: true });
    this.response = page.getByRole('region', { name: 'Response' });
    this.watchButton = page.getByRole('button', { name: 'Watch this call' });
  }

  /** Chooses the endpoint whose list entry reads `label` (e.g. `/channel/videos`). */
  async choose(label: string): Promise<void> {
    await this.endpoints.getByRole('button', { name: label, exact: true }).click();
  }

  /** Adds a free query parameter row (endpoints whose parameters the specification does not list) and fills it. */
  async addParam(name: string, value: string): Promise<void> {
    const rows = this.page.getByRole('textbox', { name: /^Parameter \d+ name$/ });
    const n = await rows.count();
    await this.page.getByRole('button', { name: 'Add parameter' }).click();
    await this.page.getByRole('textbox', { name: `Parameter ${n + 1} name` }).fill(name);
    await this.page.getByRole('textbox', { name: `Parameter ${n + 1} value` }).fill(value);
  }
}

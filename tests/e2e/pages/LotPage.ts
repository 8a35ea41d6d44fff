import type { Locator, Page } from '@playwright/test';

/** A lot's detail page: photos, the facts, sale history, related lots, shipping prices and the watch panel. */
export class LotPage {
  readonly firstPhoto: Locator;
  readonly vehicle: Locator;
  readonly saleHistory: Locator;
  readonly related: Locator;
  readonly shipping: Locator;
  readonly shippingPrices: Locator;
  readonly watchButton: Locator;
  readonly backButton: Locator;

  constructor(readonly page: Page) {
    this.firstPhoto = page.getByRole('button', { name: /^Photo 1 of/ });
    this.vehicle = page.getByRole('region', { name: 'Vehicle' });
    this.saleHistory = page.getByRole('region', { name: 'Sale history' });
    this.related = page.getByRole('region', { name: 'Related lots' });
    this.shipping = page.getByRole('region', { name: 'Shipping to port' });
    this.shippingPrices = this.shipping.getByRole('table', { name: 'Shipping prices' });
    this.watchButton = page.getByRole('button', { name: 'Watch this lot' });
    this.backButton = page.getByRole('button', { name: '← Back' });
  }

  /** The lot's title, the page's second-level heading. */
  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 2, name });
  }

  /** Asks for shipping prices (from the chosen source, when given). */
  async getShippingPrices(source?: string): Promise<void> {
    if (source) await this.shipping.getByRole('combobox', { name: 'Source' }).selectOption(source);
    await this.shipping.getByRole('button', { name: 'Get prices' }).click();
  }
}

import type { Page } from '@playwright/test';
import { AppFrame } from './AppFrame';

/**
 * A view reached from the main navigation: its page, the app frame around it, and `open()`, which moves to it as a
 * user does (clicking its navigation entry). Each view's page object extends this and adds its own locators.
 */
export abstract class ViewPage {
  readonly frame: AppFrame;

  /** `label` is the view's navigation entry ("Alerts", "Auction day", ...), without any unread count. */
  constructor(
    readonly page: Page,
    private readonly label: string,
  ) {
    this.frame = new AppFrame(page);
  }

  /** Opens the view from the navigation; fails as `AppFrame.open` does when the entry is missing. */
  async open(): Promise<void> {
    await this.frame.open(this.label);
  }
}

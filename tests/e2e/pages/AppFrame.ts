import { expect, type Locator, type Page } from '@playwright/test';

/** A navigation entry's accessible name: the view's label, with ", N unread" on Alerts while there are some. */
const entryName = (label: string) =>
  new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(, \\d+ unread)?$`);

/**
 * The app frame every view sits in: the main navigation (with the unread count on Alerts), the header with its
 * heading and badges, and the skip link. Specs move between views through it, as a user does.
 */
export class AppFrame {
  readonly nav: Locator;
  readonly banner: Locator;
  readonly heading: Locator;
  readonly demoBadge: Locator;
  readonly liveBadge: Locator;
  readonly offlineBadge: Locator;
  readonly skipLink: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.banner = page.getByRole('banner');
    this.heading = this.banner.getByRole('heading', { level: 1 });
    this.demoBadge = page.getByText('Demo mode · simulated market');
    this.liveBadge = page.getByText('Live service');
    this.offlineBadge = this.banner.getByText(/^Offline/);
    this.skipLink = page.getByRole('link', { name: 'Skip to main content' });
  }

  /** The navigation link of a view, whatever its unread count says. */
  navLink(label: string): Locator {
    return this.nav.getByRole('link', { name: entryName(label) });
  }

  /** The Alerts entry as a screen reader names it when `count` alerts are unread ("Alerts, 3 unread"). */
  alertsLinkWithUnread(count: number | RegExp = /\d+/): Locator {
    const n = typeof count === 'number' ? String(count) : count.source;
    return this.nav.getByRole('link', { name: new RegExp(`^Alerts, ${n} unread$`) });
  }

  /** Opens a view through its navigation link, as a user would, and waits for its heading. */
  async open(label: string): Promise<void> {
    await this.navLink(label).click();
    await expect(this.banner.getByRole('heading', { level: 1, name: label })).toBeVisible();
  }
}

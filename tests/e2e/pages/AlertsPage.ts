import type { Locator, Page } from '@playwright/test';
import { ViewPage } from './ViewPage';

/** The Alerts inbox: alerts grouped by lot, unread first, and "Mark all read". */
export class AlertsPage extends ViewPage {
  readonly inbox: Locator;
  readonly markAllReadButton: Locator;
  readonly allRead: Locator;

  constructor(page: Page) {
    super(page, 'Alerts');
    this.inbox = page.getByRole('region', { name: 'Alerts inbox' });
    this.markAllReadButton = page.getByRole('button', { name: 'Mark all read' });
    this.allRead = page.getByText(/^All read/);
  }

  /** The list of alerts of the lot titled `title`. */
  groupFor(title: string): Locator {
    return this.page.getByRole('list', {
      name: new RegExp(`Alerts for ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    });
  }

  /** The alerts of a group whose text matches `text`. */
  alertsIn(group: Locator, text: RegExp): Locator {
    return group.getByRole('listitem').filter({ hasText: text });
  }
}

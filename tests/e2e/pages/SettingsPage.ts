import { expect, type Locator, type Page } from '@playwright/test';
import { ViewPage } from './ViewPage';

/** Settings: the API key, theme, Demo mode, service URL and notifications, saved with "Save settings". */
export class SettingsPage extends ViewPage {
  readonly theme: Locator;
  readonly serviceUrl: Locator;
  readonly apiKey: Locator;
  readonly demoMode: Locator;
  readonly saveButton: Locator;
  readonly saved: Locator;
  readonly testKeyButton: Locator;

  constructor(page: Page) {
    super(page, 'Settings');
    this.theme = page.getByRole('combobox', { name: 'Theme' });
    this.serviceUrl = page.getByRole('textbox', { name: 'Service URL' });
    this.apiKey = page.getByRole('textbox', { name: 'API key' });
    this.demoMode = page.getByRole('checkbox', { name: /Demo mode/ });
    this.saveButton = page.getByRole('button', { name: 'Save settings' });
    this.saved = page.getByText('Saved.');
    this.testKeyButton = page.getByRole('button', { name: 'Test key' });
  }

  /** Presses "Save settings". */
  async save(): Promise<void> {
    await this.saveButton.click();
  }

  /**
   * Points Lotwatch at a service of our own with `key`: Demo mode off and the Service URL saved, then the key (a
   * key is bound to the Service URL's origin when it is saved).
   */
  async useService(baseUrl: string, key: string): Promise<void> {
    await this.open();
    await this.demoMode.uncheck();
    await this.serviceUrl.fill(baseUrl);
    await this.save();
    await expect(this.page.getByRole('form', { name: 'Settings' }).getByText('Saved.')).toBeVisible();
    await this.apiKey.fill(key);
    await this.page.getByRole('button', { name: 'Save key' }).click();
    await expect(this.page.getByText(/A key is set/)).toBeVisible();
    await expect(this.frame.liveBadge).toBeVisible();
  }
}

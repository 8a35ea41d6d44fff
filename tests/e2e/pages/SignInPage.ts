import type { Locator, Page } from '@playwright/test';

/** A team server's sign-in screen: login, password, Sign in, and the refusal it shows. */
export class SignInPage {
  readonly heading: Locator;
  readonly login: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly refusal: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: /Sign in to Lotwatch/ });
    this.login = page.getByRole('textbox', { name: 'Login' });
    this.password = page.getByLabel('Password');
    this.submit = page.getByRole('button', { name: 'Sign in' });
    this.refusal = page.getByRole('alert');
  }

  /** Types the login and password and presses Enter, as a member does. */
  async signIn(login: string, password: string): Promise<void> {
    await this.login.fill(login);
    await this.password.fill(password);
    await this.password.press('Enter');
  }
}

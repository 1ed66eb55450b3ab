import { expect, type Locator, type Page } from '@playwright/test';

export type DemoClient = 'Demo App' | 'Partner Shop';

/** /demo: the small relying party that signs in through Passgate and shows what came back. */
export class DemoPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto('/demo');
    await expect(this.page.getByRole('heading', { name: 'Passgate demo relying party' })).toBeVisible();
  }

  get language(): Locator {
    return this.page.getByLabel('Language');
  }
  signInButton(client: DemoClient): Locator {
    return this.page.getByRole('button', { name: `Sign in to ${client}`, exact: true });
  }
  /** The box that makes the sign-in ask for prompt=create, as a relying party's 'Create account' button does. */
  get openRegistration(): Locator {
    return this.page.getByRole('checkbox', { name: 'Open the registration screen (prompt=create)', exact: true });
  }
  get logOut(): Locator {
    return this.page.getByRole('link', { name: 'Log out', exact: true });
  }
  get notice(): Locator {
    return this.page.getByRole('status');
  }
  get resultHeading(): Locator {
    return this.page.locator('#result-heading');
  }
  private claimsTable(caption: 'Claims of the ID token' | 'Claims from the userinfo endpoint'): Locator {
    return this.page.getByRole('table', { name: caption });
  }

  /** Starts a sign-in as `client`, with the language chosen in the select ('' = the client's default). */
  async signInTo(client: DemoClient, locale: '' | 'vi' | 'en' = ''): Promise<void> {
    if (locale) await this.language.selectOption(locale);
    await this.signInButton(client).click();
  }

  /** The value shown for `claim` in the ID token (or the userinfo) table. */
  claim(claim: string, from: 'idToken' | 'userinfo' = 'idToken'): Locator {
    const table = this.claimsTable(from === 'idToken' ? 'Claims of the ID token' : 'Claims from the userinfo endpoint');
    return table
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name: claim, exact: true }) })
      .getByRole('cell');
  }

  /** Back on /demo, signed in to `client` as the demo user, with the claims the provider issued. */
  async expectSignedIn(client: DemoClient, clientId: string, user: { name: string; email: string }): Promise<void> {
    await expect(this.page).toHaveURL(/\/demo$/);
    await expect(this.resultHeading).toHaveText(`Signed in to ${client} as ${user.name}`);
    await expect(this.claim('aud')).toHaveText(clientId);
    await expect(this.claim('name')).toHaveText(user.name);
    await expect(this.claim('email')).toHaveText(user.email);
    await expect(this.claim('name', 'userinfo')).toHaveText(user.name);
    await expect(this.claim('email', 'userinfo')).toHaveText(user.email);
    await expect(this.claim('sub')).toHaveText(/\S+/);
  }
}

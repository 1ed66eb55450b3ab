import { expect, type Locator, type Page } from '@playwright/test';
import { tr, type Locale } from './i18n.ts';

/** The Error screen (/error) and the session-expired alert (/alert/session-expired). */
export class ErrorPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
  ) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  /** A button (history back) or, inside a client's sign-in, a link to that sign-in's Login screen. */
  get back(): Locator {
    const name = tr(this.locale, 'errorPage.back');
    return this.page.getByRole('button', { name, exact: true }).or(this.page.getByRole('link', { name, exact: true }));
  }
  get relogin(): Locator {
    return this.page.getByRole('button', { name: tr(this.locale, 'sessionExpired.relogin'), exact: true });
  }

  /** The screen of `status`; inside a client's sign-in, `client` names it beside the heading in the tab. */
  async expectStatus(status: 400 | 403 | 404 | 500, client?: string): Promise<void> {
    await expect(this.page).toHaveURL(/\/error$/);
    await expect(this.page.getByText(String(status), { exact: true })).toBeVisible();
    await expect(this.heading).toHaveText(tr(this.locale, `errorPage.headings.${status}`));
    await expect(this.page.getByText(tr(this.locale, `errorPage.descriptions.${status}`), { exact: true })).toBeVisible();
    await expect(this.back).toBeVisible();
    const heading = tr(this.locale, `errorPage.headings.${status}`);
    await expect(this.page).toHaveTitle(client ? `${heading} · ${client}` : heading);
  }

  async expectSessionExpired(): Promise<void> {
    // The account area carries the language it was speaking (?locale=); a typed /alert/… address has none.
    await expect(this.page).toHaveURL(new RegExp(`/alert/session-expired(\\?locale=${this.locale})?$`));
    await expect(this.heading).toHaveText(tr(this.locale, 'sessionExpired.heading'));
    await expect(this.page.getByText(tr(this.locale, 'sessionExpired.message'), { exact: true })).toBeVisible();
    await expect(this.relogin).toBeEnabled();
  }
}

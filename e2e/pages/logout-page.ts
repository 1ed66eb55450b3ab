import { expect, type Locator, type Page } from '@playwright/test';
import { tr, type Locale } from './i18n.ts';

/** Passgate's Logout confirmation (/logout?challenge=…): 'Do you want to log out of …?', Back or Log out. */
export class LogoutPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
  ) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  get back(): Locator {
    return this.page.getByRole('button', { name: tr(this.locale, 'logout.back'), exact: true });
  }
  get confirm(): Locator {
    return this.page.getByRole('button', { name: tr(this.locale, 'logout.confirm'), exact: true });
  }

  async expectShown(clientName: string): Promise<void> {
    await expect(this.page).toHaveURL(/\/logout\?challenge=/);
    await expect(this.heading).toHaveText(tr(this.locale, 'logout.heading'));
    await expect(this.page.getByText(tr(this.locale, 'logout.question', { client: clientName }), { exact: true })).toBeVisible();
    await expect(this.back).toBeEnabled();
    await expect(this.confirm).toBeEnabled();
  }
}

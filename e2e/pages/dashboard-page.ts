import { expect, type Locator, type Page } from '@playwright/test';
import { tr, type Locale } from './i18n.ts';

/** The account area's dashboard (/user/dashboard): avatar, name and e-mail of the signed-in user. */
export class DashboardPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
  ) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  get main(): Locator {
    return this.page.getByRole('main');
  }
  /** The dashboard's avatar: the picture (or the initials), named after the user. */
  avatar(name: string): Locator {
    return this.main.getByRole('img', { name: tr(this.locale, 'account.dashboard.avatarAlt', { name }), exact: true });
  }
  get userMenu(): Locator {
    return this.page.getByRole('button', { name: tr(this.locale, 'account.userMenu'), exact: true });
  }

  async expectUser(user: { name: string; email: string }): Promise<void> {
    await expect(this.page).toHaveURL(/\/user\/dashboard$/);
    await expect(this.heading).toHaveText(tr(this.locale, 'account.dashboard.heading'));
    await expect(this.main.getByText(tr(this.locale, 'account.dashboard.welcome', { name: user.name }), { exact: true })).toBeVisible();
    await expect(this.main.getByText(user.email, { exact: true })).toBeVisible();
    // 'Hi' and the whole name in the header, on a phone (a line of its own) as on a wide window.
    const greeting = this.page.getByRole('banner').getByText(tr(this.locale, 'account.hi', { name: user.name }), { exact: true });
    await expect(greeting).toBeVisible();
    expect(await greeting.evaluate((element) => element.scrollWidth <= element.clientWidth), 'the greeting is not cut off').toBe(true);
  }
}

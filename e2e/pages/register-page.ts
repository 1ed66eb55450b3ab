import { expect, type Locator, type Page } from '@playwright/test';
import type { NewAccount } from './accounts.ts';
import { languageButtonName, tr, trPlain, type Locale } from './i18n.ts';
import type { UsernameLabel } from './login-page.ts';

/**
 * The Register screen (/register?challenge=…) of a client without terms or privacy addresses of
 * its own: the policy checkbox's text opens the embedded policy dialog.
 */
export class RegisterPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
    readonly usernameLabel: UsernameLabel = 'emailOrPhoneNumber',
  ) {}

  in(locale: Locale): RegisterPage {
    return new RegisterPage(this.page, locale, this.usernameLabel);
  }

  private t(key: string, values?: Record<string, string>): string {
    return tr(this.locale, key, values);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  get username(): Locator {
    return this.page.getByRole('textbox', { name: this.t(`fields.${this.usernameLabel}`), exact: true });
  }
  get name(): Locator {
    return this.page.getByRole('textbox', { name: this.t('fields.name'), exact: true });
  }
  get password(): Locator {
    return this.page.getByRole('textbox', { name: this.t('fields.password'), exact: true });
  }
  get confirmPassword(): Locator {
    return this.page.getByRole('textbox', { name: this.t('fields.confirmPassword'), exact: true });
  }
  get passwordRequirements(): Locator {
    return this.page.getByRole('button', { name: this.t('passwordRequirements.button'), exact: true });
  }
  get policy(): Locator {
    return this.page.getByRole('checkbox', { name: trPlain(this.locale, 'register.agreePolicy'), exact: true });
  }
  /** The words in the checkbox's text that open the policy document. */
  get policyLink(): Locator {
    return this.page.getByRole('button', { name: this.t('register.policyDialogTitle'), exact: true });
  }
  get policyDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('register.policyDialogTitle'), exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: this.t('register.submit'), exact: true });
  }
  get logIn(): Locator {
    return this.page.getByRole('link', { name: this.t('register.login'), exact: true });
  }
  get alert(): Locator {
    return this.page.getByRole('alert');
  }
  languageButton(locale: Locale): Locator {
    return this.page
      .getByRole('group', { name: this.t('common.language'), exact: true })
      .getByRole('button', { name: languageButtonName(locale), exact: true });
  }

  /** The screen is up for `clientName`, in the expected language, every field labelled. */
  async expectShown(clientName: string): Promise<void> {
    await expect(this.page).toHaveURL(/\/register\?(.*&)?challenge=/);
    await expect(this.heading).toHaveText(this.t('register.heading'));
    await expect(this.page.getByText(this.t('register.subheading', { client: clientName }), { exact: true })).toBeVisible();
    await expect(this.page).toHaveTitle(`${this.t('register.documentTitle')} · ${clientName}`);
    await expect(this.page.locator('html')).toHaveAttribute('lang', this.locale);
    for (const field of [this.username, this.name, this.password, this.confirmPassword]) await expect(field).toBeVisible();
    await expect(this.policy).toBeVisible();
    await expect(this.submit).toBeVisible();
  }

  async fill(account: NewAccount): Promise<void> {
    await this.username.fill(account.username);
    await this.name.fill(account.name);
    await this.password.fill(account.password);
    await this.confirmPassword.fill(account.password);
  }

  /** Pick a language with the switcher; returns the screen as it now speaks. */
  async switchTo(locale: Locale): Promise<RegisterPage> {
    await this.languageButton(locale).click();
    const switched = this.in(locale);
    await expect(switched.languageButton(locale)).toHaveAttribute('aria-pressed', 'true');
    return switched;
  }
}

import { expect, type Locator, type Page } from '@playwright/test';
import { languageButtonName, tr, type Locale } from './i18n.ts';

export const DEMO_USER = { email: 'demo@example.com', password: 'Passw0rd!', name: 'Demo User' } as const;

/** Which kinds of username the client accepts, so the username field's label is known. */
export type UsernameLabel = 'email' | 'phoneNumber' | 'emailOrPhoneNumber';

/**
 * Passgate's themed Login screen (/login?challenge=…), found the way a screen-reader user finds
 * things: by role, accessible name and label, in the language the screen is expected to speak.
 */
export class LoginPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
    readonly usernameLabel: UsernameLabel = 'emailOrPhoneNumber',
  ) {}

  /** The same screen, expected in another language (after a switch or a reload). */
  in(locale: Locale): LoginPage {
    return new LoginPage(this.page, locale, this.usernameLabel);
  }

  private t(key: string, values?: Record<string, string>): string {
    return tr(this.locale, key, values);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  // By accessible name: the label's ' *' is aria-hidden, so it is not part of the field's name.
  get username(): Locator {
    return this.page.getByRole('textbox', { name: this.t(`fields.${this.usernameLabel}`), exact: true });
  }
  get password(): Locator {
    return this.page.getByRole('textbox', { name: this.t('fields.password'), exact: true });
  }
  get showPassword(): Locator {
    return this.page.getByRole('button', { name: this.t('login.showPassword'), exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: this.t('login.submit'), exact: true });
  }
  get forgotPassword(): Locator {
    return this.page.getByRole('link', { name: this.t('login.forgotPassword'), exact: true });
  }
  get passwordless(): Locator {
    return this.page.getByRole('link', { name: this.t('login.passwordless'), exact: true });
  }
  get deviceLogin(): Locator {
    return this.page.getByRole('link', { name: this.t('login.webauthn'), exact: true });
  }
  get createAccount(): Locator {
    return this.page.getByRole('link', { name: this.t('login.register'), exact: true });
  }
  get google(): Locator {
    return this.page.getByRole('button', { name: this.t('login.google') });
  }
  get facebook(): Locator {
    return this.page.getByRole('button', { name: this.t('login.facebook') });
  }
  get privacyPolicy(): Locator {
    return this.page.getByRole('link', { name: this.t('common.privacyPolicy'), exact: true });
  }
  /** The message box the form shows after a failed attempt. */
  get alert(): Locator {
    return this.page.getByRole('alert');
  }
  get languageSwitcher(): Locator {
    return this.page.getByRole('group', { name: this.t('common.language'), exact: true });
  }
  languageButton(locale: Locale): Locator {
    return this.languageSwitcher.getByRole('button', { name: languageButtonName(locale), exact: true });
  }

  /**
   * The screen is up, for `clientName`, in the expected language: the heading and the tab say
   * 'Log in' ('Đăng nhập'), with the client's theme title (its name by default) beside it in the tab.
   */
  async expectShown(clientName: string, themeTitle: string = clientName): Promise<void> {
    await expect(this.page).toHaveURL(/\/login\?(.*&)?challenge=/);
    await expect(this.heading).toHaveText(this.t('login.heading'));
    await expect(this.page).toHaveTitle(`${this.t('login.documentTitle')} · ${themeTitle}`);
    await expect(this.page.getByText(this.t('login.subheading', { client: clientName }), { exact: true })).toBeVisible();
    await expect(this.username).toBeVisible();
    await expect(this.password).toBeVisible();
    await expect(this.submit).toBeEnabled();
    await expect(this.page.locator('html')).toHaveAttribute('lang', this.locale);
  }

  async signIn(username: string = DEMO_USER.email, password: string = DEMO_USER.password): Promise<void> {
    await this.username.fill(username);
    await this.password.fill(password);
    await this.submit.click();
  }

  /** Pick a language with the switcher; returns the screen as it now speaks. */
  async switchTo(locale: Locale): Promise<LoginPage> {
    await this.languageButton(locale).click();
    const switched = this.in(locale);
    await expect(switched.languageButton(locale)).toHaveAttribute('aria-pressed', 'true');
    return switched;
  }
}

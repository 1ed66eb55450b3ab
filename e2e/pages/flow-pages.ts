import { expect, type Locator, type Page } from '@playwright/test';
import { tr, type Locale } from './i18n.ts';
import type { UsernameLabel } from './login-page.ts';

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the visitor screens after Login share: the client's frame, a heading, an intro line, a message box. */
export abstract class FlowScreen {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
    readonly usernameLabel: UsernameLabel = 'emailOrPhoneNumber',
  ) {}

  protected t(key: string, values?: Record<string, string>): string {
    return tr(this.locale, key, values);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  get username(): Locator {
    return this.page.getByRole('textbox', { name: this.t(`fields.${this.usernameLabel}`), exact: true });
  }
  /** 'Resend code', disabled with its countdown right after a code was sent. */
  get resend(): Locator {
    return this.page.getByRole('button', { name: new RegExp(`^${escapeRegExp(this.t('flow.resendCode'))}`) });
  }
  get backToLogin(): Locator {
    return this.page.getByRole('link', { name: this.t('flow.backToLogin'), exact: true });
  }
  get alert(): Locator {
    return this.page.getByRole('alert');
  }

  protected async expectFrame(path: RegExp, titleKey: string, headingKey: string, clientName: string, intro?: string): Promise<void> {
    await expect(this.page).toHaveURL(path);
    await expect(this.heading).toHaveText(this.t(headingKey));
    await expect(this.page).toHaveTitle(`${this.t(titleKey)} · ${clientName}`);
    await expect(this.page.locator('html')).toHaveAttribute('lang', this.locale);
    if (intro) await expect(this.page.getByText(intro, { exact: true })).toBeVisible();
  }
}

/** /activation: the code sent after registering, for the username the screen shows read-only. */
export class ActivationPage extends FlowScreen {
  get code(): Locator {
    return this.page.getByRole('textbox', { name: this.t('fields.activationCode'), exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: this.t('activation.submit'), exact: true });
  }

  async expectShown(clientName: string, username: string): Promise<void> {
    await this.expectFrame(/\/activation\?(.*&)?challenge=/, 'activation.documentTitle', 'activation.heading', clientName, this.t('activation.instructions', { count: '6', username }));
    await expect(this.username).toHaveValue(username);
    await expect(this.username).toHaveAttribute('readonly', '');
    await expect(this.code).toBeFocused();
    await expect(this.resend).toBeDisabled();
    await expect(this.submit).toBeEnabled();
  }
}

/** /activation/resend and /password/recover: enter the account, get a code. */
export class SendCodePage extends FlowScreen {
  constructor(
    page: Page,
    readonly screen: 'activationResend' | 'passwordRecover',
    locale: Locale = 'vi',
    usernameLabel: UsernameLabel = 'emailOrPhoneNumber',
  ) {
    super(page, locale, usernameLabel);
  }

  get submit(): Locator {
    return this.page.getByRole('button', { name: this.t(`${this.screen}.submit`), exact: true });
  }

  async expectShown(clientName: string): Promise<void> {
    const path = this.screen === 'activationResend' ? /\/activation\/resend\?(.*&)?challenge=/ : /\/password\/recover\?(.*&)?challenge=/;
    await this.expectFrame(path, `${this.screen}.documentTitle`, `${this.screen}.heading`, clientName, this.t(`${this.screen}.instructions`));
    await expect(this.username).toBeEditable();
    await expect(this.submit).toBeEnabled();
    await expect(this.backToLogin).toBeVisible();
  }
}

/** /password/update: the recovery code and the new password, twice. */
export class PasswordUpdatePage extends FlowScreen {
  get code(): Locator {
    return this.page.getByRole('textbox', { name: this.t('fields.recoveryCode'), exact: true });
  }
  get newPassword(): Locator {
    return this.page.getByRole('textbox', { name: this.t('fields.newPassword'), exact: true });
  }
  get confirmNewPassword(): Locator {
    return this.page.getByRole('textbox', { name: this.t('fields.confirmNewPassword'), exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: this.t('passwordUpdate.submit'), exact: true });
  }

  async expectShown(clientName: string, username: string): Promise<void> {
    await this.expectFrame(/\/password\/update\?(.*&)?challenge=/, 'passwordUpdate.documentTitle', 'passwordUpdate.heading', clientName, this.t('passwordUpdate.instructions', { count: '6', username }));
    await expect(this.code).toBeFocused();
    await expect(this.resend).toBeDisabled();
    await expect(this.newPassword).toBeVisible();
    await expect(this.confirmNewPassword).toBeVisible();
  }

  async update(code: string, password: string): Promise<void> {
    await this.code.fill(code);
    await this.newPassword.fill(password);
    await this.confirmNewPassword.fill(password);
    await this.submit.click();
  }
}

/** /password/coming-expire: the warning, 'Reset password' (when the client may) and 'Continue login'. */
export class PasswordExpiryPage extends FlowScreen {
  get resetPassword(): Locator {
    return this.page.getByRole('button', { name: this.t('passwordExpiry.resetPassword'), exact: true });
  }
  get continueLogin(): Locator {
    return this.page.getByRole('button', { name: this.t('passwordExpiry.continueLogin'), exact: true });
  }

  /** The warning for a password that expires in `daysLeft` days, on `date` (DD/MM/YYYY). */
  async expectShown(clientName: string, daysLeft: number, date: string): Promise<void> {
    const warning = this.t(`passwordExpiry.daysLeft_${daysLeft === 1 ? 'one' : 'other'}`, { count: String(daysLeft), date });
    await this.expectFrame(/\/password\/coming-expire\?(.*&)?challenge=/, 'passwordExpiry.documentTitle', 'passwordExpiry.heading', clientName, warning);
    await expect(this.page.getByText(this.t('passwordExpiry.advice'), { exact: true })).toBeVisible();
    await expect(this.continueLogin).toBeEnabled();
  }
}

import { expect, type Locator, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { AccountPage } from './account-pages.ts';
import type { NewAccount } from './accounts.ts';
import { BackupCodesDialog } from './backup-codes-pages.ts';
import { escapeRegExp } from './flow-pages.ts';
import { tr, type Locale } from './i18n.ts';

export type MfaMethod = 'totp' | 'sms' | 'email';

/** /user/security: security issues, the masked password, the 2-Step Verification row and the registration method. */
export class SecurityPage extends AccountPage {
  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/user\/security$/);
    await expect(this.heading).toHaveText(this.t('account.security.heading'));
    await expect(this.page).toHaveTitle(`${this.t('account.security.heading')} · ${this.t('app.name')}`);
  }

  /** The 2-Step Verification row (a button named by what it shows: the label and the state) that opens the password re-check. */
  mfaRow(state: 'on' | 'off'): Locator {
    return this.page.getByRole('button', { name: new RegExp(`^${escapeRegExp(this.t('account.security.signin.mfa'))}\\s*${escapeRegExp(this.t(`account.security.${state}`))}$`) });
  }
  get mfaUnsupported(): Locator {
    return this.page.getByText(this.t('account.security.signin.mfaUnsupported'), { exact: true });
  }
  /** The 'Registration method' row (its value is not unique on the page: 'Password' is also a row's label). */
  get registrationMethodRow(): Locator {
    return this.page.getByRole('listitem').filter({ has: this.page.getByText(this.t('account.security.signin.registrationMethod'), { exact: true }) });
  }
  async expectRegistrationMethod(method: string): Promise<void> {
    await expect(this.registrationMethodRow).toHaveText(`${this.t('account.security.signin.registrationMethod')} ${this.t(`account.security.methods.${method}`)}`);
  }

  // The password re-check dialog.
  get checkDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('account.security.check.title'), exact: true });
  }
  get checkPassword(): Locator {
    return this.checkDialog.getByRole('textbox', { name: this.t('account.security.check.password'), exact: true });
  }
  get checkNext(): Locator {
    return this.checkDialog.getByRole('button', { name: this.t('common.next'), exact: true });
  }
  /** The notice left by turning 2-step verification off. */
  get turnedOffNotice(): Locator {
    return this.page.getByRole('alert').filter({ hasText: this.t('account.security.mfa.turnedOff') });
  }
}

/** /user/security/mfa/greeting and /user/security/mfa (…/authenticator): the methods, SET UP, OFF and the setup dialogs. */
export class MfaPage extends AccountPage {
  get getStarted(): Locator {
    return this.page.getByRole('link', { name: this.t('account.security.greeting.start'), exact: true });
  }
  async expectShown(): Promise<void> {
    await expect(this.heading).toHaveText(this.t('account.security.mfa.title'));
    for (const method of ['totp', 'sms', 'email'] as const) await expect(this.card(method)).toBeVisible();
  }
  card(method: MfaMethod): Locator {
    return this.page.getByRole('region', { name: this.t(`account.security.mfa.methods.${method}.name`), exact: true });
  }
  setUp(method: MfaMethod): Locator {
    return this.page.getByRole('button', { name: this.t('account.security.mfa.setUpLabel', { method: this.t(`account.security.mfa.methods.${method}.name`) }), exact: true });
  }
  get turnOff(): Locator {
    return this.page.getByRole('button', { name: this.t('account.security.mfa.turnOff'), exact: true });
  }
  /** The confirmation asked before 2-step verification is turned off. */
  get turnOffDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('account.security.mfa.offConfirmTitle'), exact: true });
  }
  get confirmTurnOff(): Locator {
    return this.turnOffDialog.getByRole('button', { name: this.t('account.security.mfa.offConfirmButton'), exact: true });
  }
  get activated(): Locator {
    return this.page.getByRole('alert').filter({ hasText: this.t('account.security.setup.activated') });
  }
  activeChip(method: MfaMethod): Locator {
    return this.card(method).getByText(this.t('account.security.mfa.active'), { exact: true });
  }

  // The setup dialogs.
  dialog(method: MfaMethod): Locator {
    return this.page.getByRole('dialog', { name: this.t(`account.security.setup.${method}Title`), exact: true });
  }
  get qrCode(): Locator {
    return this.dialog('totp').getByRole('img', { name: this.t('account.security.setup.qrAlt'), exact: true });
  }
  get secret(): Locator {
    return this.dialog('totp').locator('code');
  }
  code(method: MfaMethod): Locator {
    return this.dialog(method).getByRole('textbox', { name: this.t('account.security.setup.code'), exact: true });
  }
  button(method: MfaMethod, key: string): Locator {
    return this.dialog(method).getByRole('button', { name: this.t(key), exact: true });
  }
}

/** /login/mfa: the second step of a sign-in. */
export class Login2StepPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
  ) {}

  async expectShown(intro: string): Promise<void> {
    await expect(this.page).toHaveURL(/\/login\/mfa(\?|$)/);
    await expect(this.page.getByRole('heading', { level: 1 })).toHaveText(tr(this.locale, 'login2Step.heading'));
    await expect(this.page.getByText(intro, { exact: true })).toBeVisible();
    await expect(this.code).toBeVisible();
  }
  get code(): Locator {
    return this.page.getByRole('textbox', { name: tr(this.locale, 'login2Step.code'), exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: tr(this.locale, 'login2Step.submit'), exact: true });
  }
  async verify(code: string): Promise<void> {
    await this.code.fill(code);
    await this.submit.click();
  }
}

/** /login/passwordless: the phone number and Send code, then the SMS code and Log in. */
export class PasswordlessPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
  ) {}

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/login\/passwordless\?(.*&)?challenge=/);
    await expect(this.page.getByRole('heading', { level: 1 })).toHaveText(tr(this.locale, 'passwordless.heading'));
    await expect(this.phone).toBeVisible();
  }
  get phone(): Locator {
    return this.page.getByRole('textbox', { name: tr(this.locale, 'fields.phoneNumber'), exact: true });
  }
  get sendCode(): Locator {
    return this.page.getByRole('button', { name: tr(this.locale, 'passwordless.sendCode'), exact: true });
  }
  get code(): Locator {
    return this.page.getByRole('textbox', { name: tr(this.locale, 'passwordless.code'), exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: tr(this.locale, 'passwordless.submit'), exact: true });
  }
  get editPhone(): Locator {
    return this.page.getByRole('button', { name: tr(this.locale, 'passwordless.editPhone'), exact: true });
  }
}

const STEP_MS = 30_000;

/**
 * The authenticator app of the scenario: the codes of the secret shown in the setup dialog (SHA1,
 * 6 digits, 30 s). The server takes a code of the step before, this step or the next (one step of
 * clock drift), each step once and in order: a code is that of the first step not used yet, as
 * soon as that step is within the server's window, so a scenario waits only once it has used the
 * step ahead too (three codes in a row wait one step, not two).
 */
export class Authenticator {
  private readonly totp: TOTP;
  private lastStep = -1;

  constructor(secret: string) {
    this.totp = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
  }

  /** A code of a step not used yet, waiting until the server takes that step when it is two ahead. */
  async nextCode(page: Page): Promise<string> {
    const step = Math.max(this.lastStep + 1, Math.floor(Date.now() / STEP_MS));
    // The server takes `step` from the start of the step before it; 250 ms for the clocks to agree.
    const wait = (step - 1) * STEP_MS + 250 - Date.now();
    if (wait > 0) await page.waitForTimeout(wait);
    this.lastStep = step;
    return this.totp.generate({ timestamp: step * STEP_MS });
  }
}

/** From the Security page with 2-step off: the password re-check, then the greeting's Get started, to the page of the methods. */
export async function openTwoStepMethods(security: SecurityPage, account: NewAccount): Promise<MfaPage> {
  await security.mfaRow('off').click();
  await security.checkPassword.fill(account.password);
  await security.checkNext.click();
  const mfa = new MfaPage(security.page, security.locale);
  await mfa.getStarted.click();
  await mfa.expectShown();
  return mfa;
}

/**
 * From the Security page, turns 2-step verification on with an authenticator app as a person does
 * (password re-check, greeting, the app's setup dialog, the backup codes put away); answers the
 * app, which gives the codes of the next sign-ins.
 */
export async function turnOnAuthenticatorApp(page: Page, account: NewAccount, locale: Locale = 'vi'): Promise<Authenticator> {
  const security = new SecurityPage(page, locale);
  await security.expectShown();
  const mfa = await openTwoStepMethods(security, account);
  await mfa.setUp('totp').click();
  await expect(mfa.secret).toHaveText(/^[A-Z2-7]{16,}=*$/);
  const authenticator = new Authenticator((await mfa.secret.textContent())!);
  await mfa.button('totp', 'common.next').click();
  await mfa.code('totp').fill(await authenticator.nextCode(page));
  await mfa.button('totp', 'account.security.setup.confirm').click();
  const codes = new BackupCodesDialog(page, locale);
  await expect(codes.dialog.or(mfa.activated)).toBeVisible();
  if (await codes.dialog.isVisible()) await codes.done.click();
  await expect(mfa.activeChip('totp')).toBeVisible();
  return authenticator;
}

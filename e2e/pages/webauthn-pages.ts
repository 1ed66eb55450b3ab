import { expect, type Locator, type Page } from '@playwright/test';
import { AccountPage } from './account-pages.ts';
import { escapeRegExp, FlowScreen } from './flow-pages.ts';
import type { Locale } from './i18n.ts';

/** The 'My devices' card of Personal information: the list, Register a new device, Activate, Delete. */
export class DevicesCard extends AccountPage {
  get card(): Locator {
    return this.page.getByRole('region', { name: this.t('account.devices.title'), exact: true });
  }
  item(deviceName: string): Locator {
    return this.card.getByRole('listitem', { name: deviceName, exact: true });
  }
  state(deviceName: string, state: 'active' | 'inactive'): Locator {
    return this.item(deviceName).getByText(this.t(`account.devices.${state}`), { exact: true });
  }
  get none(): Locator {
    return this.card.getByText(this.t('account.devices.none'), { exact: true });
  }
  get register(): Locator {
    return this.card.getByRole('link', { name: this.t('account.devices.register'), exact: true });
  }
  activate(deviceName: string): Locator {
    return this.card.getByRole('button', { name: this.t('account.devices.activateLabel', { name: deviceName }), exact: true });
  }
  delete(deviceName: string): Locator {
    return this.card.getByRole('button', { name: this.t('account.devices.deleteLabel', { name: deviceName }), exact: true });
  }
  /** 'Your device is now active' / '… deleted', shown on the card after the change. */
  notice(kind: 'activated' | 'deleted'): Locator {
    return this.card.getByRole('alert').filter({ hasText: this.t(`account.devices.${kind}`) });
  }
  get deleteDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('account.devices.deleteTitle'), exact: true });
  }
  get confirmDelete(): Locator {
    return this.deleteDialog.getByRole('button', { name: this.t('account.devices.delete'), exact: true });
  }
}

/** /user/webauthn/register: the device name and Register. */
export class RegisterDevicePage extends AccountPage {
  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/user\/webauthn\/register$/);
    await expect(this.heading).toHaveText(this.t('account.devices.registerPage.title'));
    await expect(this.deviceName).toBeVisible();
  }
  get deviceName(): Locator {
    return this.page.getByRole('textbox', { name: this.t('account.devices.deviceName'), exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: this.t('account.devices.registerPage.submit'), exact: true });
  }
  get alreadyRegistered(): Locator {
    return this.page.getByRole('alert').filter({ hasText: this.t('messages.deviceAlreadyRegistered') });
  }
}

/** /user/webauthn/activation and /user/webauthn/deletion: the read-only name, the code, Resend and the action. */
export class DeviceCodePage extends AccountPage {
  constructor(
    page: Page,
    locale: Locale,
    readonly purpose: 'activation' | 'deletion',
  ) {
    super(page, locale);
  }

  /** The page for `deviceName`, saying the code went to `destination` (masked by the server when it sent it). */
  async expectShown(deviceName: string, destination: string | RegExp): Promise<void> {
    await expect(this.page).toHaveURL(new RegExp(`/user/webauthn/${this.purpose}\\?challenge=[^&]+&webauthnCredentialId=[^&]+$`));
    await expect(this.heading).toHaveText(this.t(`account.devices.${this.purpose}.title`));
    await expect(this.deviceName).toHaveValue(deviceName);
    await expect(this.deviceName).toHaveAttribute('readonly', '');
    const [before = '', after = ''] = this.t('account.devices.codePage.codeSentTo', { count: '6' }).split('{{destination}}');
    const where = typeof destination === 'string' ? escapeRegExp(destination) : destination.source;
    await expect(this.page.getByText(new RegExp(`^${escapeRegExp(before)}${where}${escapeRegExp(after)}$`))).toBeVisible();
    await expect(this.resend).toBeDisabled();
  }
  get deviceName(): Locator {
    return this.page.getByRole('textbox', { name: this.t('account.devices.deviceName'), exact: true });
  }
  get code(): Locator {
    return this.page.getByRole('textbox', { name: this.t(`account.devices.${this.purpose}.code`), exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: this.t(`account.devices.${this.purpose}.submit`), exact: true });
  }
  /** 'Resend code', counting down its 60 s at first. */
  get resend(): Locator {
    return this.page.getByRole('button', { name: new RegExp(`^${escapeRegExp(this.t('flow.resendCode'))}`) });
  }
}

/** /login/webauthn: the e-mail or phone and Log in; the QR dialog when this device cannot answer. */
export class DeviceLoginPage extends FlowScreen {
  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/login\/webauthn\?(.*&)?challenge=/);
    await expect(this.heading).toHaveText(this.t('deviceLogin.documentTitle'));
    await expect(this.username).toBeVisible();
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: this.t('login.submit'), exact: true });
  }
  get qrDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('deviceLogin.qrTitle'), exact: true });
  }
  get qrCode(): Locator {
    return this.qrDialog.getByRole('img', { name: this.t('deviceLogin.qrAlt'), exact: true });
  }
  get qrLink(): Locator {
    return this.qrDialog.getByRole('link');
  }
  get waiting(): Locator {
    return this.qrDialog.getByText(this.t('deviceLogin.waiting'), { exact: true });
  }
  get noReload(): Locator {
    return this.qrDialog.getByText(this.t('deviceLogin.noReload'), { exact: true });
  }
  get countdown(): Locator {
    const [before = '', after = ''] = this.t('deviceLogin.expiresIn').split('{{time}}');
    return this.qrDialog.getByText(new RegExp(`^${escapeRegExp(before)}[0-5]:\\d\\d${escapeRegExp(after)}$`));
  }

  async logIn(username: string): Promise<void> {
    await this.username.fill(username);
    await this.submit.click();
  }
}

/** /login/webauthn/verify-device on the second device: 'You are logging on to' the client, who asked, Continue or 'No, it's not me'. */
export class VerifyDevicePage extends FlowScreen {
  confirmation(clientName: string): Locator {
    return this.page.getByRole('dialog', { name: `${this.t('deviceLogin.loggingOnTo')} ${clientName}`, exact: true });
  }
  get question(): Locator {
    return this.page.getByText(this.t('deviceLogin.question'), { exact: true });
  }
  get continue(): Locator {
    return this.page.getByRole('button', { name: this.t('common.continue'), exact: true });
  }
  /** 'Requested from: Chrome 131 on Linux · IP … · at 08:15': the browser that asked for the sign-in. */
  get requester(): Locator {
    return this.page.getByText(new RegExp(`^${escapeRegExp(this.t('deviceLogin.requester.label'))} `));
  }
  get warning(): Locator {
    return this.page.getByRole('alert').filter({ hasText: this.t('deviceLogin.warning') });
  }
  get deny(): Locator {
    return this.page.getByRole('button', { name: this.t('deviceLogin.deny'), exact: true });
  }
  get denied(): Locator {
    return this.page.getByRole('alert').filter({ hasText: this.t('deviceLogin.denied') });
  }
  get toAccount(): Locator {
    return this.page.getByRole('button', { name: this.t('deviceLogin.toAccount'), exact: true });
  }
  get verified(): Locator {
    return this.page.getByRole('alert').filter({ hasText: this.t('deviceLogin.verified') });
  }
  get redirectCountdown(): Locator {
    const [before = '', after = ''] = this.t('deviceLogin.redirectIn').split('{{seconds}}');
    return this.page.getByRole('status').filter({ hasText: new RegExp(`^${escapeRegExp(before)}[0-5]${escapeRegExp(after)}$`) });
  }
}

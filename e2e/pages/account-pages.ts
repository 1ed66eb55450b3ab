import { expect, type Locator, type Page } from '@playwright/test';
import type { NewAccount } from './accounts.ts';
import { ACCOUNT } from './clients.ts';
import { DashboardPage } from './dashboard-page.ts';
import { languageButtonName, tr, type Locale } from './i18n.ts';
import { LoginPage } from './login-page.ts';

/**
 * What every page of the account area (/user/…) shares: the header (hamburger on small screens,
 * language switcher, 'Hi' and the name, the user menu with the avatar) and the side menu, which is
 * a drawer behind the hamburger below 900 px.
 */
export class AccountPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
  ) {}

  protected t(key: string, values?: Record<string, string>): string {
    return tr(this.locale, key, values);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  get banner(): Locator {
    return this.page.getByRole('banner');
  }
  get hamburger(): Locator {
    return this.page.getByRole('button', { name: this.t('account.openNavigation'), exact: true });
  }
  /** The side menu as shown: the permanent column on a wide window, the open drawer on a small one. */
  get navigation(): Locator {
    return this.page.getByRole('navigation', { name: this.t('account.navigation'), exact: true });
  }
  menuLink(key: 'dashboard' | 'profile'): Locator {
    return this.navigation.getByRole('link', { name: this.t(`account.menu.${key}`), exact: true });
  }
  greeting(name: string): Locator {
    return this.banner.getByText(this.t('account.hi', { name }), { exact: true });
  }
  get userMenuButton(): Locator {
    return this.page.getByRole('button', { name: this.t('account.userMenu'), exact: true });
  }
  /** The avatar on the user-menu button: decorative (alt ""), the button carries the name. */
  get headerAvatarImage(): Locator {
    return this.userMenuButton.locator('img');
  }
  get logOut(): Locator {
    return this.page.getByRole('menuitem', { name: this.t('account.logout'), exact: true });
  }
  languageButton(locale: Locale): Locator {
    return this.banner
      .getByRole('group', { name: this.t('common.language'), exact: true })
      .getByRole('button', { name: languageButtonName(locale), exact: true });
  }

  /** The same page, expected in another language. */
  in<T extends AccountPage>(this: T, locale: Locale): T {
    return new (this.constructor as new (page: Page, locale: Locale) => T)(this.page, locale);
  }

  /** Switches the language with the header's switcher; answers the page as it now speaks. */
  async switchTo<T extends AccountPage>(this: T, locale: Locale): Promise<T> {
    await this.languageButton(locale).click();
    const switched = this.in(locale);
    await expect(switched.languageButton(locale)).toHaveAttribute('aria-pressed', 'true');
    await expect(this.page.locator('html')).toHaveAttribute('lang', locale);
    return switched;
  }

  /** Opens the user menu and logs out (the provider's end session, with id_token_hint). */
  async signOut(): Promise<void> {
    await this.userMenuButton.click();
    await this.logOut.click();
  }
}

/** /user/profile, Personal information: avatar, Profile card, Contact information, Delete account. */
export class ProfilePage extends AccountPage {
  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/user\/profile$/);
    await expect(this.heading).toHaveText(this.t('account.profile.heading'));
    await expect(this.page).toHaveTitle(`${this.t('account.profile.heading')} · ${this.t('app.name')}`);
    for (const section of [this.avatarSection, this.profileSection, this.contactSection, this.deleteSection]) await expect(section).toBeVisible();
  }

  private section(titleKey: string): Locator {
    return this.page.getByRole('region', { name: this.t(titleKey), exact: true });
  }
  get avatarSection(): Locator {
    return this.section('account.profile.avatar.title');
  }
  get profileSection(): Locator {
    return this.section('account.profile.basic.title');
  }
  get contactSection(): Locator {
    return this.section('account.profile.contact.title');
  }
  get deleteSection(): Locator {
    return this.section('account.profile.delete.title');
  }
  /** The 'Your information has been updated' message box of a section. */
  updated(section: Locator): Locator {
    return section.getByRole('alert').filter({ hasText: this.t('account.profile.updated') });
  }

  // The Profile card.
  get name(): Locator {
    return this.profileSection.getByRole('textbox', { name: this.t('fields.name'), exact: true });
  }
  get birthday(): Locator {
    return this.profileSection.getByRole('textbox', { name: this.t('account.profile.basic.birthday'), exact: true });
  }
  gender(gender: 'Male' | 'Female' | 'Other'): Locator {
    return this.profileSection.getByRole('radio', { name: this.t(`account.profile.basic.genders.${gender}`), exact: true });
  }
  get saveProfile(): Locator {
    return this.profileSection.getByRole('button', { name: this.t('common.save'), exact: true });
  }

  // The profile picture.
  avatar(name: string): Locator {
    return this.avatarSection.getByRole('img', { name: this.t('account.dashboard.avatarAlt', { name }), exact: true });
  }
  get changeAvatar(): Locator {
    return this.avatarSection.getByRole('button', { name: this.t('account.profile.avatar.change'), exact: true });
  }
  /** The hidden file input behind 'Change profile picture' (a file chooser cannot be driven otherwise). */
  get avatarFile(): Locator {
    return this.page.getByTestId('avatar-file');
  }
  get cropDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('account.profile.avatar.dialogTitle'), exact: true });
  }
  get zoom(): Locator {
    return this.cropDialog.getByRole('slider', { name: this.t('account.profile.avatar.zoom'), exact: true });
  }
  get saveAvatar(): Locator {
    return this.cropDialog.getByRole('button', { name: this.t('common.save'), exact: true });
  }

  // Contact information.
  contactButton(action: 'changeEmail' | 'addEmail' | 'changePhoneNumber' | 'addPhoneNumber'): Locator {
    return this.contactSection.getByRole('button', { name: this.t(`account.profile.contact.${action}`), exact: true });
  }
  /** The inline editor of the e-mail or the phone number, a form named like the button that opened it. */
  contactEditor(action: 'changeEmail' | 'addEmail' | 'changePhoneNumber' | 'addPhoneNumber'): ContactEditor {
    return new ContactEditor(this.contactSection.getByRole('form', { name: this.t(`account.profile.contact.${action}`), exact: true }), this.locale);
  }

  // Delete account.
  get deleteAccount(): Locator {
    return this.deleteSection.getByRole('button', { name: this.t('account.profile.delete.button'), exact: true });
  }
  get deleteDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('account.profile.delete.dialogTitle'), exact: true });
  }
  get deletePermanently(): Locator {
    return this.deleteDialog.getByRole('button', { name: this.t('account.profile.delete.confirm'), exact: true });
  }
  get deletePassword(): Locator {
    return this.deleteDialog.getByRole('textbox', { name: this.t('account.profile.delete.passwordLabel') });
  }
  /** The field the account's e-mail address (or phone number) is typed into. */
  deleteConfirmation(value: string): Locator {
    return this.deleteDialog.getByRole('textbox', { name: this.t('account.profile.delete.confirmLabel', { value }) });
  }
}

/** The two steps of a contact editor: the new value and Next, then the code and Save. */
export class ContactEditor {
  constructor(
    readonly form: Locator,
    readonly locale: Locale,
  ) {}

  private t(key: string, values?: Record<string, string>): string {
    return tr(this.locale, key, values);
  }

  get newEmail(): Locator {
    return this.form.getByRole('textbox', { name: this.t('account.profile.contact.newEmail'), exact: true });
  }
  get next(): Locator {
    return this.form.getByRole('button', { name: this.t('common.next'), exact: true });
  }
  /** Step 2: the value the code went to, read-only. */
  get target(): Locator {
    return this.form.getByRole('textbox', { name: this.t('fields.email'), exact: true });
  }
  get code(): Locator {
    return this.form.getByRole('textbox', { name: this.t('account.profile.contact.code'), exact: true });
  }
  get save(): Locator {
    return this.form.getByRole('button', { name: this.t('common.save'), exact: true });
  }
}

/** /account-deleted: the public page the account area leaves for once the account is gone. */
export async function expectAccountDeleted(page: Page, locale: Locale): Promise<void> {
  await expect(page).toHaveURL(/\/account-deleted(\?|$)/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(locale, 'accountDeleted.heading'));
  await expect(page.getByText(tr(locale, 'accountDeleted.message'), { exact: true })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${tr(locale, 'accountDeleted.documentTitle')}`));
}

/**
 * Signs `account` in to the account area the way a person does: /user/dashboard, Passgate's Login
 * screen for the `account` client (in Vietnamese, no language chosen yet), then the dashboard.
 */
export async function signInToAccountArea(page: Page, account: NewAccount): Promise<DashboardPage> {
  await page.goto('/user/dashboard');
  const login = new LoginPage(page, 'vi', ACCOUNT.usernameLabel);
  await login.expectShown(ACCOUNT.name);
  await login.signIn(account.username, account.password);
  const dashboard = new DashboardPage(page, 'vi');
  await dashboard.expectUser({ name: account.name, email: account.username });
  return dashboard;
}

/**
 * An <img> that really shows a picture served by Passgate: its address is /api/v1/avatars/…, the
 * browser decoded it, and it is square (the server stores a normalised square image). Answers the
 * address.
 */
export async function expectAvatarImage(image: Locator): Promise<string> {
  await expect(image).toHaveAttribute('src', /\/api\/v1\/avatars\/[^/]+$/);
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth), { message: 'the avatar is decoded' }).toBeGreaterThan(0);
  const size = await image.evaluate((element: HTMLImageElement) => ({ width: element.naturalWidth, height: element.naturalHeight }));
  expect(size.width, 'a square avatar').toBe(size.height);
  return (await image.getAttribute('src'))!;
}

import { expect, type APIRequestContext, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { createActiveAccount, newAccount, uniqueEmail, type NewAccount } from './accounts.ts';
import { tr, type Locale } from './i18n.ts';
import { LoginPage } from './login-page.ts';
import { passgate } from './passgate-cli.ts';
import { saveWideAndNarrow } from './screenshots.ts';
import { Login2StepPage, turnOnAuthenticatorApp, type Authenticator } from './security-pages.ts';

/** The admin console's own client, as the Login screen names it. */
export const ADMIN_CONSOLE = { name: 'Passgate Admin Console' } as const;

/**
 * A fresh account of the demo tenant (the admin console's tenant) given an admin role with the
 * command line: an operator, or a tenant admin of `tenant`. The seeded demo user stays as other
 * scenarios expect it: without 2-step verification.
 */
export async function newAdmin(request: APIRequestContext, role: { operator: true } | { tenantAdminOf: string }, name = 'Trần Quản Trị'): Promise<NewAccount> {
  const account = newAccount(uniqueEmail('operator' in role ? 'operator' : 'tenant-admin'), name);
  await createActiveAccount(request, account);
  const grant = 'operator' in role ? ['--tenant', 'demo', '--role', 'operator'] : ['--tenant', role.tenantAdminOf, '--role', 'tenant-admin'];
  await passgate(['admin', 'grant', '--email', account.username, ...grant]);
  return account;
}

/**
 * /admin: Passgate's Login screen for the admin-console client, then (the account has no second
 * factor yet) the console's 'set up 2-step verification first' screen, which leads to the account
 * area, where an authenticator app is set up.
 */
export async function signInToConsoleFirstTime(page: Page, account: NewAccount, shots?: string, locale: Locale = 'vi'): Promise<void> {
  await page.goto('/admin');
  const login = new LoginPage(page, locale, 'emailOrPhoneNumber');
  await login.expectShown(ADMIN_CONSOLE.name);
  await login.signIn(account.username, account.password);
  await setUpAuthenticatorFromConsole(page, account, shots, locale);
}

/**
 * The console sends an admin without 2-step verification to set it up; this sets up an authenticator
 * app there, comes back to the console, which asks for a sign-in that used the app (the one before
 * the set-up used the password alone), and signs in again with the password and the app's code.
 */
export async function setUpAuthenticatorFromConsole(
  page: Page,
  account: NewAccount,
  shots?: string,
  locale: Locale = 'vi',
  atSignInAgain?: () => Promise<void>,
): Promise<Authenticator> {
  await expect(page.getByRole('heading', { level: 1, name: tr(locale, 'admin.twoStep.setUp.heading') })).toBeVisible();
  if (shots) await saveWideAndNarrow(page, shots, locale);
  await page.getByRole('link', { name: tr(locale, 'admin.twoStep.setUp.action') }).click();
  // The account area signs in with the provider session of the console's sign-in, then asks for the password again.
  const authenticator = await turnOnAuthenticatorApp(page, account, locale);

  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: tr(locale, 'admin.twoStep.signInAgain.heading') })).toBeVisible();
  if (shots) await saveWideAndNarrow(page, `${shots}-sign-in-again`, locale);
  await atSignInAgain?.();
  await page.getByRole('button', { name: tr(locale, 'admin.twoStep.signInAgain.action') }).click();
  await signInToConsoleWithApp(page, account, authenticator, locale);
  return authenticator;
}

/** Passgate's Login screen for the console (a live provider session notwithstanding), then the app's code: the console opens. */
export async function signInToConsoleWithApp(page: Page, account: NewAccount, authenticator: Authenticator, locale: Locale = 'vi'): Promise<void> {
  const login = new LoginPage(page, locale, 'emailOrPhoneNumber');
  await login.expectShown(ADMIN_CONSOLE.name);
  await login.signIn(account.username, account.password);
  const second = new Login2StepPage(page, locale);
  await second.expectShown(tr(locale, 'login2Step.totpInstructions', { count: '6' }));
  await second.verify(await authenticator.nextCode(page));
  await expect(page.getByRole('heading', { level: 1, name: tr(locale, 'admin.menu.dashboard') })).toBeVisible();
}

/** The live preview of a client's Login screen on its page in the console. */
export function previewOf(page: Page, clientName: string, locale: Locale): FrameLocator {
  return page.frameLocator(`iframe[title="${tr(locale, 'admin.preview.frameTitle', { client: clientName })}"]`);
}

/** The admin API, called with the console's own access token from this tab (to read back what the console saved). */
export async function adminApiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (apiPath) => {
    const key = Object.keys(sessionStorage).find((k) => k.includes(':admin-console'));
    const token = key ? (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token : undefined;
    const response = await fetch(`/api/admin/v1${apiPath}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`GET ${apiPath} answered ${response.status}`);
    return (await response.json()) as T;
  }, path) as Promise<T>;
}

/**
 * A select of the console (MUI) within `scope`, found by its label (its accessible name is the
 * label followed by the value shown), opened, and an option picked by its name.
 */
export async function pickOption(page: Page, scope: Page | Locator, label: string, option: string | RegExp): Promise<void> {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await scope.getByRole('combobox', { name: new RegExp(`^${escaped}`) }).click();
  await page.getByRole('listbox').getByRole('option', { name: option }).click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
}

import { expect, test, type Page } from '@playwright/test';
import { signInToAccountArea } from '../pages/account-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail, type NewAccount } from '../pages/accounts.ts';
import { DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { DashboardPage } from '../pages/dashboard-page.ts';
import { DemoPage } from '../pages/demo-page.ts';
import { tr, type Locale } from '../pages/i18n.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';
import { Login2StepPage, SecurityPage, turnOnAuthenticatorApp, type Authenticator } from '../pages/security-pages.ts';

/**
 * "Remember this browser" (issue 16): the seeded demo tenant offers 'Don't ask again on this
 * browser for 30 days' on the 2-step screen. Ticked, the next sign-in in this browser skips the
 * second step; 'Forget all browsers' on the Security page ends that.
 */

const DAYS = '30';
const rememberLabel = (locale: Locale) => tr(locale, 'login2Step.rememberBrowser_other', { count: DAYS });

/** From the dashboard's Security card to the Security page. */
async function openSecurity(page: Page): Promise<SecurityPage> {
  await page
    .getByRole('main')
    .getByRole('link', { name: new RegExp(`^${tr('vi', 'account.security.heading')}`) })
    .click();
  const security = new SecurityPage(page, 'vi');
  await security.expectShown();
  return security;
}

/** Turns 2-step on with an authenticator app from the Security page, as a person does; answers the app. */
async function turnOnAuthenticator(page: Page, account: NewAccount): Promise<Authenticator> {
  await openSecurity(page);
  return turnOnAuthenticatorApp(page, account);
}

/** Signs out of the account area (ending the provider session), then starts a sign-in on /demo with the password. */
async function signOutThenSignInFromDemo(page: Page, account: NewAccount, locale: Locale = 'vi'): Promise<void> {
  await new SecurityPage(page, 'vi').signOut();
  await expect(page).toHaveURL(/\/login\?/);
  const { login } = await openLoginFromDemo(page, DEMO_APP, locale === 'vi' ? {} : { choose: locale, locale });
  await login.signIn(account.username, account.password);
}

/** Back to the account area in this browser (the provider session signs it in), on the dashboard. */
async function backToAccountArea(page: Page, account: NewAccount): Promise<void> {
  await page.goto('/user/dashboard');
  await new DashboardPage(page, 'vi').expectUser({ name: account.name, email: account.username });
}

test('remember this browser: the ticked box skips the second step at the next sign-in, until Forget all browsers', async ({ page, request }) => {
  test.setTimeout(150_000);
  const account = newAccount(uniqueEmail('remember'), 'Đỗ Thị Hoa');
  await createActiveAccount(request, account);
  await signInToAccountArea(page, account);
  const authenticator = await turnOnAuthenticator(page, account);

  // First sign-in: the 2-step screen offers the box, unticked; ticked with the code.
  await signOutThenSignInFromDemo(page, account);
  const second = new Login2StepPage(page, 'vi');
  await second.expectShown(tr('vi', 'login2Step.totpInstructions', { count: '6' }));
  const remember = page.getByRole('checkbox', { name: rememberLabel('vi'), exact: true });
  await expect(remember).not.toBeChecked();
  await remember.check();
  await saveWideAndNarrow(page, 'login-mfa-remember', 'vi');
  await second.verify(await authenticator.nextCode(page));
  await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
  const cookies = await page.context().cookies();
  const cookie = cookies.find((c) => c.name === 'passgate_remembered_browser');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/v1/' });
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 86_400_000);

  // Signed out and in again with the password: straight back to the application, no 2-step screen.
  await backToAccountArea(page, account);
  await signOutThenSignInFromDemo(page, account);
  await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });

  // The Security page counts it, and forgets it after a confirmation.
  await backToAccountArea(page, account);
  await openSecurity(page);
  const row = page.getByRole('listitem').filter({ has: page.getByText(tr('vi', 'account.security.rememberedBrowsers.title'), { exact: true }) });
  await expect(row).toContainText(tr('vi', 'account.security.rememberedBrowsers.count_one', { count: '1' }));
  await saveWideAndNarrow(page, 'security-remembered-browsers', 'vi');
  await row.getByRole('button', { name: tr('vi', 'account.security.rememberedBrowsers.forget'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: tr('vi', 'account.security.rememberedBrowsers.confirmTitle'), exact: true });
  await expect(dialog).toContainText(tr('vi', 'account.security.rememberedBrowsers.confirmText'));
  await saveWideAndNarrow(page, 'security-forget-browsers', 'vi', { show: dialog });
  await dialog.getByRole('button', { name: tr('vi', 'account.security.rememberedBrowsers.confirm'), exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText(tr('vi', 'account.security.rememberedBrowsers.none'));
  await expect(page.getByText(tr('vi', 'account.security.rememberedBrowsers.forgotten'), { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: tr('vi', 'account.security.rememberedBrowsers.forget'), exact: true })).toBeDisabled();
  // The row in English, then back to Vietnamese.
  const english = await new SecurityPage(page, 'vi').switchTo('en');
  await expect(page.getByText(tr('en', 'account.security.rememberedBrowsers.none'), { exact: true })).toBeVisible();
  await saveWideAndNarrow(page, 'security-remembered-browsers', 'en');
  await english.switchTo('vi');

  // The next sign-in (in English this time) asks for the code again.
  await signOutThenSignInFromDemo(page, account, 'en');
  const again = new Login2StepPage(page, 'en');
  await again.expectShown(tr('en', 'login2Step.totpInstructions', { count: '6' }));
  await expect(page.getByRole('checkbox', { name: rememberLabel('en'), exact: true })).not.toBeChecked();
  await saveWideAndNarrow(page, 'login-mfa-remember', 'en');
  await again.verify(await authenticator.nextCode(page));
  await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
});

import { expect, test } from '@playwright/test';
import { AccountPage } from '../pages/account-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail } from '../pages/accounts.ts';
import { ACCOUNT, DEMO_APP, PARTNER_SHOP, openLoginFromDemo, reopenWithLocale } from '../pages/clients.ts';
import { ErrorPage } from '../pages/error-page.ts';
import { tr } from '../pages/i18n.ts';
import { DemoPage } from '../pages/demo-page.ts';
import { DEMO_USER, LoginPage } from '../pages/login-page.ts';
import { LogoutPage } from '../pages/logout-page.ts';
import { saveScreenshot, saveWideAndNarrow } from '../pages/screenshots.ts';

test.describe.configure({ mode: 'parallel' });

test.describe('languages of the Login screen', () => {
  test('Vietnamese by default for Demo App; ?locale=en in the address makes it English', async ({ page }) => {
    const { login } = await openLoginFromDemo(page, DEMO_APP);
    await expect(login.username).toBeVisible();
    await expect(login.password).toBeVisible();
    await expect(login.forgotPassword).toHaveText('Quên mật khẩu?');

    const english = await reopenWithLocale(login, 'en');
    await english.expectShown(DEMO_APP.name, DEMO_APP.title);
    await expect(english.forgotPassword).toHaveText('Forgot password?');
    await expect(english.passwordless).toBeVisible();
    await expect(english.deviceLogin).toBeVisible();
    await expect(english.createAccount).toBeVisible();
    await expect(english.languageButton('en')).toHaveAttribute('aria-pressed', 'true');
    await saveScreenshot(page, 'login-demo-app-wide-en');

    // ?locale=vi on Partner Shop, English by default, makes it Vietnamese.
    const { login: shop } = await openLoginFromDemo(page, PARTNER_SHOP);
    const vietnamese = await reopenWithLocale(shop, 'vi');
    await vietnamese.expectShown(PARTNER_SHOP.name, PARTNER_SHOP.title);
    await saveScreenshot(page, 'login-partner-shop-wide-vi');
  });

  test('the language chosen on /demo is the Login screen’s language', async ({ page }) => {
    // /demo sends ui_locales and locale; the provider passes the language on in the /login address.
    const demo = new DemoPage(page);
    await demo.goto();
    await demo.signInTo('Demo App', 'en');
    const login = new LoginPage(page, 'en', DEMO_APP.usernameLabel);
    await expect(login.heading).toHaveText('Log in');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en', { timeout: 3_000 });
    await login.expectShown(DEMO_APP.name, DEMO_APP.title);
    await login.signIn();
    await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);
  });

  test('the language switcher switches at once, and the choice outlives a reload and the next sign-in', async ({ page }) => {
    const { login } = await openLoginFromDemo(page, DEMO_APP);
    const english = await login.switchTo('en');
    await english.expectShown(DEMO_APP.name, DEMO_APP.title);
    await expect(english.languageButton('vi')).toHaveAttribute('aria-pressed', 'false');
    await expect(page).not.toHaveURL(/locale=/);

    await page.reload();
    await english.expectShown(DEMO_APP.name, DEMO_APP.title);

    // The stored choice beats Demo App's own Vietnamese on a new sign-in, and other screens follow it.
    const again = await openLoginFromDemo(page, DEMO_APP, { locale: 'en' });
    await expect(again.login.forgotPassword).toHaveText('Forgot password?');
    await page.goto('/no-such-page');
    await new ErrorPage(page, 'en').expectStatus(404);

    // Back to Vietnamese with the switcher, again kept across a reload.
    await page.goBack();
    const vietnamese = await again.login.switchTo('vi');
    await vietnamese.expectShown(DEMO_APP.name, DEMO_APP.title);
    await page.reload();
    await vietnamese.expectShown(DEMO_APP.name, DEMO_APP.title);
    await expect(vietnamese.submit).toHaveText(tr('vi', 'login.submit'));
  });
});

test('an English sign-in to Demo App (Vietnamese by default) stays English through logout', async ({ page }) => {
  const { demo, login } = await openLoginFromDemo(page, DEMO_APP, { locale: 'en', choose: 'en' });
  await expect(login.forgotPassword).toHaveText('Forgot password?');
  await login.signIn();
  await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);

  // The relying party asks for English on the end-session request too (ui_locales).
  await demo.logOut.click();
  const logout = new LogoutPage(page, 'en');
  await logout.expectShown(DEMO_APP.name);
  await expect(page).toHaveURL(/[?&]locale=en(&|$)/);
  await saveScreenshot(page, 'logout-demo-app-en');
  await logout.confirm.click();
  await expect(page).toHaveURL(/\/demo\?(.*&)?state=signed-out/);
});

test('an English sign-in to the account area stays English through its Log out, and the sign-in after it is English', async ({ page, request }) => {
  const account = newAccount(uniqueEmail('lang-logout'), 'Jane Walker');
  await createActiveAccount(request, account);
  await page.goto('/user/dashboard?locale=en');
  const login = new LoginPage(page, 'en', ACCOUNT.usernameLabel);
  await login.expectShown(ACCOUNT.name);
  await login.signIn(account.username, account.password);
  const area = new AccountPage(page, 'en');
  await expect(area.userMenuButton).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // The end-session request asks for English, and the sign-in the area starts afterwards speaks it.
  const endSession = page.waitForRequest((sent) => new URL(sent.url()).pathname.endsWith('/session/end'));
  await area.signOut();
  expect(new URL((await endSession).url()).searchParams.get('ui_locales')).toBe('en');
  await login.expectShown(ACCOUNT.name);
  await expect(page).toHaveURL(/[?&]locale=en(&|$)/);
  await saveWideAndNarrow(page, 'login-account-after-logout', 'en');

  // The privacy policy opens in a tab of its own, in English too.
  const [policy] = await Promise.all([page.context().waitForEvent('page'), login.privacyPolicy.click()]);
  await expect(policy.locator('html')).toHaveAttribute('lang', 'en');
  // The policy itself is published in Vietnamese; the page around it, and the note saying so, are English.
  await expect(policy.getByText(tr('en', 'privacy.languageNote'), { exact: true })).toBeVisible();
  await expect(policy.getByRole('button', { name: tr('en', 'common.close'), exact: true })).toBeVisible();
  await saveWideAndNarrow(policy, 'privacy-from-english-login', 'en');
});

test('the account-deleted screen in English leads to an English sign-in', async ({ page }) => {
  await page.goto('/account-deleted?locale=en');
  const link = page.getByRole('link', { name: 'Sign in with another account' });
  await expect(link).toHaveAttribute('href', '/user/dashboard?locale=en');
  await link.click();
  await new LoginPage(page, 'en', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
});

test('the way back to Demo App from an English screen keeps English', async ({ page }) => {
  const { login } = await openLoginFromDemo(page, DEMO_APP, { locale: 'en', choose: 'en' });
  await expect(page.getByRole('link', { name: 'Back to Demo App' })).toHaveAttribute('href', /\/demo\?locale=en$/);
  await expect(login.privacyPolicy).toHaveAttribute('href', '/privacy?locale=en');
});

import { expect, test, type Page } from '@playwright/test';
import { DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { DEMO_USER } from '../pages/login-page.ts';
import { saveScreenshot, saveWideAndNarrow } from '../pages/screenshots.ts';
import { tr } from '../pages/i18n.ts';

/** Counts the credentials the browser posts to Passgate's login API from now on. */
function countPasswordLogins(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/users/login') count += 1;
  });
  return () => count;
}

test('Back after signing in lands on the client’s screen with the way back to it, which signs in again at once', async ({ page }) => {
  const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
  await login.signIn();
  await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);

  await page.goBack();
  await expect(page).toHaveURL(/\/login\?challenge=.*client_id=demo-app/);
  await expect(page.getByRole('heading', { level: 1, name: 'Yêu cầu đăng nhập này đã kết thúc' })).toBeVisible();
  await expect(page).toHaveTitle('Yêu cầu đăng nhập đã kết thúc · Demo App');
  await expect(page.getByRole('button', { name: 'Thử lại' })).toHaveCount(0);
  await saveScreenshot(page, 'request-gone-demo-app-vi');

  const passwordLogins = countPasswordLogins(page);
  await page.getByRole('link', { name: 'Quay lại Demo App' }).click();
  await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);
  expect(passwordLogins()).toBe(0);
});

test('a bookmarked sign-in page in English leads back to the client in English', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/login?challenge=bookmarked-long-ago&client_id=demo-app&locale=en');
  await expect(page.getByRole('heading', { level: 1, name: 'This sign-in is no longer open' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Demo App' })).toHaveAttribute('href', /\/demo\/login\?client=demo-app&locale=en$/);
  await saveScreenshot(page, 'request-gone-bookmarked-en-phone');
});

test('the privacy policy opens in a tab of its own and closes back to the sign-in, which goes on', async ({ page, context }) => {
  const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
  const signInUrl = page.url();
  const [policy] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Chính sách quyền riêng tư' }).click()]);
  await expect(policy.getByRole('heading', { level: 1, name: 'Chính sách quyền riêng tư' })).toBeVisible();
  expect(page.url()).toBe(signInUrl);
  // The button closes its own tab, which can happen before the click's own bookkeeping is done.
  const closed = policy.waitForEvent('close');
  await policy
    .getByRole('button', { name: 'Đóng' })
    .click()
    .catch((error: unknown) => {
      if (!policy.isClosed()) throw error;
    });
  await closed;
  expect(policy.isClosed()).toBe(true);
  await login.signIn();
  await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);
});

test('the account-deleted screen leads on to a sign-in', async ({ page }) => {
  await page.goto('/account-deleted?locale=en');
  await expect(page.getByRole('heading', { level: 1, name: 'Your account has been deleted' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in with another account' }).click();
  await expect(page).toHaveURL(/\/login\?challenge=/);
});

// A bookmarked or stale address of a later step of a sign-in has no route state (the MFA token, the
// username) and often an unknown challenge: the themed way back to the client, never an error page.
for (const [name, path] of [
  ['mfa', '/login/mfa'],
  ['activation', '/activation'],
  ['password-update', '/password/update'],
] as const) {
  for (const locale of ['vi', 'en'] as const) {
    test(`a bookmarked ${path} (${locale}) leads back to the client instead of an error`, async ({ page }) => {
      await page.goto(`${path}?challenge=bookmarked-long-ago&client_id=demo-app&locale=${locale}`);
      await expect(page.getByRole('heading', { level: 1, name: tr(locale, 'requestGone.heading') })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.getByText(tr(locale, 'errorPage.headings.500'), { exact: true })).toHaveCount(0);
      await expect(page.getByRole('link', { name: tr(locale, 'requestGone.back', { client: 'Demo App' }) })).toHaveAttribute('href', new RegExp(`/demo/login\\?client=demo-app&locale=${locale}$`));
      await saveWideAndNarrow(page, `request-gone-${name}`, locale);
    });
  }

  test(`${path} with no challenge at all leads to the account`, async ({ page }) => {
    await page.goto(`${path}?locale=en`);
    await expect(page.getByRole('heading', { level: 1, name: 'This sign-in is no longer open' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to your account' })).toBeVisible();
  });
}

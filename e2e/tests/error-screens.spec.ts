import { expect, test } from '@playwright/test';
import { ACCOUNT } from '../pages/clients.ts';
import { ErrorPage } from '../pages/error-page.ts';
import { tr } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { saveScreenshot } from '../pages/screenshots.ts';

test.describe.configure({ mode: 'parallel' });

test.describe('error screens', () => {
  test('an unknown path shows the 404 Error screen, whose Back leads home', async ({ page }) => {
    await page.goto('/no-such-page');
    const error = new ErrorPage(page, 'vi');
    await error.expectStatus(404);
    await expect(error.heading).toHaveText('Không tìm thấy trang');
    await saveScreenshot(page, 'error-404-vi');

    // No page of the app to go back to: Back goes home, which for a visitor is the sign-in.
    await error.back.click();
    await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
  });

  test('the 404 Error screen in English', async ({ page }) => {
    await page.goto('/no-such-page?locale=en');
    const error = new ErrorPage(page, 'en');
    await error.expectStatus(404);
    await expect(error.heading).toHaveText('Page Not Found');
    await saveScreenshot(page, 'error-404-en');
  });

  test('any path under /alert becomes the session-expired alert, which offers a new sign-in', async ({ page }) => {
    await page.goto('/alert/anything');
    const alert = new ErrorPage(page, 'vi');
    await alert.expectSessionExpired();
    await saveScreenshot(page, 'session-expired-vi');

    await alert.relogin.click();
    await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
  });

  test('the privacy policy is public', async ({ page }) => {
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chính sách quyền riêng tư');
    await expect(page).toHaveTitle(tr('vi', 'privacy.documentTitle'));
    await expect(page.getByRole('navigation', { name: 'Mục lục' }).getByRole('link').first()).toBeVisible();
    await saveScreenshot(page, 'privacy-vi');
  });
});

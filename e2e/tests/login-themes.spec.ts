import { expect, test } from '@playwright/test';
import { DEMO_APP, PARTNER_SHOP, openLoginFromDemo } from '../pages/clients.ts';
import { DEMO_USER } from '../pages/login-page.ts';
import { saveScreenshot } from '../pages/screenshots.ts';

test.describe.configure({ mode: 'parallel' });

test.describe('themed Login screen, from the demo relying party', () => {
  test('Demo App: blue theme, Vietnamese by default, every way in, then the claims on /demo', async ({ page }) => {
    const { demo, login } = await openLoginFromDemo(page, DEMO_APP);

    // What the page is, with the client's name beside it.
    await expect(page).toHaveTitle('Đăng nhập · Demo App');
    await expect(login.heading).toHaveText('Đăng nhập');
    // Demo App signs in with passkeys: the browser offers them from the username field.
    await expect(login.username).toHaveAttribute('autocomplete', 'username webauthn');
    await expect(login.submit).toHaveText('Đăng nhập');
    await expect(login.submit).toHaveCSS('background-color', DEMO_APP.buttonColor);
    // Chromium has PublicKeyCredential, so device login is offered too.
    expect(await page.evaluate(() => typeof window.PublicKeyCredential)).toBe('function');
    await expect(login.forgotPassword).toBeVisible();
    await expect(login.passwordless).toBeVisible();
    await expect(login.deviceLogin).toBeVisible();
    await expect(login.createAccount).toBeVisible();
    await expect(login.languageButton('vi')).toHaveAttribute('aria-pressed', 'true');
    await expect(login.privacyPolicy).toBeVisible();
    await saveScreenshot(page, 'login-demo-app-wide-vi');

    await login.signIn();
    await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);
    await expect(demo.claim('email_verified')).toHaveText('true');
    await saveScreenshot(page, 'demo-signed-in-demo-app');
  });

  test('Partner Shop: its own theme, English by default, only e-mail and password', async ({ page }) => {
    const { demo, login } = await openLoginFromDemo(page, PARTNER_SHOP);

    await expect(page).toHaveTitle('Log in · Partner Shop');
    await expect(login.heading).toHaveText('Log in');
    await expect(login.submit).toHaveText('Log in');
    await expect(login.submit).toHaveCSS('background-color', PARTNER_SHOP.buttonColor);
    await expect(login.username).toHaveAttribute('type', 'email');
    // No webauthn:login, so no passkeys offered from the field.
    await expect(login.username).toHaveAttribute('autocomplete', 'username');
    await expect(login.languageButton('en')).toHaveAttribute('aria-pressed', 'true');
    // Its capabilities (users:email:login only) forbid every other way in.
    await expect(login.forgotPassword).toHaveCount(0);
    await expect(login.passwordless).toHaveCount(0);
    await expect(login.deviceLogin).toHaveCount(0);
    await expect(login.createAccount).toHaveCount(0);
    await expect(login.google).toHaveCount(0);
    await expect(login.facebook).toHaveCount(0);
    // The only link left on the screen is the fixed Privacy Policy one.
    await expect(page.getByRole('link')).toHaveText(['Privacy Policy']);
    await saveScreenshot(page, 'login-partner-shop-wide-en');

    await login.signIn();
    await demo.expectSignedIn('Partner Shop', PARTNER_SHOP.id, DEMO_USER);
    await saveScreenshot(page, 'demo-signed-in-partner-shop');
  });
});

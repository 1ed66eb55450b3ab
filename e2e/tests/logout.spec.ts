import { expect, test, type Page } from '@playwright/test';
import { DEMO_APP, PARTNER_SHOP, openLoginFromDemo } from '../pages/clients.ts';
import { DEMO_USER, LoginPage } from '../pages/login-page.ts';
import { LogoutPage } from '../pages/logout-page.ts';
import { saveScreenshot } from '../pages/screenshots.ts';

/** Counts the credentials the browser posts to Passgate's login API from now on. */
function countPasswordLogins(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/users/login') count += 1;
  });
  return () => count;
}

test('logout from the relying party: Back keeps the Passgate session, Log out ends it', async ({ page }) => {
  const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
  await login.signIn();
  await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);

  // Log out without id_token_hint: Passgate asks first.
  await demo.logOut.click();
  const logout = new LogoutPage(page, 'vi');
  await logout.expectShown(DEMO_APP.name);
  await saveScreenshot(page, 'logout-demo-app-vi');

  // Back: returned to /demo, still signed in at the provider, so a new sign-in needs no password.
  await logout.back.click();
  await expect(page).toHaveURL(/\/demo(\?|$)/);
  await saveScreenshot(page, 'demo-after-logout-back');
  const passwordLogins = countPasswordLogins(page);
  await demo.goto();
  await demo.signInTo('Demo App');
  await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);
  expect(passwordLogins()).toBe(0);

  // Log out: returned to /demo signed out, and a new sign-in asks for the password again.
  await demo.logOut.click();
  await logout.expectShown(DEMO_APP.name);
  await logout.confirm.click();
  await expect(page).toHaveURL(/\/demo\?(.*&)?state=signed-out/);
  await expect(demo.notice).toHaveText('You are signed out of Passgate.');
  await expect(demo.resultHeading).toHaveCount(0);
  await saveScreenshot(page, 'demo-signed-out');

  await demo.signInTo('Demo App');
  const again = new LoginPage(page, 'vi', DEMO_APP.usernameLabel);
  await again.expectShown(DEMO_APP.name, DEMO_APP.title);
  expect(passwordLogins()).toBe(0);
});

test.describe('logout details', () => {
  test.describe.configure({ mode: 'parallel' });

  test('after Back on the Logout screen, /demo still shows the user signed in', async ({ page }) => {
    // Back returns to post_logout_redirect_uri without the relying party's logout `state`, so the
    // relying party does not take it for a completed logout.
    const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
    await login.signIn();
    await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);
    await demo.logOut.click();
    const logout = new LogoutPage(page, 'vi');
    await logout.expectShown(DEMO_APP.name);
    await logout.back.click();
    await expect(page).toHaveURL(/\/demo(\?|$)/);
    await expect(demo.notice).toHaveCount(0, { timeout: 2_000 });
    await expect(demo.resultHeading).toHaveText(`Signed in to Demo App as ${DEMO_USER.name}`, { timeout: 2_000 });
  });

  test('Partner Shop’s Logout screen speaks its language (English), like its Login screen', async ({ page }) => {
    const { demo, login } = await openLoginFromDemo(page, PARTNER_SHOP);
    await login.signIn();
    await demo.expectSignedIn('Partner Shop', PARTNER_SHOP.id, DEMO_USER);
    await demo.logOut.click();
    const logout = new LogoutPage(page, 'en');
    await expect(page).toHaveURL(/\/logout\?challenge=/);
    await expect(logout.heading).toBeVisible();
    await saveScreenshot(page, 'logout-partner-shop');
    await expect(logout.heading).toHaveText('Log out', { timeout: 3_000 });
    await logout.expectShown(PARTNER_SHOP.name);
  });
});

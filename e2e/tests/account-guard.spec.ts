import { test } from '@playwright/test';
import { ACCOUNT } from '../pages/clients.ts';
import { DashboardPage } from '../pages/dashboard-page.ts';
import { DEMO_USER, LoginPage } from '../pages/login-page.ts';
import { saveScreenshot } from '../pages/screenshots.ts';

test('the account area sends a signed-out visitor through Passgate’s Login and back to the dashboard', async ({ page }) => {
  await page.goto('/user/dashboard');

  // The login guard starts a sign-in of the `account` client: Passgate's own, unthemed Login screen.
  const login = new LoginPage(page, 'vi', ACCOUNT.usernameLabel);
  await login.expectShown(ACCOUNT.name);
  await saveScreenshot(page, 'login-account-wide-vi');

  await login.signIn();
  const dashboard = new DashboardPage(page, 'vi');
  await dashboard.expectUser(DEMO_USER);
  await saveScreenshot(page, 'dashboard');

  // Inside the area, another account path is still signed in: it lands on the dashboard without a login.
  await page.goto('/user/no-such-section');
  await dashboard.expectUser(DEMO_USER);
});

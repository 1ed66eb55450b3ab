import { expect, test, type Page } from '@playwright/test';
import { AccountPage } from '../pages/account-pages.ts';
import { ACCOUNT } from '../pages/clients.ts';
import { DashboardPage } from '../pages/dashboard-page.ts';
import { DEMO_USER, LoginPage } from '../pages/login-page.ts';

/** Every authorization request a tab makes: a sign-in round through the provider starts with one. */
function authorizationRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/oidc/auth') seen.push(request.url());
  });
  return seen;
}

test('a second tab of the account area opens signed in from the first, without a round through the provider', async ({ page, context }) => {
  await page.goto('/user/dashboard');
  const login = new LoginPage(page, 'vi', ACCOUNT.usernameLabel);
  await login.expectShown(ACCOUNT.name);
  await login.signIn();
  await new DashboardPage(page, 'vi').expectUser(DEMO_USER);

  const second = await context.newPage();
  const secondRounds = authorizationRequests(second);
  await second.goto('/user/dashboard');
  await new DashboardPage(second, 'vi').expectUser(DEMO_USER);
  // A reload keeps the tab's own session too.
  await second.reload();
  await new DashboardPage(second, 'vi').expectUser(DEMO_USER);
  expect(secondRounds).toEqual([]);

  // Log out in the first tab: the second no longer hands the ended session to a new tab, which
  // goes to the provider and, its session ended too, is asked to sign in.
  await new AccountPage(page, 'vi').signOut();
  await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
  const third = await context.newPage();
  const thirdRounds = authorizationRequests(third);
  await third.goto('/user/dashboard');
  await new LoginPage(third, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
  expect(thirdRounds).toHaveLength(1);
});

import { expect, test, type Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { createActiveAccount, newAccount, uniqueEmail } from '../pages/accounts.ts';
import { DEMO_APP, PARTNER_SHOP, openLoginFromDemo } from '../pages/clients.ts';
import type { DemoPage } from '../pages/demo-page.ts';
import { tr } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { codeIn, Outbox } from '../pages/outbox.ts';
import { passgate } from '../pages/passgate-cli.ts';
import { RegisterPage } from '../pages/register-page.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';
import { FakeSdks, SocialLinkPage, issueToken, setSocialApps, type SocialApps, type SocialPerson } from '../pages/social-pages.ts';

/**
 * Google and Facebook sign-in in Chromium. The SDK scripts are served by a route handler (fake
 * SDKs whose popup hands back a token at once) and the server checks each token with
 * fake-social-provider.mjs, which knows the tokens the scenarios registered and the person behind
 * each. /demo signs in only as its seeded clients, so Demo App gets Google and Facebook apps for
 * the length of this file (and loses them after); the scenarios run in order in one worker.
 */
const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const APPS: SocialApps = {
  googleAppId: `e2e-${suffix()}.apps.googleusercontent.com`,
  facebookAppId: `${Date.now()}`,
  facebookAppSecret: `fb-secret-${suffix()}`,
};

function person(tag: string, name: string, email = uniqueEmail(tag)): SocialPerson {
  // Google's picture is served by the fake provider, whose origin Passgate may fetch from over http.
  return { id: `${tag}-${suffix()}`, email, emailVerified: true, name, picture: `${process.env.E2E_SOCIAL_URL}/google/picture.png` };
}

test.beforeAll(async () => {
  await setSocialApps(DEMO_APP.id, APPS);
});

test.afterAll(async () => {
  await setSocialApps(DEMO_APP.id, null);
});

/** Demo App's Login screen, with the fake SDKs in place and their popups handing out `tokens`. */
async function openDemoLogin(page: Page, tokens: { google?: string | null; facebook?: string | null }): Promise<{ demo: DemoPage; login: LoginPage; sdks: FakeSdks }> {
  const sdks = await new FakeSdks(page).install();
  if (tokens.google !== undefined) sdks.hand('google', tokens.google);
  if (tokens.facebook !== undefined) sdks.hand('facebook', tokens.facebook);
  const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
  return { demo, login, sdks };
}

test('Google: a first sign-in through /demo creates the account, and /demo shows its e-mail and name', async ({ page }) => {
  const user = person('google', 'Trần Thị Gấm');
  const { demo, login, sdks } = await openDemoLogin(page, { google: await issueToken('google', APPS, user) });
  await expect(login.google).toBeEnabled();
  await expect(login.facebook).toBeEnabled();
  // Each SDK was loaded once, for the screen's language, and set up with Demo App's apps.
  expect(sdks.requested.sort()).toEqual(['https://accounts.google.com/gsi/client', 'https://connect.facebook.net/vi_VN/sdk.js']);
  expect(await sdks.use()).toMatchObject({
    google: { clientId: APPS.googleAppId, scope: 'openid email profile', requests: 0 },
    facebook: { init: { appId: APPS.facebookAppId, version: 'v19.0', cookie: false, xfbml: false }, logins: 0 },
  });
  await saveWideAndNarrow(page, 'login-social', 'vi');

  await login.google.click();
  await demo.expectSignedIn('Demo App', DEMO_APP.id, user);
  await expect(demo.claim('email_verified')).toHaveText('true');
  // The Google picture became the account's avatar, served by Passgate as a 256 px WebP.
  const picture = (await demo.claim('picture').textContent()) ?? '';
  expect(picture).toMatch(/\/api\/v1\/avatars\//);
  const avatar = await page.request.get(picture);
  expect(avatar.headers()['content-type']).toBe('image/webp');
});

test('Google from the Register screen: the button waits for the policy box, then signs up and /demo shows the claims', async ({ page }) => {
  const user = person('google-register', 'Vũ Thị Lan');
  const { demo, login, sdks } = await openDemoLogin(page, { google: await issueToken('google', APPS, user) });
  await login.createAccount.click();
  const register = new RegisterPage(page, 'vi', DEMO_APP.usernameLabel);
  await register.expectShown(DEMO_APP.name);
  const google = page.getByRole('button', { name: tr('vi', 'login.google'), exact: true });
  const facebook = page.getByRole('button', { name: tr('vi', 'login.facebook'), exact: true });
  // The SDKs are loaded and set up: only the unticked policy box holds the buttons off, as it holds Register.
  await expect.poll(async () => Object.keys(await sdks.use()).sort()).toEqual(['facebook', 'google']);
  for (const button of [google, facebook, register.submit]) await expect(button).toBeDisabled();
  await expect(google).toHaveAccessibleDescription(tr('vi', 'register.socialNeedsPolicy'));
  // Login was scrolled down to reach 'Create account'; Register opens at its top, buttons in view.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(google).toBeInViewport();
  await saveWideAndNarrow(page, 'register-social', 'vi');

  await register.policy.check();
  await expect(google).toBeEnabled();
  await expect(facebook).toBeEnabled();
  await register.policy.uncheck();
  await expect(google).toBeDisabled();
  await register.policy.check();
  await google.click();
  await demo.expectSignedIn('Demo App', DEMO_APP.id, user);
  await expect(demo.claim('email_verified')).toHaveText('true');
});

test('Facebook: sign-in through /demo in English, then the same person signs in again without a new account', async ({ page, browser }) => {
  const user = person('facebook', 'Lê Văn Phúc');
  const sdks = await new FakeSdks(page).install();
  sdks.hand('facebook', await issueToken('facebook', APPS, user));
  const { demo, login } = await openLoginFromDemo(page, DEMO_APP, { locale: 'en', choose: 'en' });
  await expect(login.facebook).toBeEnabled();
  expect(sdks.requested).toContain('https://connect.facebook.net/en_US/sdk.js');

  await login.facebook.click();
  await demo.expectSignedIn('Demo App', DEMO_APP.id, user);
  const firstSub = await demo.claim('sub').textContent();

  // Another browser, no Passgate session: the same Facebook person lands on the same account.
  const context = await browser.newContext();
  try {
    const again = await context.newPage();
    const sdks2 = await new FakeSdks(again).install();
    sdks2.hand('facebook', await issueToken('facebook', APPS, user));
    const second = await openLoginFromDemo(again, DEMO_APP, { locale: 'en', choose: 'en' });
    await expect(second.login.facebook).toBeEnabled();
    await second.login.facebook.click();
    await second.demo.expectSignedIn('Demo App', DEMO_APP.id, user);
    await expect(second.demo.claim('sub')).toHaveText(firstSub!);
  } finally {
    await context.close();
  }
});

test('closing the popup does nothing: no message, the screen stays', async ({ page }) => {
  const { login, sdks } = await openDemoLogin(page, { google: null, facebook: null });
  for (const [button, count] of [[login.google, () => sdks.use().then((use) => use.google?.requests)], [login.facebook, () => sdks.use().then((use) => use.facebook?.logins)]] as const) {
    await expect(button).toBeEnabled();
    await button.click();
    await expect.poll(count).toBe(1);
    await expect(button).toBeEnabled();
  }
  await expect(login.alert).toHaveCount(0);
  await expect(page).toHaveURL(/\/login\?/);
});

test('a token the provider does not vouch for is refused with its message, and the user stays on Login', async ({ page }) => {
  // Issued for another Google app: the audience does not match Demo App's.
  const otherApp = { ...APPS, googleAppId: `other-${APPS.googleAppId}` };
  const { login } = await openDemoLogin(page, { google: await issueToken('google', otherApp, person('google-other', 'Người Khác')) });
  await expect(login.google).toBeEnabled();
  await login.google.click();
  await expect(login.alert).toHaveText(tr('vi', 'errors.1063'));
  await expect(page).toHaveURL(/\/login\?/);
  await expect(login.google).toBeEnabled();
});

test('a client without the capability or the app id shows no button and loads no SDK', async ({ page, baseURL }) => {
  const sdks = await new FakeSdks(page).install();
  // Partner Shop: e-mail and password only.
  await openLoginFromDemo(page, PARTNER_SHOP);
  const partner = new LoginPage(page, 'en', 'email');
  await expect(partner.google).toHaveCount(0);
  await expect(partner.facebook).toHaveCount(0);

  // A client with both capabilities but no app ids.
  const id = `social-no-app-${suffix()}`;
  const redirectUri = `${baseURL}/rp/social-callback`;
  await passgate(['client', 'create', '--id', id, '--tenant', 'demo', '--name', 'No Apps', '--redirect-uris', redirectUri, '--default-locale', 'en',
    '--permissions', 'users:email:login,social:google:login,social:google:register,social:facebook:login,social:facebook:register'], { PASSGATE_CLIENT_SECRET: `secret-${suffix()}-0123456789` });
  const config = await oidc.discovery(new URL(`${baseURL}/oidc`), id, undefined, undefined, { execute: [oidc.allowInsecureRequests] });
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256' });
  await page.goto(url.href);
  const login = new LoginPage(page, 'en', 'email');
  await login.expectShown('No Apps');
  await expect(login.google).toHaveCount(0);
  await expect(login.facebook).toHaveCount(0);
  expect(sdks.requested).toEqual([]);
});

test('linking Google to an existing password account by its password; next time Google signs in directly', async ({ page, request, browser }) => {
  const account = newAccount(uniqueEmail('link'), 'Phạm Minh Khoa');
  await createActiveAccount(request, account);
  const user = person('google-link', 'Khoa Phạm (Google)', account.username);
  const sdks = await new FakeSdks(page).install();
  sdks.hand('google', await issueToken('google', APPS, user));
  const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
  await expect(login.google).toBeEnabled();
  await login.google.click();

  const link = new SocialLinkPage(page, 'vi');
  const masked = await link.expectShown('google', DEMO_APP.name, /\*/);
  expect(masked).not.toContain(account.username.split('@')[0]);
  await saveWideAndNarrow(page, 'social-link', 'vi');

  // A wrong password is refused, said once beside the password, and the account is not linked.
  await link.password.fill('Not-the-Passw0rd');
  await link.submit.click();
  await expect(link.password).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(tr('vi', 'errors.1017'), { exact: true })).toHaveCount(1);
  await expect(link.password).toBeFocused();
  await link.password.fill(account.password);
  await link.submit.click();
  // Signed in to the existing account: its own name, not Google's.
  await demo.expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
  const sub = await demo.claim('sub').textContent();

  const context = await browser.newContext();
  try {
    const again = await context.newPage();
    const sdks2 = await new FakeSdks(again).install();
    sdks2.hand('google', await issueToken('google', APPS, user));
    const second = await openLoginFromDemo(again, DEMO_APP);
    await expect(second.login.google).toBeEnabled();
    await second.login.google.click();
    await second.demo.expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
    await expect(second.demo.claim('sub')).toHaveText(sub!);
  } finally {
    await context.close();
  }
});

test('linking Facebook to an existing account by a code sent to its e-mail', async ({ page, request }) => {
  const account = newAccount(uniqueEmail('link-code'), 'Đỗ Thu Hà');
  await createActiveAccount(request, account);
  const outbox = new Outbox(request);
  const seen = await outbox.messages(account.username);
  const sdks = await new FakeSdks(page).install();
  sdks.hand('facebook', await issueToken('facebook', APPS, person('facebook-link', 'Hà Đỗ (Facebook)', account.username)));
  const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
  await expect(login.facebook).toBeEnabled();
  await login.facebook.click();

  const link = new SocialLinkPage(page, 'vi');
  const masked = await link.expectShown('facebook', DEMO_APP.name, /\*/);
  await link.sendCode(masked).click();
  await expect(link.code).toBeFocused();
  await expect(page.getByRole('button', { name: new RegExp(`^${tr('vi', 'flow.resendCode')}`) })).toBeDisabled();
  await expect(link.password).toHaveCount(0);
  const code = codeIn(await outbox.next(account.username, seen));

  await link.code.fill(code);
  await link.submit.click();
  await demo.expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
});

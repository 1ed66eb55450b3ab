import { expect, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { PasswordExpiryPage, SendCodePage } from '../pages/flow-pages.ts';
import { LoginPage } from '../pages/login-page.ts';
import { backdatePassword, passgate } from '../pages/passgate-cli.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';

const DAY = 86_400_000;
const TIME_ZONE = 'Asia/Ho_Chi_Minh';
test.use({ timezoneId: TIME_ZONE });

/**
 * A tenant of its own, so the demo tenant's accounts never expire: passwords live 90 days and
 * sign-in warns in the last 14. Its relying party is made here too; /demo knows only the seeded
 * ones, so this scenario is the relying party: it builds the authorization request (PKCE, state,
 * nonce) with openid-client and redeems the code it gets back.
 */
const CALLBACK_PATH = '/rp/expiry-callback';

/** Names no earlier run or repeat uses. */
function expiryFixture() {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    tenant: `expiry-${suffix}`,
    client: { id: `expiry-app-${suffix}`, name: 'Expiry App', secret: `secret-${suffix}-0123456789` },
    user: { email: `expiring-${suffix}@example.com`, name: 'Hoàng Gia Bảo', password: 'Expiring-Passw0rd' },
  };
}
type ExpiryFixture = ReturnType<typeof expiryFixture>;

/** The tenant, its relying party and the account, made with the command line as an operator would. */
async function createExpiryTenant({ tenant, client, user }: ExpiryFixture, baseURL: string): Promise<void> {
  await passgate(['tenant', 'create', '--id', tenant, '--name', 'Expiry Test', '--brand-name', 'Expiry Test', '--password-max-age-days', '90', '--password-warning-days', '14']);
  await Promise.all([
    passgate(
      ['client', 'create', '--id', client.id, '--tenant', tenant, '--name', client.name, '--redirect-uris', `${baseURL}${CALLBACK_PATH}`, '--permissions', 'users:email:login,password:reset', '--default-locale', 'en'],
      { PASSGATE_CLIENT_SECRET: client.secret },
    ),
    passgate(['user', 'create', '--tenant', tenant, '--email', user.email, '--name', user.name, '--status', 'active'], { PASSGATE_PASSWORD: user.password }),
  ]);
}

/** DD/MM/YYYY in the browser's time zone, as the screen writes dates. */
function screenDate(unixMillis: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' }).format(unixMillis);
}

test('a password inside its warning period: the expiry screen, then Continue login reaches the relying party with a code', async ({ page, baseURL }) => {
  const fixture = expiryFixture();
  const { tenant, client, user } = fixture;
  await createExpiryTenant(fixture, baseURL!);
  // Set 80 days ago: it expires in 10 days, inside the 14-day warning period.
  const changedAt = Date.now() - 80 * DAY;
  backdatePassword(tenant, user.email, changedAt);
  const expiresAt = Math.floor((changedAt + 90 * DAY) / 1000) * 1000;

  const config = await oidc.discovery(new URL(`${baseURL}/oidc`), client.id, undefined, oidc.ClientSecretBasic(client.secret), { execute: [oidc.allowInsecureRequests] });
  const rp = { codeVerifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${baseURL}${CALLBACK_PATH}`,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(rp.codeVerifier),
    code_challenge_method: 'S256',
    state: rp.state,
    nonce: rp.nonce,
  });
  await page.goto(authorizationUrl.href);
  const login = new LoginPage(page, 'en', 'email');
  await login.expectShown(client.name);
  await login.signIn(user.email, user.password);

  const expiry = new PasswordExpiryPage(page, 'en', 'email');
  await expiry.expectShown(client.name, 10, screenDate(expiresAt));
  await expect(page.getByText(`Your password will expire in 10 days, on ${screenDate(expiresAt)}.`, { exact: true })).toBeVisible();
  await expect(expiry.resetPassword).toBeEnabled();
  await saveWideAndNarrow(page, 'password-coming-expire', 'en');

  // Reset password leads to recovery with the account filled in; Back returns to the warning.
  await expiry.resetPassword.click();
  const recover = new SendCodePage(page, 'passwordRecover', 'en', 'email');
  await recover.expectShown(client.name);
  await expect(recover.username).toHaveValue(user.email);
  await page.goBack();
  await expiry.expectShown(client.name, 10, screenDate(expiresAt));

  // Continue login: on to the relying party, which redeems the code for the account's tokens.
  // (Nothing serves the callback address: what counts is the request the browser makes to it.)
  const callbackRequest = page.waitForRequest((request) => new URL(request.url()).pathname === CALLBACK_PATH);
  await expiry.continueLogin.click();
  const callback = new URL((await callbackRequest).url());
  expect(callback.searchParams.get('code')).toBeTruthy();
  expect(callback.searchParams.get('state')).toBe(rp.state);

  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: rp.codeVerifier, expectedState: rp.state, expectedNonce: rp.nonce, idTokenExpected: true });
  const claims = tokens.claims();
  expect(claims?.aud).toBe(client.id);
  expect(claims?.email).toBe(user.email);
  expect(claims?.name).toBe(user.name);
});
